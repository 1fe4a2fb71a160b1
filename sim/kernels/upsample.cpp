#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {
namespace {

// Source coordinate of output index `o` for a scale factor (align_corners=false), split into the two
// neighbouring input indices and the weight of the second one.
struct Tap {
  std::int64_t i0, i1;
  float w1;
};

Tap bilinear_tap(std::int64_t o, std::int64_t scale, std::int64_t in) {
  const float src = std::max(0.0f, (static_cast<float>(o) + 0.5f) / static_cast<float>(scale) - 0.5f);
  const auto i0 = std::min(static_cast<std::int64_t>(src), in - 1);
  return {i0, std::min(i0 + 1, in - 1), src - static_cast<float>(i0)};
}

}  // namespace

Tensor upsample(const Tensor& input, std::array<std::int64_t, 2> scale, std::string_view mode) {
  if (input.rank() != 3)
    throw Error(fmt::format("upsample: expected a (C,H,W) input, got {}", shape_to_string(input.shape)));
  if (scale[0] < 1 || scale[1] < 1) throw Error("upsample: scale factors must be positive");
  const std::int64_t c = input.shape[0], h = input.shape[1], w = input.shape[2];
  const std::int64_t oh = h * scale[0], ow = w * scale[1];
  Tensor out({c, oh, ow});
  if (mode == "nearest") {
    for (std::int64_t ch = 0; ch < c; ++ch)
      for (std::int64_t y = 0; y < oh; ++y)
        for (std::int64_t x = 0; x < ow; ++x) out.at(ch, y, x) = input.at(ch, y / scale[0], x / scale[1]);
  } else if (mode == "bilinear") {
    std::vector<Tap> cols(static_cast<std::size_t>(ow));
    for (std::int64_t x = 0; x < ow; ++x) cols[static_cast<std::size_t>(x)] = bilinear_tap(x, scale[1], w);
    for (std::int64_t ch = 0; ch < c; ++ch) {
      for (std::int64_t y = 0; y < oh; ++y) {
        const Tap r = bilinear_tap(y, scale[0], h);
        for (std::int64_t x = 0; x < ow; ++x) {
          const Tap& t = cols[static_cast<std::size_t>(x)];
          const float top = (1 - t.w1) * input.at(ch, r.i0, t.i0) + t.w1 * input.at(ch, r.i0, t.i1);
          const float bottom = (1 - t.w1) * input.at(ch, r.i1, t.i0) + t.w1 * input.at(ch, r.i1, t.i1);
          out.at(ch, y, x) = (1 - r.w1) * top + r.w1 * bottom;
        }
      }
    }
  } else {
    throw Error(fmt::format("upsample: unknown mode '{}' (expected nearest or bilinear)", mode));
  }
  return out;
}

}  // namespace coinfer::kernels
