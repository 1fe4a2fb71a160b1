#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer::kernels {
namespace {

// Every accepted rank read as one row-major (blocks, features, pixels) layout, normalised over the
// middle axis: (C, H, W) is (1, C, H*W); (T, F) is (T, F, 1); (F) is (1, F, 1). Element (b, f, p) sits
// at (b * features + f) * pixels + p, so a loop over f outer and p inner walks memory in order.
struct LayerNormLayout {
  std::int64_t blocks = 1, features = 1, pixels = 1;
};

LayerNormLayout layer_norm_layout(const Tensor& x, const char* name) {
  if (x.rank() < 1 || x.rank() > 3)
    throw Error(
        fmt::format("{}: expected a (C,H,W), (T,F) or (F) input, got {}", name, shape_to_string(x.shape)));
  if (x.rank() == 3) return {1, x.shape[0], x.shape[1] * x.shape[2]};
  if (x.rank() == 2) return {x.shape[0], x.shape[1], 1};
  return {1, x.shape[0], 1};
}

void check_layer_norm_param(const Tensor& p, std::int64_t features, const char* name, const char* what) {
  if (p.shape != Shape{features})
    throw Error(fmt::format("{}: {} must have shape [{}] (one value per feature), got {}", name, what,
                            features, shape_to_string(p.shape)));
}

void check_layer_norm_epsilon(float epsilon, const char* name) {
  if (!(epsilon >= 0.0f)) throw Error(fmt::format("{}: epsilon must be non-negative, got {}", name, epsilon));
}

// Per-pixel statistics of one block: mean and 1 / sqrt(var + eps), var the biased variance. Two passes
// in double (the mean, then the mean squared deviation), so no cancellation as in E[x^2] - E[x]^2.
struct LayerNormStats {
  std::vector<double> mean, inv_std;
};

LayerNormStats layer_norm_stats(const float* block, const LayerNormLayout& l, float epsilon) {
  const auto n = static_cast<std::size_t>(l.pixels);
  LayerNormStats s{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  for (std::int64_t f = 0; f < l.features; ++f) {
    const float* row = block + f * l.pixels;
    for (std::size_t p = 0; p < n; ++p) s.mean[p] += row[p];
  }
  const double inv_features = 1.0 / static_cast<double>(l.features);
  for (auto& m : s.mean) m *= inv_features;
  for (std::int64_t f = 0; f < l.features; ++f) {
    const float* row = block + f * l.pixels;
    for (std::size_t p = 0; p < n; ++p) {
      const double d = row[p] - s.mean[p];
      s.inv_std[p] += d * d;
    }
  }
  for (auto& v : s.inv_std) v = 1.0 / std::sqrt(v * inv_features + epsilon);
  return s;
}

// One block of layer_norm_backward: writes dx and adds the block's share of dgamma and dbeta. With
// x^ = (x - mean) inv_std and g = dy gamma, per pixel (sums over the F features):
//   dgamma[f] += sum_p dy x^,  dbeta[f] += sum_p dy,  dx = inv_std / F (F g - sum_f g - x^ sum_f g x^).
void layer_norm_backward_block(const float* x, const float* dy, const Tensor& gamma, const LayerNormLayout& l,
                               const LayerNormStats& s, float* dx, std::vector<double>& dgamma,
                               std::vector<double>& dbeta) {
  const auto n = static_cast<std::size_t>(l.pixels), nf = static_cast<std::size_t>(l.features);
  std::vector<double> sum_g(n, 0.0), sum_g_xhat(n, 0.0);
  for (std::size_t f = 0; f < nf; ++f) {
    const float* in = x + f * n;
    const float* d = dy + f * n;
    const double gam = gamma.data[f];
    double dg = 0.0, db = 0.0;
    for (std::size_t p = 0; p < n; ++p) {
      const double xhat = (in[p] - s.mean[p]) * s.inv_std[p];
      dg += d[p] * xhat;
      db += d[p];
      sum_g[p] += d[p] * gam;
      sum_g_xhat[p] += d[p] * gam * xhat;
    }
    dgamma[f] += dg;
    dbeta[f] += db;
  }
  const double features = static_cast<double>(l.features);
  for (std::size_t f = 0; f < nf; ++f) {
    const float* in = x + f * n;
    const float* d = dy + f * n;
    float* out = dx + f * n;
    const double gam = gamma.data[f];
    for (std::size_t p = 0; p < n; ++p) {
      const double xhat = (in[p] - s.mean[p]) * s.inv_std[p];
      out[p] = static_cast<float>(s.inv_std[p] / features *
                                  (features * d[p] * gam - sum_g[p] - xhat * sum_g_xhat[p]));
    }
  }
}

}  // namespace

Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float epsilon) {
  const LayerNormLayout l = layer_norm_layout(x, "layer_norm");
  check_layer_norm_param(gamma, l.features, "layer_norm", "gamma");
  check_layer_norm_param(beta, l.features, "layer_norm", "beta");
  check_layer_norm_epsilon(epsilon, "layer_norm");
  Tensor y(x.shape);
  if (x.empty()) return y;
  const std::int64_t block_size = l.features * l.pixels;
  for (std::int64_t b = 0; b < l.blocks; ++b) {
    const LayerNormStats s = layer_norm_stats(x.ptr() + b * block_size, l, epsilon);
    for (std::int64_t f = 0; f < l.features; ++f) {
      const std::int64_t offset = b * block_size + f * l.pixels;
      const float* in = x.ptr() + offset;
      float* out = y.ptr() + offset;
      const auto k = static_cast<std::size_t>(f);
      const float g = gamma.data[k], shift = beta.data[k];
      for (std::size_t p = 0; p < s.mean.size(); ++p)
        out[p] = static_cast<float>((in[p] - s.mean[p]) * s.inv_std[p]) * g + shift;
    }
  }
  return y;
}

LayerNormGradients layer_norm_backward(const Tensor& x, const Tensor& gamma, float epsilon,
                                       const Tensor& grad_output) {
  const char* name = "layer_norm_backward";
  const LayerNormLayout l = layer_norm_layout(x, name);
  check_layer_norm_param(gamma, l.features, name, "gamma");
  check_layer_norm_epsilon(epsilon, name);
  if (grad_output.shape != x.shape)
    throw Error(fmt::format("{}: grad_output {} does not match the input {}", name,
                            shape_to_string(grad_output.shape), shape_to_string(x.shape)));
  LayerNormGradients grads{Tensor(x.shape), Tensor({l.features}), Tensor({l.features})};
  if (x.empty()) return grads;
  const auto nf = static_cast<std::size_t>(l.features);
  std::vector<double> dgamma(nf, 0.0), dbeta(nf, 0.0);
  const std::int64_t block_size = l.features * l.pixels;
  for (std::int64_t b = 0; b < l.blocks; ++b) {
    const std::int64_t o = b * block_size;
    const LayerNormStats s = layer_norm_stats(x.ptr() + o, l, epsilon);
    layer_norm_backward_block(x.ptr() + o, grad_output.ptr() + o, gamma, l, s, grads.input.ptr() + o, dgamma,
                              dbeta);
  }
  for (std::size_t f = 0; f < nf; ++f) {
    grads.gamma.data[f] = static_cast<float>(dgamma[f]);
    grads.beta.data[f] = static_cast<float>(dbeta[f]);
  }
  return grads;
}

}  // namespace coinfer::kernels
