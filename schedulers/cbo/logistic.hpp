#pragma once
/// Numerically safe pieces of the logistic function shared by the calibration fits (internal to
/// schedulers/cbo).
#include <cmath>

namespace coinfer::cbo::detail {

/// 1 / (1 + exp(-x)) without overflow for large |x|.
inline double sigmoid(double x) {
  if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

/// log(1 + exp(x)) without overflow.
inline double log1p_exp(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

/// Cross-entropy of target t in [0, 1] against sigmoid(x): -t log s(x) - (1 - t) log(1 - s(x))
/// = log(1 + exp(x)) - t x.
inline double cross_entropy(double t, double x) { return log1p_exp(x) - t * x; }

}  // namespace coinfer::cbo::detail
