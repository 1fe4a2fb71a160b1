#pragma once
/// The logistic fit behind both Platt calibrators (platt_scaling.hpp, platt_vector.hpp):
///
///     p(x) = 1 / (1 + exp(a . x + b))
///
/// (Platt's sign convention) fitted to targets t by minimising the cross-entropy
/// sum_i -t_i log p_i - (1 - t_i) log(1 - p_i). Newton's method with a backtracking (Armijo) line
/// search, started at a = 0, b = b0, the Hessian with 1e-12 on its diagonal and solved by Cholesky
/// (Eigen's LLT); it stops when every gradient component is below 1e-10 n, after 100 iterations, or
/// when no step above 1e-10 decreases the objective.
///
///     auto targets = cbo::platt_targets(correct);     // Platt's smoothed 0/1 targets and start
///     auto fit = cbo::fit_logistic(x, targets.t, targets.b0);
///     double p = cbo::logistic_apply(fit, x.front());
#include <vector>

namespace coinfer::cbo {

struct LogisticFit {
  std::vector<double> a;  ///< one weight per feature
  double b = 0;
  int iterations = 0;  ///< Newton iterations taken
};

/// The fit above from the start `b0` (a = 0). `x` holds one feature vector per row, all of one
/// size; `std::invalid_argument` when `x` is empty or the sizes differ.
LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<double>& t, double b0);

/// p = 1 / (1 + exp(a . x + b)), computed without overflow.
double logistic_apply(const LogisticFit& fit, const std::vector<double>& x);

/// Platt's smoothed targets for frames that are positive (1) or not (0): t+ = (N+ + 1) / (N+ + 2),
/// t- = 1 / (N- + 2), and the fit's start b0 = log((N- + 1) / (N+ + 1)).
struct PlattTargets {
  std::vector<double> t;
  double b0 = 0;
};
PlattTargets platt_targets(const std::vector<char>& positive);

}  // namespace coinfer::cbo
