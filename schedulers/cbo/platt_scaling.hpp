#pragma once
/// Platt scaling (Platt 1999; Tan & Cao sec. III-B): the calibrated confidence of a raw score s is
///
///     p(s) = 1 / (1 + exp(A s + B))
///
/// (the paper's and Platt's sign convention: A < 0 when a higher score means more often right).
/// A and B minimise the cross-entropy against Platt's smoothed targets, which keep the fit away
/// from 0 and 1 on small sets: a right frame has target t+ = (N+ + 1) / (N+ + 2), a wrong one
/// t- = 1 / (N- + 2), with N+ / N- the numbers of right / wrong training frames.
///
/// The fit is Newton's method with a backtracking (Armijo) line search, as in Lin, Lin & Weng,
/// "A note on Platt's probabilistic outputs for support vector machines" (2007): `fit_logistic`
/// (logistic_fit.hpp) with the one feature s, started at A = 0, B = log((N- + 1) / (N+ + 1)); the
/// Hessian's 1e-12 on its diagonal lets a degenerate set (one score value, one class) still give a
/// direction. The paper's procedure on the whole feature vector is `fit_platt_vector`
/// (platt_vector.hpp).
///
///     auto fit = cbo::fit_platt({{0, 0, 0, 1, 1, 1}, {1, 0, 0, 1, 1, 0}});
///     double p = cbo::platt_apply(fit, 0.5);
#include "schedulers/cbo/calibration_error.hpp"

namespace coinfer::cbo {

struct PlattFit {
  double a = 0;        ///< A
  double b = 0;        ///< B
  int iterations = 0;  ///< Newton iterations taken
};

/// Throws `std::invalid_argument` when `train` is empty or its sizes differ.
PlattFit fit_platt(const ScoredFrames& train);

/// p(s) = 1 / (1 + exp(A s + B)), computed without overflow.
double platt_apply(const PlattFit& fit, double score);

}  // namespace coinfer::cbo
