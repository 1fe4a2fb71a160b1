#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/batched.hpp"
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

struct ConvGeometry {
  std::int64_t oc, oh, ow, kk;  // kk: rows of a group's column matrix, IC/g * KH * KW
  std::array<std::int64_t, 2> k;
  bool pointwise;  // 1x1, stride 1, unpadded: the input is its own column matrix
};

// Checks conv2d's input, weight and parameters and derives the output and column-matrix sizes.
ConvGeometry conv_geometry(const Shape& input, const Tensor& weight, const ConvParams& p) {
  check_params(p);
  if (input.size() != 3 || weight.rank() != 4)
    throw Error(fmt::format("conv2d: expected input (C,H,W) and weight (OC,IC/g,KH,KW), got {} and {}",
                            shape_to_string(input), shape_to_string(weight.shape)));
  const std::int64_t c = input[0], oc = weight.shape[0], g = p.groups;
  const std::array<std::int64_t, 2> k{weight.shape[2], weight.shape[3]};
  if (c % g || oc % g || weight.shape[1] != c / g)
    throw Error(fmt::format("conv2d: weight {} does not match input {} with {} groups",
                            shape_to_string(weight.shape), shape_to_string(input), g));
  const std::int64_t oh = conv_output_size(input[1], k[0], p.stride[0], p.padding[0], p.dilation[0]);
  const std::int64_t ow = conv_output_size(input[2], k[1], p.stride[1], p.padding[1], p.dilation[1]);
  if (oh < 1 || ow < 1) throw Error("conv2d: kernel does not fit the padded input");
  const bool pointwise = k == std::array<std::int64_t, 2>{1, 1} &&
                         p.stride == std::array<std::int64_t, 2>{1, 1} &&
                         p.padding == std::array<std::int64_t, 2>{0, 0};
  return {oc, oh, ow, c / g * k[0] * k[1], k, pointwise};
}

// The (kk x OH*OW) column matrix of group `grp`: the input itself for a pointwise convolution, else
// im2col into the per-thread scratch buffer (valid until the next scratch_buffer call).
const float* group_columns(const Tensor& input, std::int64_t grp, const ConvGeometry& geo,
                           const ConvParams& p) {
  const std::int64_t icg = input.shape[0] / p.groups, plane = geo.oh * geo.ow;
  if (geo.pointwise) return input.ptr() + grp * icg * plane;
  float* columns = scratch_buffer(geo.kk * plane);
  im2col(input, grp * icg, icg, geo.k, p, geo.oh, geo.ow, columns);
  return columns;
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

void check_grad_output(const char* kernel, const Tensor& grad_output, std::int64_t c, std::int64_t h,
                       std::int64_t w) {
  if (grad_output.shape != Shape{c, h, w})
    throw Error(fmt::format("{}: grad_output {} is not the output shape [{},{},{}]", kernel,
                            shape_to_string(grad_output.shape), c, h, w));
}

std::int64_t conv_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                              std::int64_t dilation) {
  // Floor, not C++'s truncation: a span in (-stride, 0) means the kernel does not fit (0 outputs).
  const std::int64_t span = in + 2 * padding - dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

void im2col(const Tensor& input, std::int64_t c0, std::int64_t channels, std::array<std::int64_t, 2> kernel,
            const ConvParams& p, std::int64_t out_h, std::int64_t out_w, float* columns) {
  const std::int64_t h = input.shape[1], w = input.shape[2];
  im2col_strided(input.ptr() + c0 * h * w, h, w, channels, kernel, p, out_h, out_w, columns, out_h * out_w);
}

void im2col_strided(const float* input, std::int64_t h, std::int64_t w, std::int64_t channels,
                    std::array<std::int64_t, 2> kernel, const ConvParams& p, std::int64_t out_h,
                    std::int64_t out_w, float* columns, std::int64_t row_stride) {
  // Row (c, kh, kw) of the column matrix holds input[c, oh*s - p + kh*d, ow*s - p + kw*d] for every
  // output position (oh, ow), zero where that falls in the padding.
  for (std::int64_t c = 0; c < channels; ++c) {
    const float* src = input + c * h * w;
    for (std::int64_t kh = 0; kh < kernel[0]; ++kh) {
      for (std::int64_t kw = 0; kw < kernel[1]; ++kw) {
        float* row = columns + ((c * kernel[0] + kh) * kernel[1] + kw) * row_stride;
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
  const ConvGeometry geo = conv_geometry(input.shape, weight, p);
  if (!bias.empty() && bias.size() != geo.oc)
    throw Error("conv2d: bias must have one value per output channel");
  const std::int64_t g = p.groups, ocg = geo.oc / g, kk = geo.kk, plane = geo.oh * geo.ow;
  // The output starts as the bias broadcast over each channel and the GEMM accumulates onto it (one
  // pass over the output instead of a zero fill plus a bias pass).
  Tensor out({geo.oc, geo.oh, geo.ow});
  if (!bias.empty()) out.matrix(geo.oc, plane).colwise() = bias.vector();
  for (std::int64_t grp = 0; grp < g; ++grp) {
    const float* cols = group_columns(input, grp, geo, p);
    // out[g] (OC/g x OH*OW) = W[g] (OC/g x kk) * columns (kk x OH*OW)
    gemm(weight.ptr() + grp * ocg * kk, cols, out.ptr() + grp * ocg * plane, ocg, plane, kk, !bias.empty());
  }
  return out;
}

Gradients conv2d_backward(const Tensor& input, const Tensor& weight, bool has_bias, const Tensor& grad_output,
                          const ConvParams& p) {
  const ConvGeometry geo = conv_geometry(input.shape, weight, p);
  check_grad_output("conv2d_backward", grad_output, geo.oc, geo.oh, geo.ow);
  const std::int64_t g = p.groups, ocg = geo.oc / g, kk = geo.kk, plane = geo.oh * geo.ow;
  Gradients grads;
  // dX: conv2d's weight [OC, IC/g, KH, KW] is, read as a transposed convolution's [IC_t, OC_t/g, KH, KW],
  // the map from OC channels back to IC; output_padding restores the input rows and columns that the
  // forward's floor division dropped. Runs first: it uses the scratch buffer the columns below reuse.
  ConvParams back = p;
  for (int i = 0; i < 2; ++i)
    back.output_padding[i] = input.shape[1 + static_cast<std::size_t>(i)] -
                             ((i == 0 ? geo.oh : geo.ow) - 1) * p.stride[i] + 2 * p.padding[i] -
                             p.dilation[i] * (geo.k[i] - 1) - 1;
  grads.input = conv_transpose2d(grad_output, weight, Tensor(), back);
  // dW[g] (OC/g x kk) = dY[g] (OC/g x plane) * columns^T, computed as columns (kk x plane) * dY[g]^T
  // (plane x OC/g) so that the transposes touch dY and dW (OC/g wide) rather than the column matrix.
  grads.weight = Tensor(weight.shape);
  std::vector<float> dyt(static_cast<std::size_t>(plane * ocg)), dwt(static_cast<std::size_t>(kk * ocg));
  for (std::int64_t grp = 0; grp < g; ++grp) {
    const float* cols = group_columns(input, grp, geo, p);
    MatrixMap(dyt.data(), plane, ocg) =
        grad_output.matrix(geo.oc, plane).middleRows(grp * ocg, ocg).transpose();
    gemm(cols, dyt.data(), dwt.data(), kk, ocg, plane);
    MatrixMap(grads.weight.ptr() + grp * ocg * kk, ocg, kk) = MatrixMap(dwt.data(), kk, ocg).transpose();
  }
  if (has_bias) {
    grads.bias = Tensor({geo.oc});
    grads.bias.vector() = grad_output.matrix(geo.oc, plane).rowwise().sum();
  }
  return grads;
}

Tensor conv2d_batch(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p,
                    std::int64_t batch, std::int64_t column_floats) {
  if (input.rank() != 4 || input.shape[0] != batch)
    throw Error(fmt::format("conv2d_batch: expected {} samples (B,C,H,W), got {}", batch,
                            shape_to_string(input.shape)));
  const Shape sample(input.shape.begin() + 1, input.shape.end());
  const ConvGeometry geo = conv_geometry(sample, weight, p);
  if (!bias.empty() && bias.size() != geo.oc)
    throw Error("conv2d: bias must have one value per output channel");
  const std::int64_t g = p.groups, ocg = geo.oc / g, kk = geo.kk, plane = geo.oh * geo.ow;
  const std::int64_t c = sample[0], icg = c / g, h = sample[1], w = sample[2];
  // Samples per GEMM: as many as keep the (kk x chunk*plane) column matrix under the workspace bound.
  const std::int64_t chunk =
      std::clamp<std::int64_t>(column_floats / std::max<std::int64_t>(1, kk * plane), 1, batch);
  Tensor out({batch, geo.oc, geo.oh, geo.ow});
  std::vector<float> product(static_cast<std::size_t>(ocg * chunk * plane));
  for (std::int64_t b0 = 0; b0 < batch; b0 += chunk) {
    const std::int64_t n = std::min(chunk, batch - b0), width = n * plane;
    for (std::int64_t grp = 0; grp < g; ++grp) {
      float* columns = scratch_buffer(kk * width);
      for (std::int64_t b = 0; b < n; ++b)
        im2col_strided(input.ptr() + ((b0 + b) * c + grp * icg) * h * w, h, w, icg, geo.k, p, geo.oh, geo.ow,
                       columns + b * plane, width);
      // product (OC/g x n*plane) = W[g] (OC/g x kk) * columns (kk x n*plane), then each sample's
      // plane of each channel goes to its place in the output, plus the bias.
      gemm(weight.ptr() + grp * ocg * kk, columns, product.data(), ocg, width, kk);
      for (std::int64_t o = 0; o < ocg; ++o) {
        const float shift = bias.empty() ? 0.0f : bias.data[static_cast<std::size_t>(grp * ocg + o)];
        for (std::int64_t b = 0; b < n; ++b) {
          const float* src = product.data() + o * width + b * plane;
          float* dst = out.ptr() + ((b0 + b) * geo.oc + grp * ocg + o) * plane;
          for (std::int64_t i = 0; i < plane; ++i) dst[i] = src[i] + shift;
        }
      }
    }
  }
  return out;
}

Gradients conv2d_batch_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                const Tensor& grad_output, const ConvParams& p, std::int64_t batch) {
  if (input.rank() != 4 || input.shape[0] != batch)
    throw Error(fmt::format("conv2d_batch_backward: expected {} samples (B,C,H,W), got {}", batch,
                            shape_to_string(input.shape)));
  const Shape sample(input.shape.begin() + 1, input.shape.end());
  const ConvGeometry geo = conv_geometry(sample, weight, p);
  if (grad_output.shape != Shape{batch, geo.oc, geo.oh, geo.ow})
    throw Error(fmt::format("conv2d_batch_backward: grad_output {} is not the output shape [{},{},{},{}]",
                            shape_to_string(grad_output.shape), batch, geo.oc, geo.oh, geo.ow));
  const std::int64_t g = p.groups, ocg = geo.oc / g, kk = geo.kk, plane = geo.oh * geo.ow;
  const std::int64_t c = sample[0], icg = c / g, h = sample[1], w = sample[2];
  const std::int64_t chunk =
      std::clamp<std::int64_t>(kTrainColumnFloats / std::max<std::int64_t>(1, kk * plane), 1, batch);
  Gradients grads{Tensor(input.shape), Tensor(weight.shape), Tensor()};
  // W[g]^T (kk x OC/g) per group, and dW[g]^T accumulated over the chunks (transposed at the end).
  std::vector<float> wt(static_cast<std::size_t>(g * kk * ocg)), dwt(wt.size());
  for (std::int64_t grp = 0; grp < g; ++grp)
    MatrixMap(wt.data() + grp * kk * ocg, kk, ocg) =
        ConstMatrixMap(weight.ptr() + grp * ocg * kk, ocg, kk).transpose();
  std::vector<float> dy(static_cast<std::size_t>(ocg * chunk * plane)), dyt(dy.size());
  for (std::int64_t b0 = 0; b0 < batch; b0 += chunk) {
    const std::int64_t n = std::min(chunk, batch - b0), width = n * plane;
    for (std::int64_t grp = 0; grp < g; ++grp) {
      // dY[g] of the chunk's samples side by side: (OC/g x n*plane).
      for (std::int64_t o = 0; o < ocg; ++o)
        for (std::int64_t b = 0; b < n; ++b)
          std::copy_n(grad_output.ptr() + ((b0 + b) * geo.oc + grp * ocg + o) * plane, plane,
                      dy.data() + o * width + b * plane);
      // dX: columns (kk x n*plane) = W[g]^T dY[g], one GEMM, then column-to-patch per sample.
      float* columns = scratch_buffer(kk * width);
      gemm(wt.data() + grp * kk * ocg, dy.data(), columns, kk, width, ocg);
      for (std::int64_t b = 0; b < n; ++b)
        col2im_strided(columns + b * plane, width, icg, geo.k, p, geo.oh, geo.ow, h, w,
                       grads.input.ptr() + ((b0 + b) * c + grp * icg) * h * w);
      // dW[g]^T (kk x OC/g) += input columns (kk x n*plane) * dY[g]^T, one GEMM over the chunk.
      for (std::int64_t b = 0; b < n; ++b)
        im2col_strided(input.ptr() + ((b0 + b) * c + grp * icg) * h * w, h, w, icg, geo.k, p, geo.oh, geo.ow,
                       columns + b * plane, width);
      MatrixMap(dyt.data(), width, ocg) = MatrixMap(dy.data(), ocg, width).transpose();
      gemm(columns, dyt.data(), dwt.data() + grp * kk * ocg, kk, ocg, width, b0 > 0);
    }
  }
  for (std::int64_t grp = 0; grp < g; ++grp)
    MatrixMap(grads.weight.ptr() + grp * ocg * kk, ocg, kk) =
        MatrixMap(dwt.data() + grp * kk * ocg, kk, ocg).transpose();
  if (has_bias) {
    grads.bias = Tensor({geo.oc});
    grads.bias.vector().setZero();
    for (std::int64_t b = 0; b < batch; ++b)
      grads.bias.vector() +=
          ConstMatrixMap(grad_output.ptr() + b * geo.oc * plane, geo.oc, plane).rowwise().sum();
  }
  return grads;
}

}  // namespace coinfer::kernels
