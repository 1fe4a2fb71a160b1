// Whole files or nothing: a write that fails leaves neither the file nor its temporary behind.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>

#include "sim/core/atomic_file.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

std::size_t entries(const std::string& folder) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(folder), {}));
}

}  // namespace

TEST_CASE("a streamed atomic write leaves the whole file and nothing else") {
  const test::ScratchDir dir;
  const auto path = dir.path() + "/sub/out.bin";
  write_file_atomic(path, [](std::ostream& out) { out << "first " << 2 << " parts"; });
  CHECK(read_whole_file(path) == "first 2 parts");
  CHECK(entries(dir.path() + "/sub") == 1);
}

TEST_CASE("a streamed atomic write whose writer throws keeps the old file and leaves no temporary") {
  const test::ScratchDir dir;
  const auto path = dir.write("out.bin", "old");
  CHECK_THROWS_WITH(write_file_atomic(path,
                                      [](std::ostream& out) {
                                        out << "half of it";
                                        throw std::runtime_error("writer failed");
                                      }),
                    "writer failed");
  CHECK(read_whole_file(path) == "old");
  CHECK(entries(dir.path()) == 1);
}
