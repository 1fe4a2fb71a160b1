#include "sim/video/picture.hpp"

#include <charconv>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::video {
namespace {

constexpr int kMinSide = 16, kMaxSide = 8192;

// One side of "WxH": an even integer in [16, 8192], or -1.
int parse_side(std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < kMinSide || v > kMaxSide || v % 2 != 0)
    return -1;
  return v;
}

}  // namespace

std::string to_string(const Size& s) { return fmt::format("{}x{}", s.width, s.height); }

Size parse_size(const std::string& text, const std::string& option) {
  const auto x = text.find('x');
  const int w = x == std::string::npos ? -1 : parse_side(std::string_view(text).substr(0, x));
  const int h = x == std::string::npos ? -1 : parse_side(std::string_view(text).substr(x + 1));
  if (w < 0 || h < 0)
    throw InputError("", option,
                     fmt::format("expected WIDTHxHEIGHT, each an even integer in [{}, {}], got '{}'",
                                 kMinSide, kMaxSide, text));
  return {w, h};
}

}  // namespace coinfer::video
