#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer::kernels {
namespace {

// Checks that x has a channel axis and every parameter vector one value per channel; returns C.
std::int64_t check_channels(const Tensor& x, const BatchNormParams& p, const char* name) {
  if (x.rank() < 1) throw Error(fmt::format("{}: expected an input with a channel axis", name));
  const std::int64_t c = x.shape[0];
  const auto n = static_cast<std::size_t>(c);
  if (p.mean.size() != n || p.variance.size() != n || p.scale.size() != n || p.shift.size() != n)
    throw Error(fmt::format("{}: parameters must have {} values (one per channel)", name, c));
  return c;
}

}  // namespace

Tensor batch_norm(Tensor x, const BatchNormParams& p) {
  const std::int64_t c = check_channels(x, p, "batch_norm");
  auto m = x.matrix(c, x.size() / c);
  for (std::int64_t i = 0; i < c; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!(p.variance[k] >= 0.0f)) throw Error("batch_norm: variance must be non-negative");
    // Folded into one multiply-add: y = a x + b with a = scale / sqrt(var + eps), b = shift - a mean.
    const float a = p.scale[k] / std::sqrt(p.variance[k] + p.epsilon);
    const float b = p.shift[k] - a * p.mean[k];
    m.row(i) = (m.row(i).array() * a + b).matrix();
  }
  return x;
}

BatchNormParams batch_norm_statistics(const Tensor& x, BatchNormParams params) {
  const std::int64_t c = check_channels(x, params, "batch_norm_statistics");
  const std::int64_t per_channel = c > 0 ? x.size() / c : 0;
  if (per_channel < 1) throw Error("batch_norm_statistics: every channel needs at least one element");
  const auto m = x.matrix(c, per_channel);
  for (std::int64_t i = 0; i < c; ++i) {
    // Two passes in double: mean, then the mean squared deviation (no cancellation as in E[x^2] - E[x]^2).
    const Eigen::ArrayXd row = m.row(i).transpose().cast<double>().array();
    const double mean = row.mean();
    params.mean[static_cast<std::size_t>(i)] = static_cast<float>(mean);
    params.variance[static_cast<std::size_t>(i)] = static_cast<float>((row - mean).square().mean());
  }
  return params;
}

Gradients batch_norm_backward(const Tensor& x, const BatchNormParams& batch, const Tensor& grad_output) {
  const std::int64_t c = check_channels(x, batch, "batch_norm_backward");
  if (grad_output.shape != x.shape)
    throw Error(fmt::format("batch_norm_backward: grad_output {} does not match the input {}",
                            shape_to_string(grad_output.shape), shape_to_string(x.shape)));
  const std::int64_t per_channel = x.size() / c;
  Gradients grads{Tensor(x.shape), Tensor({c}), Tensor({c})};
  const auto xm = x.matrix(c, per_channel);
  const auto dy = grad_output.matrix(c, per_channel);
  auto dx = grads.input.matrix(c, per_channel);
  for (std::int64_t i = 0; i < c; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const float inv_std = 1.0f / std::sqrt(batch.variance[k] + batch.epsilon);
    const Eigen::ArrayXf xhat = (xm.row(i).transpose().array() - batch.mean[k]) * inv_std;
    const Eigen::ArrayXf g = dy.row(i).transpose().array();
    const float dshift = g.sum(), dscale = (g * xhat).sum();
    grads.bias.data[k] = dshift;
    grads.weight.data[k] = dscale;
    const float a = batch.scale[k] * inv_std / static_cast<float>(per_channel);
    dx.row(i) = (a * (static_cast<float>(per_channel) * g - dshift - xhat * dscale)).matrix().transpose();
  }
  return grads;
}

}  // namespace coinfer::kernels
