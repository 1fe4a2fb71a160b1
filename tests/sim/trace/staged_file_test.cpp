// Staged files: nothing at the path until published, then the whole content.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/trace/staged_file.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
namespace fs = std::filesystem;

TEST_CASE("staged file: the content appears at publish, whole") {
  const test::TempDir dir;
  const auto path = dir.path() + "/sub/f.csv";
  StagedFile f(path);
  f.append("a,b\n");
  f.append("1,2\n");
  CHECK(f.size() == 8);
  CHECK_FALSE(fs::exists(path));
  f.publish(path);
  CHECK(read_whole_file(path) == "a,b\n1,2\n");
  CHECK_THROWS_AS(f.publish(path), Error);
}

TEST_CASE("staged file: an unpublished file leaves nothing") {
  const test::TempDir dir;
  { StagedFile(dir.path() + "/f.csv").append("half"); }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("staged file: staged in the temp folder, published anywhere") {
  const test::TempDir dir;
  StagedFile f;
  f.append("x");
  f.publish(dir.path() + "/f.txt");
  CHECK(read_whole_file(dir.path() + "/f.txt") == "x");
}
