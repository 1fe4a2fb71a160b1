#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {
namespace {

void check_params(const ConvParams& p) {
  for (int i = 0; i < 2; ++i)
    if (p.stride[i] < 1 || p.dilation[i] < 1 || p.padding[i] < 0 || p.output_padding[i] < 0)
      throw Error("conv: stride and dilation must be positive and padding non-negative");
  if (p.groups < 1) throw Error(fmt::format("conv: groups must be positive, got {}", p.groups));
}

}  // namespace

float* scratch_buffer(std::int64_t floats) {
  // Reused per thread: a column matrix is fully overwritten by im2col, so it needs no zero fill, and
  // keeping it avoids a large allocation per call (VGG-16 conv1_2: 576 x 50176 floats, 116 MB).
  thread_local std::unique_ptr<float[]> buffer;
  thread_local std::int64_t capacity = 0;
  if (floats > capacity) {
    buffer.reset(new float[static_cast<std::size_t>(floats)]);
    capacity = floats;
  }
  return buffer.get();
}

std::int64_t conv_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                              std::int64_t dilation) {
  return (in + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
}

void im2col(const Tensor& input, std::int64_t c0, std::int64_t channels, std::array<std::int64_t, 2> kernel,
            const ConvParams& p, std::int64_t out_h, std::int64_t out_w, float* columns) {
  const std::int64_t h = input.shape[1], w = input.shape[2];
  const std::int64_t plane = out_h * out_w;
  // Row (c, kh, kw) of the column matrix holds input[c, oh*s - p + kh*d, ow*s - p + kw*d] for every
  // output position (oh, ow), zero where that falls in the padding.
  for (std::int64_t c = 0; c < channels; ++c) {
    const float* src = input.ptr() + (c0 + c) * h * w;
    for (std::int64_t kh = 0; kh < kernel[0]; ++kh) {
      for (std::int64_t kw = 0; kw < kernel[1]; ++kw) {
        float* row = columns + ((c * kernel[0] + kh) * kernel[1] + kw) * plane;
        for (std::int64_t oh = 0; oh < out_h; ++oh) {
          const std::int64_t ih = oh * p.stride[0] - p.padding[0] + kh * p.dilation[0];
          float* dst = row + oh * out_w;
          if (ih < 0 || ih >= h) {
            std::fill(dst, dst + out_w, 0.0f);
            continue;
          }
          const float* line = src + ih * w;
          const std::int64_t off = kw * p.dilation[1] - p.padding[1];
          if (p.stride[1] == 1) {
            // Contiguous run: valid ow satisfy 0 <= ow + off < w.
            const std::int64_t lo = std::clamp<std::int64_t>(-off, 0, out_w);
            const std::int64_t hi = std::clamp<std::int64_t>(w - off, lo, out_w);
            std::fill(dst, dst + lo, 0.0f);
            if (hi > lo)
              std::memcpy(dst + lo, line + lo + off, static_cast<std::size_t>(hi - lo) * sizeof(float));
            std::fill(dst + hi, dst + out_w, 0.0f);
          } else {
            for (std::int64_t ow = 0; ow < out_w; ++ow) {
              const std::int64_t iw = ow * p.stride[1] + off;
              dst[ow] = (iw >= 0 && iw < w) ? line[iw] : 0.0f;
            }
          }
        }
      }
    }
  }
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  check_params(p);
  if (input.rank() != 3 || weight.rank() != 4)
    throw Error(fmt::format("conv2d: expected input (C,H,W) and weight (OC,IC/g,KH,KW), got {} and {}",
                            shape_to_string(input.shape), shape_to_string(weight.shape)));
  const std::int64_t c = input.shape[0], oc = weight.shape[0], g = p.groups;
  const std::array<std::int64_t, 2> k{weight.shape[2], weight.shape[3]};
  if (c % g || oc % g || weight.shape[1] != c / g)
    throw Error(fmt::format("conv2d: weight {} does not match input {} with {} groups",
                            shape_to_string(weight.shape), shape_to_string(input.shape), g));
  if (!bias.empty() && bias.size() != oc) throw Error("conv2d: bias must have one value per output channel");
  const std::int64_t oh = conv_output_size(input.shape[1], k[0], p.stride[0], p.padding[0], p.dilation[0]);
  const std::int64_t ow = conv_output_size(input.shape[2], k[1], p.stride[1], p.padding[1], p.dilation[1]);
  if (oh < 1 || ow < 1) throw Error("conv2d: kernel does not fit the padded input");

  const std::int64_t icg = c / g, ocg = oc / g, kk = icg * k[0] * k[1], plane = oh * ow;
  // The output starts as the bias broadcast over each channel and the GEMM accumulates onto it (one
  // pass over the output instead of a zero fill plus a bias pass).
  Tensor out({oc, oh, ow});
  if (!bias.empty()) out.matrix(oc, plane).colwise() = bias.vector();
  const bool pointwise = k[0] == 1 && k[1] == 1 && p.stride == std::array<std::int64_t, 2>{1, 1} &&
                         p.padding == std::array<std::int64_t, 2>{0, 0};
  float* columns = pointwise ? nullptr : scratch_buffer(kk * plane);
  for (std::int64_t grp = 0; grp < g; ++grp) {
    const float* cols = input.ptr() + grp * icg * plane;  // a pointwise conv's column matrix is its input
    if (!pointwise) {
      im2col(input, grp * icg, icg, k, p, oh, ow, columns);
      cols = columns;
    }
    // out[g] (OC/g x OH*OW) = W[g] (OC/g x kk) * columns (kk x OH*OW)
    gemm(weight.ptr() + grp * ocg * kk, cols, out.ptr() + grp * ocg * plane, ocg, plane, kk, !bias.empty());
  }
  return out;
}

}  // namespace coinfer::kernels
