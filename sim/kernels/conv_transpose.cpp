#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {
namespace {

struct TransposeGeometry {
  std::int64_t icg, ocg, oc, oh, ow;
  std::array<std::int64_t, 2> k;
};

// Checks conv_transpose2d's input, weight and parameters and derives the output size.
TransposeGeometry transpose_geometry(const Tensor& input, const Tensor& weight, const ConvParams& p) {
  if (input.rank() != 3 || weight.rank() != 4)
    throw Error(
        fmt::format("conv_transpose2d: expected input (C,H,W) and weight (IC,OC/g,KH,KW), got {} and {}",
                    shape_to_string(input.shape), shape_to_string(weight.shape)));
  for (int i = 0; i < 2; ++i)
    if (p.stride[i] < 1 || p.dilation[i] < 1 || p.padding[i] < 0 || p.output_padding[i] < 0)
      throw Error("conv_transpose2d: stride and dilation must be positive, padding non-negative");
  const std::int64_t ic = input.shape[0], ih = input.shape[1], iw = input.shape[2], g = p.groups;
  if (g < 1 || weight.shape[0] != ic || ic % g)
    throw Error(fmt::format("conv_transpose2d: weight {} does not match input {} with {} groups",
                            shape_to_string(weight.shape), shape_to_string(input.shape), g));
  const std::int64_t ocg = weight.shape[1], kh_n = weight.shape[2], kw_n = weight.shape[3];
  // out = (in - 1) s - 2p + d (k - 1) + output_padding + 1
  const std::int64_t oh =
      (ih - 1) * p.stride[0] - 2 * p.padding[0] + p.dilation[0] * (kh_n - 1) + p.output_padding[0] + 1;
  const std::int64_t ow =
      (iw - 1) * p.stride[1] - 2 * p.padding[1] + p.dilation[1] * (kw_n - 1) + p.output_padding[1] + 1;
  if (oh < 1 || ow < 1) throw Error("conv_transpose2d: output size is empty");
  return {ic / g, ocg, ocg * g, oh, ow, {kh_n, kw_n}};
}

}  // namespace

void col2im_strided(const float* columns, std::int64_t row_stride, std::int64_t channels,
                    std::array<std::int64_t, 2> kernel, const ConvParams& p, std::int64_t in_h,
                    std::int64_t in_w, std::int64_t out_h, std::int64_t out_w, float* output) {
  for (std::int64_t o = 0; o < channels; ++o) {
    float* dst = output + o * out_h * out_w;
    for (std::int64_t i = 0; i < kernel[0]; ++i) {
      for (std::int64_t j = 0; j < kernel[1]; ++j) {
        const float* row = columns + ((o * kernel[0] + i) * kernel[1] + j) * row_stride;
        for (std::int64_t y = 0; y < in_h; ++y) {
          const std::int64_t oy = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
          if (oy < 0 || oy >= out_h) continue;
          for (std::int64_t x = 0; x < in_w; ++x) {
            const std::int64_t ox = x * p.stride[1] - p.padding[1] + j * p.dilation[1];
            if (ox >= 0 && ox < out_w) dst[oy * out_w + ox] += row[y * in_w + x];
          }
        }
      }
    }
  }
}

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  const TransposeGeometry geo = transpose_geometry(input, weight, p);
  const std::int64_t ih = input.shape[1], iw = input.shape[2], g = p.groups, icg = geo.icg, ocg = geo.ocg;
  const std::int64_t oc = geo.oc, oh = geo.oh, ow = geo.ow, kh_n = geo.k[0], kw_n = geo.k[1];
  if (!bias.empty() && bias.size() != oc)
    throw Error("conv_transpose2d: bias must have one value per channel");

  Tensor out({oc, oh, ow});
  const std::int64_t kk = ocg * kh_n * kw_n, plane = ih * iw;
  std::vector<float> wt(static_cast<std::size_t>(kk * icg));
  float* columns = scratch_buffer(kk * plane);
  for (std::int64_t grp = 0; grp < g; ++grp) {
    // W[g] is icg x kk (rows = input channels); columns (kk x IH*IW) = W[g]^T * X[g].
    ConstMatrixMap wg(weight.ptr() + grp * icg * kk, icg, kk);
    MatrixMap(wt.data(), kk, icg) = wg.transpose();
    gemm(wt.data(), input.ptr() + grp * icg * plane, columns, kk, plane, icg);
    // Column-to-patch: out[o, y*s - p + i*d, x*s - p + j*d] += columns[(o, i, j), (y, x)].
    col2im_strided(columns, plane, ocg, geo.k, p, ih, iw, oh, ow, out.ptr() + grp * ocg * oh * ow);
  }
  if (!bias.empty()) {
    auto m = out.matrix(oc, oh * ow);
    m.colwise() += bias.vector();
  }
  return out;
}

Gradients conv_transpose2d_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                    const Tensor& grad_output, const ConvParams& p) {
  const TransposeGeometry geo = transpose_geometry(input, weight, p);
  check_grad_output("conv_transpose2d_backward", grad_output, geo.oc, geo.oh, geo.ow);
  const std::int64_t ih = input.shape[1], iw = input.shape[2], plane = ih * iw;
  const std::int64_t icg = geo.icg, kk = geo.ocg * geo.k[0] * geo.k[1];
  Gradients grads{Tensor(input.shape), Tensor(weight.shape), Tensor()};
  // The forward wrote out[o, y*s - p + i*d, x*s - p + j*d] += W[c, o, i, j] X[c, y, x]: im2col of dY
  // with IH x IW "output" positions gathers, for each input position (y, x), exactly those dY entries.
  float* columns = scratch_buffer(kk * plane);
  // dW[g] (icg x kk) = X[g] C^T needs one side transposed: C (kk x plane) when the input plane is the
  // smaller of plane and icg (Chair's fc5: a 1x1 input), else X[g] and the product (as conv2d_backward).
  const bool transpose_columns = plane < icg;
  std::vector<float> xt(static_cast<std::size_t>(plane * icg)),
      tmp(static_cast<std::size_t>(kk * (transpose_columns ? plane : icg)));
  for (std::int64_t grp = 0; grp < p.groups; ++grp) {
    im2col(grad_output, grp * geo.ocg, geo.ocg, geo.k, p, ih, iw, columns);
    // dX[g] (icg x plane) = W[g] (icg x kk) * C (kk x plane)
    gemm(weight.ptr() + grp * icg * kk, columns, grads.input.ptr() + grp * icg * plane, icg, plane, kk);
    const float* xg = input.ptr() + grp * icg * plane;
    float* dw = grads.weight.ptr() + grp * icg * kk;
    if (transpose_columns) {
      MatrixMap(tmp.data(), plane, kk) = ConstMatrixMap(columns, kk, plane).transpose();
      gemm(xg, tmp.data(), dw, icg, kk, plane);
    } else {  // dW[g] = (C X[g]^T)^T
      MatrixMap(xt.data(), plane, icg) = ConstMatrixMap(xg, icg, plane).transpose();
      gemm(columns, xt.data(), tmp.data(), kk, icg, plane);
      MatrixMap(dw, icg, kk) = MatrixMap(tmp.data(), kk, icg).transpose();
    }
  }
  if (has_bias) {
    grads.bias = Tensor({geo.oc});
    grads.bias.vector() = grad_output.matrix(geo.oc, geo.oh * geo.ow).rowwise().sum();
  }
  return grads;
}

}  // namespace coinfer::kernels
