// Whole files or nothing: a write that fails leaves neither the file nor its temporary behind.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/stat.h>

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

TEST_CASE("an atomic write to a pipe writes into the pipe and leaves it a pipe") {
  const test::ScratchDir dir;
  const auto path = dir.path() + "/pipe";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  std::string read;
  std::thread reader([&] { read = read_whole_file(path); });
  write_file_atomic(path, std::string("through the pipe"));
  reader.join();
  CHECK(read == "through the pipe");
  CHECK(std::filesystem::is_fifo(path));
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("an atomic write to a full device is an error naming it") {
  CHECK_THROWS_WITH(write_file_atomic("/dev/full", std::string("no room")), "cannot write /dev/full");
  CHECK(std::filesystem::is_character_file("/dev/full"));
}
