#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {
namespace {

struct DepthwiseGeometry {
  std::int64_t c, h, w, oc, mult, kh, kw, oh, ow;
};

DepthwiseGeometry depthwise_geometry(const Tensor& input, const Tensor& weight, const ConvParams& p) {
  if (input.rank() != 3 || weight.rank() != 4 || weight.shape[1] != 1 ||
      weight.shape[0] % input.shape[0] != 0)
    throw Error(
        fmt::format("depthwise_conv2d: expected input (C,H,W) and weight (C*m,1,KH,KW), got {} and {}",
                    shape_to_string(input.shape), shape_to_string(weight.shape)));
  for (int i = 0; i < 2; ++i)
    if (p.stride[i] < 1 || p.dilation[i] < 1 || p.padding[i] < 0)
      throw Error("depthwise_conv2d: stride and dilation must be positive and padding non-negative");
  DepthwiseGeometry g{input.shape[0],
                      input.shape[1],
                      input.shape[2],
                      weight.shape[0],
                      0,
                      weight.shape[2],
                      weight.shape[3],
                      0,
                      0};
  g.mult = g.oc / g.c;
  g.oh = conv_output_size(g.h, g.kh, p.stride[0], p.padding[0], p.dilation[0]);
  g.ow = conv_output_size(g.w, g.kw, p.stride[1], p.padding[1], p.dilation[1]);
  if (g.oh < 1 || g.ow < 1) throw Error("depthwise_conv2d: kernel does not fit the padded input");
  return g;
}

// Calls `row(tap, iy, y, x_lo, x_hi, off)` for every filter tap (i, j) (tap = i * KW + j) and output row y
// whose input row iy = y*s - p + i*d lies inside the input; output columns [x_lo, x_hi) are those whose
// input column x*s + off (off = j*d - p) does too.
template <class Row>
void for_each_tap_row(const DepthwiseGeometry& g, const ConvParams& p, Row row) {
  for (std::int64_t i = 0; i < g.kh; ++i) {
    for (std::int64_t j = 0; j < g.kw; ++j) {
      const std::int64_t off = j * p.dilation[1] - p.padding[1];
      const std::int64_t x_lo = off >= 0 ? 0 : (-off + p.stride[1] - 1) / p.stride[1];
      const std::int64_t x_hi = g.w - off <= 0 ? 0 : std::min(g.ow, (g.w - off - 1) / p.stride[1] + 1);
      for (std::int64_t y = 0; y < g.oh; ++y) {
        const std::int64_t iy = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
        if (iy >= 0 && iy < g.h) row(i * g.kw + j, iy, y, x_lo, x_hi, off);
      }
    }
  }
}

}  // namespace

Tensor depthwise_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  const DepthwiseGeometry g = depthwise_geometry(input, weight, p);
  if (!bias.empty() && bias.size() != g.oc)
    throw Error("depthwise_conv2d: bias must have one value per channel");
  Tensor out({g.oc, g.oh, g.ow});
  const std::int64_t s = p.stride[1];
  // out[o, y, x] = bias[o] + sum_{i,j} w[o, 0, i, j] * in[o / m, y*s - p + i*d, x*s - p + j*d]
  parallel_for(g.oc, 1, [&](std::int64_t o0, std::int64_t o1) {
    for (std::int64_t o = o0; o < o1; ++o) {
      const float* src = input.ptr() + (o / g.mult) * g.h * g.w;
      const float* filt = weight.ptr() + o * g.kh * g.kw;
      float* dst = out.ptr() + o * g.oh * g.ow;
      std::fill(dst, dst + g.oh * g.ow, bias.empty() ? 0.0f : bias.data[static_cast<std::size_t>(o)]);
      for_each_tap_row(g, p,
                       [&](std::int64_t tap, std::int64_t iy, std::int64_t y, std::int64_t x_lo,
                           std::int64_t x_hi, std::int64_t off) {
                         const float wv = filt[tap];
                         const float* line = src + iy * g.w;
                         float* drow = dst + y * g.ow;
                         if (s == 1) {
                           for (std::int64_t x = x_lo; x < x_hi; ++x) drow[x] += wv * line[x + off];
                         } else {
                           for (std::int64_t x = x_lo; x < x_hi; ++x) drow[x] += wv * line[x * s + off];
                         }
                       });
    }
  });
  return out;
}

Gradients depthwise_conv2d_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                    const Tensor& grad_output, const ConvParams& p) {
  const DepthwiseGeometry g = depthwise_geometry(input, weight, p);
  check_grad_output("depthwise_conv2d_backward", grad_output, g.oc, g.oh, g.ow);
  Gradients grads{Tensor(input.shape), Tensor(weight.shape), Tensor()};
  const std::int64_t s = p.stride[1];
  // Each task owns input channels [c0, c1) and their filters o = c * m + j, so no two write one value:
  //   dX[c, iy, x*s + off] += w[o, tap] * dY[o, y, x]      dW[o, tap] += dY[o, y, x] * X[c, iy, x*s + off]
  parallel_for(g.c, 1, [&](std::int64_t c0, std::int64_t c1) {
    for (std::int64_t o = c0 * g.mult; o < c1 * g.mult; ++o) {
      const float* src = input.ptr() + (o / g.mult) * g.h * g.w;
      float* dsrc = grads.input.ptr() + (o / g.mult) * g.h * g.w;
      const float* filt = weight.ptr() + o * g.kh * g.kw;
      float* dfilt = grads.weight.ptr() + o * g.kh * g.kw;
      const float* dy = grad_output.ptr() + o * g.oh * g.ow;
      for_each_tap_row(g, p,
                       [&](std::int64_t tap, std::int64_t iy, std::int64_t y, std::int64_t x_lo,
                           std::int64_t x_hi, std::int64_t off) {
                         const float wv = filt[tap];
                         const float* line = src + iy * g.w;
                         float* dline = dsrc + iy * g.w;
                         const float* dyrow = dy + y * g.ow;
                         float acc = 0.0f;
                         for (std::int64_t x = x_lo; x < x_hi; ++x) {
                           dline[x * s + off] += wv * dyrow[x];
                           acc += dyrow[x] * line[x * s + off];
                         }
                         dfilt[tap] += acc;
                       });
    }
  });
  if (has_bias) {
    grads.bias = Tensor({g.oc});
    grads.bias.vector() = grad_output.matrix(g.oc, g.oh * g.ow).rowwise().sum();
  }
  return grads;
}

}  // namespace coinfer::kernels
