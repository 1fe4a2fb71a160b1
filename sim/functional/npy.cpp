#include "sim/functional/npy.hpp"

#include <cstring>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

std::uint32_t little_endian(const std::string& s, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = v << 8 | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

}  // namespace

Tensor read_npy(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open the .npy file");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto bad = [&](const std::string& what) {
    return InputError(file, "", "not a float32 .npy file: " + what);
  };
  if (data.size() < 10 || data.compare(0, 6, kMagic, 6) != 0) throw bad("no \\x93NUMPY magic");
  const int major = static_cast<unsigned char>(data[6]);
  if (major < 1 || major > 3) throw bad(fmt::format("format version {} (1 to 3 are read)", major));
  const int len_bytes = major == 1 ? 2 : 4;
  const std::size_t header_len = little_endian(data, 8, len_bytes), start = 8 + len_bytes;
  if (data.size() < start + header_len) throw bad("the header is truncated");
  const std::string header = data.substr(start, header_len);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr':\\s*'([^']*)'")) || (m[1] != "<f4" && m[1] != "|f4"))
    throw bad(fmt::format("dtype {} (expected '<f4', float32)", m.empty() ? "missing" : m[1].str()));
  if (!std::regex_search(header, std::regex("'fortran_order':\\s*False")))
    throw bad("Fortran order (expected C order)");
  if (!std::regex_search(header, m, std::regex("'shape':\\s*\\(([^)]*)\\)"))) throw bad("no shape");
  Shape shape;
  const std::string dims = m[1];
  const std::regex number("\\d+");
  for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it) {
    const auto d = parse_int64(it->str());
    if (!d) throw bad(fmt::format("shape dimension {} is out of range", it->str()));
    shape.push_back(*d);
  }
  const auto count = checked_shape_elements(shape);
  const std::size_t body = start + header_len;
  if (!count || data.size() - body != static_cast<std::size_t>(*count) * sizeof(float))
    throw bad(fmt::format("shape {} needs {} bytes of data, the file holds {}", shape_to_string(shape),
                          count ? *count * 4 : -1, data.size() - body));
  std::vector<float> values(static_cast<std::size_t>(*count));
  if (!values.empty()) std::memcpy(values.data(), data.data() + body, values.size() * sizeof(float));
  return Tensor(shape, std::move(values));
}

void write_npy(const std::string& file, const Tensor& tensor) {
  std::vector<std::string> dims;
  for (auto d : tensor.shape) dims.push_back(std::to_string(d));
  std::string header = fmt::format("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}{}), }}",
                                   fmt::join(dims, ", "), dims.size() == 1 ? "," : "");
  // Magic (6) + version (2) + length (2) + header + '\n', padded with spaces to a multiple of 64.
  const std::size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(tensor.data.data()), tensor.data.size() * sizeof(float));
  write_file_atomic(file, out);
}

}  // namespace coinfer
