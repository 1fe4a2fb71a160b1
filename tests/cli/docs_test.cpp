// README and the architecture document: links that resolve inside a clone.
#include <regex>

#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;

namespace {
const std::filesystem::path kRoot = COINFER_SOURCE_DIR;
}

TEST_CASE("every relative link in README and docs names a file in the repository") {
  const std::regex link(R"(\]\(([^)#:\s]+)(#[^)]*)?\))");  // [text](path), not URLs
  std::size_t links = 0;
  for (const auto* doc : {"README.md", "docs/architecture.md"}) {
    const auto text = read_text(kRoot / doc);
    REQUIRE_FALSE(text.empty());
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it, ++links) {
      const auto target = (kRoot / doc).parent_path() / (*it)[1].str();
      INFO(doc << " links " << (*it)[1].str());
      CHECK(std::filesystem::exists(target));
    }
  }
  CHECK(links > 0);  // README links the architecture document
}

TEST_CASE("README does not send readers to files a clone lacks") {
  const auto text = read_text(kRoot / "README.md");
  CHECK(text.find("shared folder") == std::string::npos);
  CHECK(text.find("DESIGN.md") == std::string::npos);
}
