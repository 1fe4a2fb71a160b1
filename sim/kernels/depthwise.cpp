#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {

Tensor depthwise_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  if (input.rank() != 3 || weight.rank() != 4 || weight.shape[1] != 1 ||
      weight.shape[0] % input.shape[0] != 0)
    throw Error(
        fmt::format("depthwise_conv2d: expected input (C,H,W) and weight (C*m,1,KH,KW), got {} and {}",
                    shape_to_string(input.shape), shape_to_string(weight.shape)));
  for (int i = 0; i < 2; ++i)
    if (p.stride[i] < 1 || p.dilation[i] < 1 || p.padding[i] < 0)
      throw Error("depthwise_conv2d: stride and dilation must be positive and padding non-negative");
  const std::int64_t c = input.shape[0], h = input.shape[1], w = input.shape[2];
  const std::int64_t oc = weight.shape[0], mult = oc / c, kh_n = weight.shape[2], kw_n = weight.shape[3];
  if (!bias.empty() && bias.size() != oc)
    throw Error("depthwise_conv2d: bias must have one value per channel");
  const std::int64_t oh = conv_output_size(h, kh_n, p.stride[0], p.padding[0], p.dilation[0]);
  const std::int64_t ow = conv_output_size(w, kw_n, p.stride[1], p.padding[1], p.dilation[1]);
  if (oh < 1 || ow < 1) throw Error("depthwise_conv2d: kernel does not fit the padded input");

  Tensor out({oc, oh, ow});
  // out[o, y, x] = bias[o] + sum_{i,j} w[o, 0, i, j] * in[o / m, y*s - p + i*d, x*s - p + j*d]
  parallel_for(oc, 1, [&](std::int64_t o0, std::int64_t o1) {
    for (std::int64_t o = o0; o < o1; ++o) {
      const float* src = input.ptr() + (o / mult) * h * w;
      const float* filt = weight.ptr() + o * kh_n * kw_n;
      float* dst = out.ptr() + o * oh * ow;
      std::fill(dst, dst + oh * ow, bias.empty() ? 0.0f : bias.data[static_cast<std::size_t>(o)]);
      for (std::int64_t i = 0; i < kh_n; ++i) {
        for (std::int64_t j = 0; j < kw_n; ++j) {
          const float wv = filt[i * kw_n + j];
          const std::int64_t off = j * p.dilation[1] - p.padding[1];
          for (std::int64_t y = 0; y < oh; ++y) {
            const std::int64_t iy = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
            if (iy < 0 || iy >= h) continue;
            const float* line = src + iy * w;
            float* drow = dst + y * ow;
            // valid x: 0 <= x*s + off < w
            const std::int64_t x_lo = off >= 0 ? 0 : (-off + p.stride[1] - 1) / p.stride[1];
            const std::int64_t x_hi = w - off <= 0 ? 0 : std::min(ow, (w - off - 1) / p.stride[1] + 1);
            if (p.stride[1] == 1) {
              for (std::int64_t x = x_lo; x < x_hi; ++x) drow[x] += wv * line[x + off];
            } else {
              for (std::int64_t x = x_lo; x < x_hi; ++x) drow[x] += wv * line[x * p.stride[1] + off];
            }
          }
        }
      }
    }
  });
  return out;
}

}  // namespace coinfer::kernels
