#pragma once
/// Fitting a device's op_scale (device time / host time per op class) to reference figures.
///
/// Each figure j is reduced to its host time per op class h_jc (seconds, already multiplied by
/// the figure's batch and training factor), so the prediction for scales s is
///     pred_j(s) = sum_c h_jc * s_c.
/// - One fitted figure: a single scale s = ref / sum_c h_c for every class (exact).
/// - Several: least squares in log space. First the common scale
///     s0 = exp(mean_j log(ref_j / H_j)),   H_j = sum_c h_jc,
///   then, per "dominant" class (>= 10% of the host time of some fitted figure; the remaining
///   classes share one parameter), Gauss-Newton on theta = log s minimising
///     sum_j (log pred_j(s) - log ref_j)^2 + lambda * sum_k (theta_k - log s0)^2,
///   with a small ridge lambda so that classes the figures cannot tell apart stay at s0.
/// Residual of a figure: 100 * (pred - ref) / ref.
///
///     FitResult r = fit_op_scale({{0.8, {{OpClass::Conv, 0.08}}, true}});   // r.scale[Conv] == 10
#include <map>
#include <vector>

#include "sim/calibration/op_class.hpp"

namespace coinfer {

struct FitFigure {
  double reference_s = 0.0;          ///< the published time, seconds
  std::map<OpClass, double> host_s;  ///< host seconds of the figure's work, per class
  bool fitted = true;                ///< false: predicted and reported, not fitted
};

struct FitResult {
  std::map<OpClass, double> scale;   ///< every class
  std::vector<double> predicted_s;   ///< per figure (all figures, fitted or not)
  std::vector<double> residual_pct;  ///< per figure
  int free_parameters = 0;           ///< 1 for a common scale
};

/// Fits the scales; throws `Error` when no figure is fitted or a fitted figure has no host time.
FitResult fit_op_scale(const std::vector<FitFigure>& figures, double ridge = 1e-3);

/// sum_c host_s[c] * scale[c].
double predict_s(const std::map<OpClass, double>& scale, const FitFigure& figure);
/// 100 * (predicted - reference) / reference.
double residual_pct(double predicted_s, double reference_s);
/// `x` rounded to `digits` significant digits (0 and non-finite values as they are), as
/// calibration files write op_scale: `round_significant(12.345678, 5) == 12.346`.
double round_significant(double x, int digits);

}  // namespace coinfer
