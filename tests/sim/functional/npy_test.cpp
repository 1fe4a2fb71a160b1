// NumPy .npy files: what write_npy writes read_npy reads back; NumPy's own headers (format 1.0, a
// 1-D shape's trailing comma) parse; every other dtype or layout is an InputError naming the file.
#include <fstream>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/functional/npy.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

std::string npy_bytes(const std::string& dict, const std::string& body) {
  std::string header = dict;
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + body;
}

std::string write(const test::ScratchDir& dir, const std::string& bytes) {
  const auto path = dir.path() + "/x.npy";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("a tensor written as .npy reads back with its shape and values", "[npy]") {
  const test::ScratchDir dir;
  const Tensor t({1, 2, 3}, {1, -2, 3.5f, 4, 5, 6e-7f});
  write_npy(dir.path() + "/t.npy", t);
  const Tensor back = read_npy(dir.path() + "/t.npy");
  CHECK(back.shape == t.shape);
  CHECK(back.data == t.data);
}

TEST_CASE("a NumPy-written 1-D float32 .npy header parses", "[npy]") {
  const test::ScratchDir dir;
  const float v[2] = {1.5f, -1.0f};
  const auto path = write(dir, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                         std::string(reinterpret_cast<const char*>(v), 8)));
  const Tensor t = read_npy(path);
  CHECK(t.shape == Shape{2});
  CHECK(t.data == std::vector<float>{1.5f, -1.0f});
}

TEST_CASE("a float64 .npy is an error naming its dtype", "[npy]") {
  const test::ScratchDir dir;
  const auto path = write(
      dir, npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')));
  CHECK_THROWS_WITH(read_npy(path), Catch::Contains("x.npy") && Catch::Contains("dtype <f8"));
}

TEST_CASE("a .npy whose data is shorter than its shape is an error", "[npy]") {
  const test::ScratchDir dir;
  const auto path = write(
      dir, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", std::string(8, '\0')));
  CHECK_THROWS_WITH(read_npy(path), Catch::Contains("needs 64 bytes") && Catch::Contains("holds 8"));
}

TEST_CASE("a file without the NumPy magic is an error", "[npy]") {
  const test::ScratchDir dir;
  CHECK_THROWS_WITH(read_npy(write(dir, "just text, no magic")), Catch::Contains("no \\x93NUMPY magic"));
}

TEST_CASE("a .npy shape dimension past int64 is an error, not an exception from the parse", "[npy]") {
  const test::ScratchDir dir;
  const auto path = write(dir, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': "
                                         "(99999999999999999999,), }",
                                         std::string(8, '\0')));
  CHECK_THROWS_AS(read_npy(path), InputError);
  CHECK_THROWS_WITH(read_npy(path), Catch::Contains("99999999999999999999 is out of range"));
}
