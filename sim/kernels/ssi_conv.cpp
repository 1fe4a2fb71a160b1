#include "sim/kernels/ssi_conv.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {
namespace {

struct SsiGeometry {
  std::int64_t oc, oh, ow, icg, kk;  // kk: rows of a group's column matrix, IC/g * KH * KW
  std::array<std::int64_t, 2> k;
};

SsiGeometry ssi_geometry(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  if (input.rank() != 3 || weight.rank() != 4)
    throw Error(fmt::format("ssi_conv2d: expected input (C,H,W) and weight (OC,IC/g,KH,KW), got {} and {}",
                            shape_to_string(input.shape), shape_to_string(weight.shape)));
  for (int i = 0; i < 2; ++i)
    if (p.stride[i] < 1 || p.dilation[i] < 1 || p.padding[i] < 0)
      throw Error("ssi_conv2d: stride and dilation must be positive and padding non-negative");
  const std::int64_t c = input.shape[0], oc = weight.shape[0], g = p.groups;
  if (g < 1 || c % g || oc % g || weight.shape[1] != c / g)
    throw Error(fmt::format("ssi_conv2d: weight {} does not match input {} with {} groups",
                            shape_to_string(weight.shape), shape_to_string(input.shape), g));
  if (!bias.empty() && bias.size() != oc)
    throw Error("ssi_conv2d: bias must have one value per output channel");
  const std::array<std::int64_t, 2> k{weight.shape[2], weight.shape[3]};
  const std::int64_t oh = conv_output_size(input.shape[1], k[0], p.stride[0], p.padding[0], p.dilation[0]);
  const std::int64_t ow = conv_output_size(input.shape[2], k[1], p.stride[1], p.padding[1], p.dilation[1]);
  if (oh < 1 || ow < 1) throw Error("ssi_conv2d: kernel does not fit the padded input");
  return {oc, oh, ow, c / g, c / g * k[0] * k[1], k};
}

// Patch-to-column over the active positions only: row (c, kh, kw), column j holds
// input[c0 + c, oy*s - p + kh*d, ox*s - p + kw*d] for the j-th active output (oy, ox), 0 in the padding.
// A position whose whole receptive field lies inside the input (most of them) reads
// input[offset_j + kh*d*W + kw*d] with no bounds test.
void masked_im2col(const Tensor& input, std::int64_t c0, const SsiGeometry& geo, const ConvParams& p,
                   const std::vector<std::int64_t>& active, float* columns) {
  const std::int64_t h = input.shape[1], w = input.shape[2], n = static_cast<std::int64_t>(active.size());
  const std::int64_t span_y = (geo.k[0] - 1) * p.dilation[0], span_x = (geo.k[1] - 1) * p.dilation[1];
  // Top-left corner of each active position's receptive field (may lie in the padding).
  std::vector<std::int64_t> top(active.size()), left(active.size()), offset(active.size());
  std::vector<std::uint8_t> inside(active.size());
  for (std::size_t j = 0; j < active.size(); ++j) {
    top[j] = active[j] / geo.ow * p.stride[0] - p.padding[0];
    left[j] = active[j] % geo.ow * p.stride[1] - p.padding[1];
    offset[j] = top[j] * w + left[j];
    inside[j] = top[j] >= 0 && left[j] >= 0 && top[j] + span_y < h && left[j] + span_x < w;
  }
  for (std::int64_t c = 0; c < geo.icg; ++c) {
    const float* src = input.ptr() + (c0 + c) * h * w;
    for (std::int64_t kh = 0; kh < geo.k[0]; ++kh)
      for (std::int64_t kw = 0; kw < geo.k[1]; ++kw) {
        float* row = columns + ((c * geo.k[0] + kh) * geo.k[1] + kw) * n;
        const std::int64_t dy = kh * p.dilation[0], dx = kw * p.dilation[1], shift = dy * w + dx;
        for (std::size_t j = 0; j < active.size(); ++j) {
          if (inside[j]) {
            row[j] = src[offset[j] + shift];
            continue;
          }
          const std::int64_t iy = top[j] + dy, ix = left[j] + dx;
          row[j] = iy >= 0 && iy < h && ix >= 0 && ix < w ? src[iy * w + ix] : 0.0f;
        }
      }
  }
}

Shape checked_output_shape(const SsiGeometry& geo, const SpatialMask& mask) {
  if (mask.height != geo.oh || mask.width != geo.ow ||
      static_cast<std::int64_t>(mask.active.size()) != geo.oh * geo.ow)
    throw Error(fmt::format("ssi_conv2d: mask {}x{} is not the output's {}x{}", mask.height, mask.width,
                            geo.oh, geo.ow));
  return {geo.oc, geo.oh, geo.ow};
}

void check_output(const char* what, const Tensor& t, const Shape& shape) {
  if (t.shape != shape)
    throw Error(fmt::format("ssi_conv2d: {} {} is not the output shape {}", what, shape_to_string(t.shape),
                            shape_to_string(shape)));
}

// Up to this many active columns (and fewer than the whole plane), the product is taken per output
// channel: product[o] = columns^T w[o], one GEMV (the dispatched AVX2 / AVX-512 one) over the N x kk
// transposed columns, which stay in cache, so the weights are read once. The GEMM packs the whole
// weight matrix on every call, which costs about three passes over it however few columns remain
// (flownet_dff's conv6_1 at density 0.1: 4 of 40 columns, 1024 x 9216 weights).
constexpr std::int64_t kFewColumns = 8;

// product (m x n) (+)= w (m x kk) * columns (kk x n), one GEMV per row of w.
void few_column_product(const float* w, const float* columns, float* product, std::int64_t m, std::int64_t n,
                        std::int64_t kk, bool accumulate) {
  const RowMatrix cols_t = ConstMatrixMap(columns, kk, n).transpose();  // n x kk
  parallel_for(m, 16, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t o = begin; o < end; ++o)
      gemv(cols_t.data(), w + o * kk, product + o * n, n, kk, accumulate);
  });
}

// The SSI convolution proper, onto an output of the right shape.
void ssi_conv2d_checked(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p,
                        const SsiGeometry& geo, const SpatialMask& mask, Tensor& out) {
  const std::vector<std::int64_t> active = ssi_index(mask);
  const auto n = static_cast<std::int64_t>(active.size());
  if (n == 0) return;
  const std::int64_t ocg = geo.oc / p.groups, plane = geo.oh * geo.ow;
  // product (OC/g x N) starts as the bias and the GEMM accumulates onto it, as conv2d does.
  RowMatrix product(ocg, n);
  for (std::int64_t grp = 0; grp < p.groups; ++grp) {
    float* columns = scratch_buffer(geo.kk * n);
    masked_im2col(input, grp * geo.icg, geo, p, active, columns);
    if (!bias.empty()) product.colwise() = bias.vector().segment(grp * ocg, ocg);
    const float* w = weight.ptr() + grp * ocg * geo.kk;
    if (n <= kFewColumns && n < plane)
      few_column_product(w, columns, product.data(), ocg, n, geo.kk, !bias.empty());
    else
      gemm(w, columns, product.data(), ocg, n, geo.kk, !bias.empty());
    for (std::int64_t o = 0; o < ocg; ++o) {
      float* dst = out.ptr() + (grp * ocg + o) * plane;
      const float* src = product.data() + o * n;
      for (std::int64_t j = 0; j < n; ++j) dst[active[static_cast<std::size_t>(j)]] = src[j];
    }
  }
}

}  // namespace

SpatialMask SpatialMask::filled(std::int64_t height, std::int64_t width, bool value) {
  if (height < 0 || width < 0) throw Error(fmt::format("mask: negative size {}x{}", height, width));
  return {height, width, std::vector<std::uint8_t>(static_cast<std::size_t>(height * width), value ? 1 : 0)};
}

double SpatialMask::density() const {
  if (active.empty()) return 0.0;
  const auto on = std::count_if(active.begin(), active.end(), [](std::uint8_t v) { return v != 0; });
  return static_cast<double>(on) / static_cast<double>(active.size());
}

std::vector<std::int64_t> ssi_index(const SpatialMask& mask) {
  // Sequential here; the GPU version of [Mao-PhD Fig. 4.9] claims slots with an atomic counter and
  // so yields the same set in another order.
  std::vector<std::int64_t> index;
  for (std::size_t i = 0; i < mask.active.size(); ++i)
    if (mask.active[i]) index.push_back(static_cast<std::int64_t>(i));
  return index;
}

SpatialMask downsample_mask(const SpatialMask& mask, std::int64_t out_h, std::int64_t out_w,
                            double min_share) {
  if (out_h < 1 || out_w < 1 || out_h > mask.height || out_w > mask.width)
    throw Error(fmt::format("downsample_mask: cannot pool a {}x{} mask to {}x{}", mask.height, mask.width,
                            out_h, out_w));
  if (!(min_share >= 0.0 && min_share < 1.0))
    throw Error(fmt::format("downsample_mask: min_share must be in [0, 1), got {}", min_share));
  SpatialMask out = SpatialMask::filled(out_h, out_w, false);
  for (std::int64_t y = 0; y < out_h; ++y) {
    const std::int64_t y0 = y * mask.height / out_h, y1 = ((y + 1) * mask.height + out_h - 1) / out_h;
    for (std::int64_t x = 0; x < out_w; ++x) {
      const std::int64_t x0 = x * mask.width / out_w, x1 = ((x + 1) * mask.width + out_w - 1) / out_w;
      std::int64_t on = 0;
      for (std::int64_t yy = y0; yy < y1; ++yy)
        for (std::int64_t xx = x0; xx < x1; ++xx)
          on += mask.active[static_cast<std::size_t>(yy * mask.width + xx)] != 0;
      const auto window = static_cast<double>((y1 - y0) * (x1 - x0));
      out.active[static_cast<std::size_t>(y * out_w + x)] =
          static_cast<double>(on) > min_share * window ? 1 : 0;
    }
  }
  return out;
}

Tensor ssi_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p,
                  const SpatialMask& output_mask, const Tensor& base) {
  const SsiGeometry geo = ssi_geometry(input, weight, bias, p);
  const Shape shape = checked_output_shape(geo, output_mask);
  if (!base.empty()) check_output("base", base, shape);
  Tensor out = base.empty() ? Tensor(shape) : base;
  ssi_conv2d_checked(input, weight, bias, p, geo, output_mask, out);
  return out;
}

void ssi_conv2d_into(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p,
                     const SpatialMask& output_mask, Tensor& output) {
  const SsiGeometry geo = ssi_geometry(input, weight, bias, p);
  check_output("output", output, checked_output_shape(geo, output_mask));
  ssi_conv2d_checked(input, weight, bias, p, geo, output_mask, output);
}

}  // namespace coinfer::kernels
