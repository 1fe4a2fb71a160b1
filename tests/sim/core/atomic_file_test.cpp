// Whole files or nothing: a write that fails leaves neither the file nor its temporary behind; a pipe
// or device is written into, never replaced.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

TEST_CASE("a streamed atomic write whose stream fails is an error naming the file and leaves no temporary") {
  const test::ScratchDir dir;
  const auto path = dir.write("out.bin", "old");
  CHECK_THROWS_WITH(write_file_atomic(path, [](std::ostream& out) { out.setstate(std::ios::badbit); }),
                    "cannot write " + path);
  CHECK(read_whole_file(path) == "old");
  CHECK(entries(dir.path()) == 1);
}

// A reader holds the pipe open (without blocking), and the text fits in the pipe's buffer: nothing
// waits, and a write that replaced the pipe instead would leave the reader with nothing to read.
TEST_CASE("an atomic write to a pipe writes into the pipe and leaves it a pipe") {
  const test::ScratchDir dir;
  const auto path = dir.path() + "/pipe";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  const int reader = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  write_file_atomic(path, std::string("through the pipe"));
  char buffer[64] = {};
  const auto got = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  CHECK(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0) == "through the pipe");
  CHECK(std::filesystem::is_fifo(path));
  CHECK(entries(dir.path()) == 1);
}
