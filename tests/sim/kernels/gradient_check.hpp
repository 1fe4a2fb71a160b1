#pragma once
// Finite-difference checks of the backward kernels.
//
// Every check differentiates the random projection L(x) = sum_j r_j f(x)_j (r seeded N(0, 1)): every
// output element matters, and dL/dy = r is exactly the grad_output the backward kernel receives.
//
// Choice of step and tolerance. The kernels run in fp32, L is accumulated in double, and the numeric
// gradient is (L(x + h) - L(x - h)) / (2h) with h the step actually taken in fp32 (x +- eps rounded),
// so the division introduces no error of its own. Two errors remain:
// - rounding: the outputs that depend on the perturbed element change by fp32 rounding, about
//   u * sum_j |r_j y_j| ~ 6e-8 * 10 over a few dozen touched outputs of size ~1, divided by 2 eps;
// - truncation: eps^2 / 6 * f''' for smooth functions (zero for the linear ones: conv, fc, pooling,
//   dropout, add, concat; kinks of relu and max pooling are kept more than eps away from the inputs).
// eps = 1e-2 puts both near 1e-5 relative to O(1) gradients; measured, the worst check here is 9e-5
// (fc's input gradient: sums of 24 products, outputs ~5). The tests require
// max |analytic - numeric| / (1 + |numeric|) < 1e-3 (kTolerance): ten times that margin, and still far
// below any real mistake (a missing term, a wrong index or sign is an O(1) error).
#include <cmath>

#include "kernel_test_util.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer::test {

inline constexpr float kEps = 1e-2f;
inline constexpr double kTolerance = 1e-3;

/// L = sum_j r_j y_j in double (shapes must match).
inline double projection(const Tensor& y, const Tensor& r) {
  REQUIRE(y.shape == r.shape);
  double sum = 0.0;
  for (std::size_t j = 0; j < y.data.size(); ++j) sum += static_cast<double>(r.data[j]) * y.data[j];
  return sum;
}

/// Central differences of `loss(const Tensor&) -> double` at `x`, one element at a time.
template <class Loss>
Tensor numeric_gradient(Loss loss, Tensor x, float eps = kEps) {
  Tensor grad(x.shape);
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const float saved = x.data[i], up = saved + eps, down = saved - eps;
    x.data[i] = up;
    const double l_up = loss(x);
    x.data[i] = down;
    const double l_down = loss(x);
    x.data[i] = saved;
    grad.data[i] = static_cast<float>((l_up - l_down) / (static_cast<double>(up) - down));
  }
  return grad;
}

/// Checks an analytic gradient against the numeric one of `loss` at `x` (see the header comment).
template <class Loss>
void check_gradient(const Tensor& analytic, Loss loss, const Tensor& x) {
  const double error = max_rel_error(analytic, numeric_gradient(loss, x));
  INFO("max |analytic - numeric| / (1 + |numeric|) = " << error);
  CHECK(error < kTolerance);
}

/// `x` with every element moved at least `margin` away from each of `kinks` (pushed outwards), so a
/// finite-difference step of less than `margin` never crosses a kink.
inline Tensor away_from(Tensor x, std::initializer_list<float> kinks, float margin = 0.1f) {
  for (auto& v : x.data)
    for (float k : kinks)
      if (std::abs(v - k) < margin) v = v >= k ? k + margin : k - margin;
  return x;
}

}  // namespace coinfer::test
