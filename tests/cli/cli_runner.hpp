#pragma once
// Runs the built `coinfer` binary and captures exit code, stdout and stderr, for CLI tests.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "tests/scratch_dir.hpp"

namespace coinfer::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// The running TEST_CASE's own scratch folder (tests/scratch_dir.hpp), removed when it ends.
using coinfer::test::scratch_dir;

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// An empty folder `name` in this test case's scratch folder (emptied if it exists).
inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = scratch_dir() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path write_text(const std::string& name, const std::string& text) {
  auto p = scratch_dir() / name;
  std::ofstream(p) << text;
  return p;
}

/// Runs `coinfer ARGS` in the working directory `cwd` (empty: this process's).
/// `args` is appended to the binary path as-is (quote paths yourself when needed).
inline CliResult run_cli_in(const std::filesystem::path& cwd, const std::string& args) {
  static int counter = 0;
  const auto dir = scratch_dir();
  const auto out = dir / ("out" + std::to_string(counter));
  const auto err = dir / ("err" + std::to_string(counter++));
  const std::string cd = cwd.empty() ? "" : "cd '" + cwd.string() + "' && ";
  const std::string cmd =
      cd + std::string(COINFER_CLI) + " " + args + " </dev/null >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

/// `args` is appended to the binary path as-is (quote paths yourself when needed).
inline CliResult run_cli(const std::string& args) { return run_cli_in({}, args); }

}  // namespace coinfer::testing
