#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer::kernels {
namespace {

using Planes = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;  // C x (H*W)

void check_lrn(const Tensor& x, std::int64_t size, const char* name) {
  if (x.rank() != 3)
    throw Error(fmt::format("{}: expected a (C,H,W) input, got {}", name, shape_to_string(x.shape)));
  if (size < 1) throw Error(fmt::format("{}: size must be positive, got {}", name, size));
}

// out[ch] = sum of v[ch'] for ch' in [ch - before, ch + after] clipped to [0, C), by a running sum.
Planes channel_window_sum(const Planes& v, std::int64_t before, std::int64_t after) {
  const std::int64_t c = v.rows();
  Planes out(c, v.cols());
  Eigen::Array<float, 1, Eigen::Dynamic> window = Eigen::Array<float, 1, Eigen::Dynamic>::Zero(v.cols());
  for (std::int64_t ch = 0; ch < std::min(after, c); ++ch) window += v.row(ch);
  for (std::int64_t ch = 0; ch < c; ++ch) {
    if (ch + after < c) window += v.row(ch + after);
    if (ch - before - 1 >= 0) window -= v.row(ch - before - 1);
    out.row(ch) = window;
  }
  return out;
}

// s[c] = k + alpha / size * sum_{c' = c - (size-1)/2}^{c + size/2} x[c']^2
Planes lrn_scale(const Tensor& x, std::int64_t size, float alpha, float k) {
  const Planes sq = x.matrix(x.shape[0], x.shape[1] * x.shape[2]).array().square();
  return k + alpha / static_cast<float>(size) * channel_window_sum(sq, (size - 1) / 2, size / 2);
}

}  // namespace

Tensor lrn(const Tensor& x, std::int64_t size, float alpha, float beta, float k) {
  check_lrn(x, size, "lrn");
  Tensor out(x.shape);
  const std::int64_t c = x.shape[0], plane = x.shape[1] * x.shape[2];
  out.matrix(c, plane) = (x.matrix(c, plane).array() * lrn_scale(x, size, alpha, k).pow(-beta)).matrix();
  return out;
}

Tensor lrn_backward(const Tensor& x, const Tensor& grad_output, std::int64_t size, float alpha, float beta,
                    float k) {
  check_lrn(x, size, "lrn_backward");
  if (grad_output.shape != x.shape)
    throw Error(fmt::format("lrn_backward: grad_output {} does not match the input {}",
                            shape_to_string(grad_output.shape), shape_to_string(x.shape)));
  const std::int64_t c = x.shape[0], plane = x.shape[1] * x.shape[2];
  const auto xs = x.matrix(c, plane).array();
  const auto dy = grad_output.matrix(c, plane).array();
  const Planes s = lrn_scale(x, size, alpha, k);
  const Planes s_pow = s.pow(-beta);
  // Channel c sits in the window of c' iff c' - before <= c <= c' + after, i.e. c' in [c - after,
  // c + before]: the mirrored window sums the terms dy[c'] y[c'] / s[c'] = dy[c'] x[c'] s[c']^(-beta-1).
  const Planes t = dy * xs * s_pow / s;
  const Planes back = channel_window_sum(t, size / 2, (size - 1) / 2);
  Tensor grad(x.shape);
  grad.matrix(c, plane) = (dy * s_pow - 2.0f * beta * alpha / static_cast<float>(size) * xs * back).matrix();
  return grad;
}

}  // namespace coinfer::kernels
