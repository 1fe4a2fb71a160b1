#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/activation.hpp"

namespace coinfer::kernels {
namespace {

// Phi(x) = 0.5 (1 + erf(x / sqrt(2))), the standard normal CDF; in double, so that the fp32 results
// are within about an ulp of the exact values.
double gelu_normal_cdf(double x) { return 0.5 * (1.0 + std::erf(x / std::numbers::sqrt2)); }

}  // namespace

Tensor gelu(Tensor x) {
  for (auto& v : x.data) v = static_cast<float>(v * gelu_normal_cdf(v));
  return x;
}

Tensor gelu_backward(const Tensor& input, Tensor grad) {
  if (input.shape != grad.shape)
    throw Error(fmt::format("gelu_backward: gradient {} does not match the tensor {}",
                            shape_to_string(grad.shape), shape_to_string(input.shape)));
  // d/dx (x Phi(x)) = Phi(x) + x phi(x), phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
  constexpr double inv_sqrt_2pi = std::numbers::inv_sqrtpi / std::numbers::sqrt2;
  for (std::size_t i = 0; i < grad.data.size(); ++i) {
    const double x = input.data[i];
    grad.data[i] *= static_cast<float>(gelu_normal_cdf(x) + x * inv_sqrt_2pi * std::exp(-0.5 * x * x));
  }
  return grad;
}

}  // namespace coinfer::kernels
