// Running a program without a shell: exit codes, logs, the working folder.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/check/process.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

TEST_CASE("a program runs in the given folder with its output in log files") {
  test::TempDir dir;
  const auto r = run_process({"sh", "-c", "pwd; echo oops >&2; exit 4"}, dir.path(), dir.path() + "/log");
  CHECK(r.exit_code == 4);
  CHECK_FALSE(r.ok());
  CHECK(read_whole_file(r.out_file) == std::filesystem::canonical(dir.path()).string() + "\n");
  CHECK(r.why() == "oops");
  CHECK(r.wall_s > 0.0);
}

TEST_CASE("a sleeping program takes its wall time but little CPU") {
  test::TempDir dir;
  const auto r = run_process({"sleep", "0.1"}, dir.path(), dir.path() + "/log");
  CHECK(r.ok());
  CHECK(r.wall_s >= 0.1);
  CHECK(r.cpu_s < 0.05);
}

TEST_CASE("a program that cannot start is an error naming it") {
  test::TempDir dir;
  CHECK_THROWS_WITH(run_process({"./not-here"}, dir.path(), dir.path() + "/log"),
                    Contains("cannot run './not-here'") && Contains("No such file"));
}

TEST_CASE("a temporary folder is removed with its content") {
  std::string path;
  {
    const check::TempDir tmp("coinfer-test");
    path = tmp.path();
    write_file_atomic(path + "/a/b.txt", "x");
    CHECK(std::filesystem::is_directory(path));
  }
  CHECK_FALSE(std::filesystem::exists(path));
}
