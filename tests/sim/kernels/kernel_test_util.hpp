#pragma once
// Helpers shared by the kernel tests: element-wise comparison against a naive reference.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/kernels/tensor.hpp"

namespace coinfer::test {

/// Largest |got - ref| / (1 + |ref|) over all elements (shapes must match).
inline double max_rel_error(const Tensor& got, const Tensor& ref) {
  REQUIRE(got.shape == ref.shape);
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.data.size(); ++i)
    worst = std::max(
        worst, std::abs(static_cast<double>(got.data[i]) - ref.data[i]) / (1.0 + std::abs(ref.data[i])));
  return worst;
}

/// A random integer in [lo, hi] from `rng`.
inline std::int64_t draw(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

}  // namespace coinfer::test
