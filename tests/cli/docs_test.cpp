// README, the user's guide and every tracked file: no reference a clone cannot resolve, no dead link.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
namespace fs = std::filesystem;

namespace {
const fs::path kRoot = COINFER_SOURCE_DIR;

bool is_build_dir(const std::string& name) {
  return name.rfind("build", 0) == 0 || name == ".git" || name == "out" || name == ".cache";
}

/// Tracked files, relative to the root: `git ls-files` in a clone, else the tree minus build output.
std::vector<std::string> tracked_files() {
  std::vector<std::string> files;
  if (fs::exists(kRoot / ".git")) {
    const std::string cmd = "git -C '" + kRoot.string() + "' ls-files -z";
    if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
      std::string name;
      for (int c; (c = std::fgetc(pipe)) != EOF;) {
        if (c != '\0')
          name += static_cast<char>(c);
        else
          files.push_back(std::exchange(name, {}));
      }
      ::pclose(pipe);
    }
    if (!files.empty()) return files;  // else no git on PATH: walk the tree
  }
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && is_build_dir(it->path().filename().string()))
      it.disable_recursion_pending();
    else if (it->is_regular_file())
      files.push_back(fs::relative(it->path(), kRoot).string());
  }
  return files;
}

std::vector<std::string> markdown_pages() {
  std::vector<std::string> pages = {"README.md"};
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "docs"))
    if (entry.path().extension() == ".md") pages.push_back(fs::relative(entry.path(), kRoot).string());
  std::sort(pages.begin(), pages.end());
  return pages;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// `file:line: text` for every line naming an issue or item number, a seed file (16 hex digits
/// `.txt`) or a folder outside the repository. Binary files (a NUL byte) are skipped.
std::vector<std::string> unresolvable_references(const std::vector<std::string>& files) {
  static const std::regex numbered(R"(\b(issue|item) [0-9])", std::regex::icase);
  static const std::regex seed_file(R"([0-9a-fA-F]{16}\.txt)");
  static const std::regex outside(R"((^|[^A-Za-z0-9_-])shared[/]|\.\.[/]shared\b)");
  std::vector<std::string> found;
  for (const auto& file : files) {
    const auto text = read_text(kRoot / file);
    if (text.find('\0') != std::string::npos) continue;
    const auto lines = lines_of(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto& line = lines[i];
      if (std::regex_search(line, numbered) || std::regex_search(line, seed_file) ||
          std::regex_search(line, outside))
        found.push_back(file + ":" + std::to_string(i + 1) + ": " + line.substr(0, 160));
    }
  }
  return found;
}

/// The page without fenced code blocks and inline code spans, which hold neither links nor headings.
std::vector<std::string> prose_lines(const std::string& text) {
  static const std::regex code_span("`[^`]*`");
  std::vector<std::string> prose;
  bool in_fence = false;
  for (const auto& line : lines_of(text)) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, 3, "```") == 0) {
      in_fence = !in_fence;
      prose.emplace_back();
      continue;
    }
    prose.push_back(in_fence ? std::string() : std::regex_replace(line, code_span, "CODE"));
  }
  return prose;
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to '-'; repeats get -1, -2.
std::string github_slug(const std::string& heading) {
  std::string slug;
  for (const unsigned char c : heading) {
    if (c >= 0x80 || std::isalnum(c) || c == '_' || c == '-')
      slug += static_cast<char>(std::tolower(c));
    else if (c == ' ')
      slug += '-';
  }
  return slug;
}

/// A page's anchors: its headings' slugs and the ids of its HTML anchors (`<a id="key"></a>`).
std::set<std::string> anchors_of(const fs::path& page) {
  static const std::regex heading(R"(^#{1,6}\s+(.*?)\s*#*\s*$)");
  static const std::regex html_id(R"re(<a\s+(?:name|id)="([^"]+)")re");
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  // Headings keep their code spans' text: read them from the page with the backticks dropped.
  const auto raw = lines_of(read_text(page));
  const auto prose = prose_lines(read_text(page));
  for (std::size_t i = 0; i < prose.size() && i < raw.size(); ++i) {
    std::smatch m;
    if (prose[i].empty()) continue;
    for (std::sregex_iterator it(raw[i].begin(), raw[i].end(), html_id), end; it != end; ++it)
      anchors.insert((*it)[1].str());
    if (!std::regex_match(raw[i], m, heading)) continue;
    auto text = m[1].str();
    text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
    const auto slug = github_slug(text);
    const int n = seen[slug]++;
    anchors.insert(n == 0 ? slug : slug + "-" + std::to_string(n));
  }
  return anchors;
}

/// `page:line: target (why)` for every relative link whose file or anchor does not exist.
std::vector<std::string> dead_links(const std::string& page, std::size_t& links) {
  static const std::regex link(R"(\]\(([^)\s]*)\))");
  static const std::regex scheme("^[a-z]+:");
  std::vector<std::string> dead;
  const auto lines = prose_lines(read_text(kRoot / page));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::sregex_iterator it(lines[i].begin(), lines[i].end(), link), end; it != end; ++it) {
      const auto target = (*it)[1].str();
      if (std::regex_search(target, scheme)) continue;  // a URL
      ++links;
      const auto hash = target.find('#');
      const auto path_part = target.substr(0, hash);
      const auto file = path_part.empty() ? kRoot / page : (kRoot / page).parent_path() / path_part;
      const auto where = page + ":" + std::to_string(i + 1) + ": " + target;
      if (!fs::exists(file)) {
        dead.push_back(where + " (no such file)");
        continue;
      }
      if (hash != std::string::npos && file.extension() == ".md" &&
          anchors_of(file).count(target.substr(hash + 1)) == 0)
        dead.push_back(where + " (no such heading)");
    }
  }
  return dead;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}
}  // namespace

TEST_CASE("GitHub anchors: lowercase, punctuation dropped, spaces to hyphens") {
  // "Runtime decisions: the hooks (`a/b.hpp`)" without backticks -> ':', '(', '/', '.', ')' dropped.
  CHECK(github_slug("Runtime decisions: the hooks (a/b.hpp)") == "runtime-decisions-the-hooks-abhpp");
  CHECK(github_slug("Sweeps on many machines") == "sweeps-on-many-machines");
  CHECK(github_slug("results.json") == "resultsjson");
}

TEST_CASE("every relative link and anchor in README and docs resolves inside a clone") {
  std::size_t links = 0;
  std::vector<std::string> dead;
  for (const auto& page : markdown_pages()) {
    const auto found = dead_links(page, links);
    dead.insert(dead.end(), found.begin(), found.end());
  }
  INFO(joined(dead));
  CHECK(dead.empty());
  CHECK(links > 20);  // README links the guide pages, which link each other
}

TEST_CASE("README and docs name no issue numbers, seed files or folders outside the repository") {
  const auto found = unresolvable_references(markdown_pages());
  INFO(joined(found));
  CHECK(found.empty());
}

TEST_CASE("no tracked file names issue numbers, seed files or folders outside the repository") {
  const auto files = tracked_files();
  REQUIRE(files.size() > 100);
  const auto found = unresolvable_references(files);
  INFO(found.size() << " lines:\n" << joined(found));
  CHECK(found.empty());
}

TEST_CASE("README does not send readers to files a clone lacks") {
  const auto text = read_text(kRoot / "README.md");
  CHECK(text.find("shared folder") == std::string::npos);
  CHECK(text.find("DESIGN.md") == std::string::npos);
}
