// Error texts: `file: path: message`, always printable.
#include <catch2/catch.hpp>

#include <string>

#include "sim/core/error.hpp"

using namespace coinfer;

TEST_CASE("an input error reads file then key path then expectation") {
  const InputError e("s.yaml", "workload.frames", "expected a positive integer");
  CHECK(std::string(e.what()) == "s.yaml: workload.frames: expected a positive integer");
  CHECK(std::string(InputError("", "", "bad").what()) == "bad");
}

TEST_CASE("a NUL byte in a key path is shown escaped instead of cutting the error text short") {
  // A fuzzed `--set` key began with NUL bytes: what() was a C string ending at the first one,
  // so the user would have read an empty error.
  const std::string key = std::string("\0\0a", 3) + "[[";
  const InputError e("", key, "malformed key path: unclosed '['");
  CHECK(std::string(e.what()) == "\\x00\\x00a[[: malformed key path: unclosed '['");
  CHECK(std::string(Error(std::string("x\x01y\x7F\nz")).what()) == "x\\x01y\\x7F\nz");
}
