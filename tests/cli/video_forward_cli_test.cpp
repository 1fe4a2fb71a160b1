// coinfer's `make-trace video|pan` run coinfer-video, built next to coinfer, so that coinfer itself
// starts without FFmpeg's libraries (cli/video_forward.hpp).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::filesystem::path kCoinfer = COINFER_CLI;

// What `ldd` prints for `program`: the shared libraries it loads.
std::string libraries_of(const std::filesystem::path& program) {
  const auto out = scratch_dir() / "ldd.txt";
  const std::string cmd = "ldd '" + program.string() + "' >'" + out.string() + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return read_text(out);
}

}  // namespace

TEST_CASE("coinfer loads none of FFmpeg's libraries, and coinfer-video beside it does") {
  CHECK_THAT(libraries_of(kCoinfer), !Contains("libavcodec") && !Contains("libavformat"));
  CHECK_THAT(libraries_of(kCoinfer.parent_path() / "coinfer-video"), Contains("libavcodec"));
}

TEST_CASE("make-trace video --help prints the video command's options, its usage naming coinfer") {
  const auto r = run_cli("make-trace video --help");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("Usage: " + kCoinfer.string() + " make-trace video [OPTIONS] clip"));
  CHECK_THAT(r.out, Contains("--size"));
}

TEST_CASE("make-trace pan without coinfer-video beside coinfer is one clear error line") {
  const auto bin = fresh_dir("bin");
  std::filesystem::copy_file(kCoinfer, bin / "coinfer");
  const auto err = scratch_dir() / "err.txt";
  const std::string cmd = "'" + (bin / "coinfer").string() +
                          "' make-trace pan x.png -o x.csv </dev/null 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  const auto text = read_text(err);
  CHECK(text ==
        "coinfer: error: make-trace pan runs the program " + (bin / "coinfer-video").string() +
            ", which could not be started (No such file or directory); it is built next to coinfer\n");
}
