#pragma once
/// Plain pictures the video code passes around: an 8-bit plane and a YUV 4:2:0 picture.
#include <cstdint>
#include <string>
#include <vector>

namespace coinfer::video {

/// A frame size in pixels; both even (4:2:0 chroma halves them).
struct Size {
  int width = 0;
  int height = 0;
  friend bool operator==(const Size&, const Size&) = default;
};

/// "1280x960".
std::string to_string(const Size& s);
/// Parses "WxH" (each an even integer in [16, 8192]); throws InputError(file "", `option`, ...).
/// Example: `parse_size("640x480", "--size")`.
Size parse_size(const std::string& text, const std::string& option);

/// One 8-bit plane, rows packed (stride == width).
struct Plane {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> data;

  Plane() = default;
  Plane(int w, int h, std::uint8_t fill = 0)
      : width(w), height(h), data(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), fill) {}
  std::uint8_t& at(int x, int y) { return data[static_cast<std::size_t>(y) * width + x]; }
  std::uint8_t at(int x, int y) const { return data[static_cast<std::size_t>(y) * width + x]; }
};

/// A YUV 4:2:0 picture (BT.601 limited range, as libswscale writes yuv420p): luma at full size,
/// both chroma planes at half width and height.
struct Picture {
  Plane y, u, v;

  Picture() = default;
  explicit Picture(Size s)
      : y(s.width, s.height), u(s.width / 2, s.height / 2), v(s.width / 2, s.height / 2) {}
  Size size() const { return {y.width, y.height}; }
};

}  // namespace coinfer::video
