#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {
namespace {

// Source coordinate of output index `o` for a scale factor (align_corners=false), split into the two
// neighbouring input indices and the weight of the second one.
struct UpsampleTap {
  std::int64_t i0, i1;
  float w1;
};

UpsampleTap bilinear_tap(std::int64_t o, std::int64_t scale, std::int64_t in) {
  const float src = std::max(0.0f, (static_cast<float>(o) + 0.5f) / static_cast<float>(scale) - 0.5f);
  const auto i0 = std::min(static_cast<std::int64_t>(src), in - 1);
  return {i0, std::min(i0 + 1, in - 1), src - static_cast<float>(i0)};
}

// Calls visit(channel, y, x, row tap, column tap) for every output pixel of a bilinear upsampling of
// an input of shape `in` (C, H, W).
template <class Visit>
void for_each_bilinear_tap(const Shape& in, std::array<std::int64_t, 2> scale, Visit visit) {
  const std::int64_t c = in[0], h = in[1], w = in[2], oh = h * scale[0], ow = w * scale[1];
  std::vector<UpsampleTap> cols(static_cast<std::size_t>(ow));
  for (std::int64_t x = 0; x < ow; ++x) cols[static_cast<std::size_t>(x)] = bilinear_tap(x, scale[1], w);
  for (std::int64_t ch = 0; ch < c; ++ch)
    for (std::int64_t y = 0; y < oh; ++y) {
      const UpsampleTap r = bilinear_tap(y, scale[0], h);
      for (std::int64_t x = 0; x < ow; ++x) visit(ch, y, x, r, cols[static_cast<std::size_t>(x)]);
    }
}

void check_upsample(const Shape& in, std::array<std::int64_t, 2> scale, std::string_view mode) {
  if (in.size() != 3)
    throw Error(fmt::format("upsample: expected a (C,H,W) input, got {}", shape_to_string(in)));
  if (scale[0] < 1 || scale[1] < 1) throw Error("upsample: scale factors must be positive");
  if (mode != "nearest" && mode != "bilinear")
    throw Error(fmt::format("upsample: unknown mode '{}' (expected nearest or bilinear)", mode));
}

}  // namespace

Tensor upsample(const Tensor& input, std::array<std::int64_t, 2> scale, std::string_view mode) {
  check_upsample(input.shape, scale, mode);
  const std::int64_t c = input.shape[0], h = input.shape[1], w = input.shape[2];
  const std::int64_t oh = h * scale[0], ow = w * scale[1];
  Tensor out({c, oh, ow});
  if (mode == "nearest") {
    for (std::int64_t ch = 0; ch < c; ++ch)
      for (std::int64_t y = 0; y < oh; ++y)
        for (std::int64_t x = 0; x < ow; ++x) out.at(ch, y, x) = input.at(ch, y / scale[0], x / scale[1]);
  } else {
    for_each_bilinear_tap(
        input.shape, scale,
        [&](std::int64_t ch, std::int64_t y, std::int64_t x, const UpsampleTap& r, const UpsampleTap& t) {
          const float top = (1 - t.w1) * input.at(ch, r.i0, t.i0) + t.w1 * input.at(ch, r.i0, t.i1);
          const float bottom = (1 - t.w1) * input.at(ch, r.i1, t.i0) + t.w1 * input.at(ch, r.i1, t.i1);
          out.at(ch, y, x) = (1 - r.w1) * top + r.w1 * bottom;
        });
  }
  return out;
}

Tensor upsample_backward(const Shape& in, const Tensor& dy, std::array<std::int64_t, 2> scale,
                         std::string_view mode) {
  check_upsample(in, scale, mode);
  const std::int64_t c = in[0], h = in[1], w = in[2], oh = h * scale[0], ow = w * scale[1];
  if (dy.shape != Shape{c, oh, ow})
    throw Error(fmt::format("upsample_backward: grad_output {} is not the output shape [{},{},{}]",
                            shape_to_string(dy.shape), c, oh, ow));
  Tensor dx(in);
  if (mode == "nearest") {
    for (std::int64_t ch = 0; ch < c; ++ch)
      for (std::int64_t y = 0; y < oh; ++y)
        for (std::int64_t x = 0; x < ow; ++x) dx.at(ch, y / scale[0], x / scale[1]) += dy.at(ch, y, x);
    return dx;
  }
  // Bilinear: out = (1 - wr)((1 - wc) in[r0, c0] + wc in[r0, c1]) + wr((1 - wc) in[r1, c0] + wc in[r1, c1]).
  for_each_bilinear_tap(
      in, scale,
      [&](std::int64_t ch, std::int64_t y, std::int64_t x, const UpsampleTap& r, const UpsampleTap& t) {
        const float g = dy.at(ch, y, x), top = (1 - r.w1) * g, bottom = r.w1 * g;
        dx.at(ch, r.i0, t.i0) += (1 - t.w1) * top;
        dx.at(ch, r.i0, t.i1) += t.w1 * top;
        dx.at(ch, r.i1, t.i0) += (1 - t.w1) * bottom;
        dx.at(ch, r.i1, t.i1) += t.w1 * bottom;
      });
  return dx;
}

}  // namespace coinfer::kernels
