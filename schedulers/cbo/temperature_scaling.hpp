#pragma once
/// Temperature scaling (Guo, Pleiss, Sun & Weinberger, "On calibration of modern neural
/// networks", ICML 2017; Tan & Cao's ref. [13]) for a binary confidence.
///
/// Guo et al. divide a network's logits by one temperature T > 0 before the softmax, T fitted by
/// minimising the negative log-likelihood (NLL) on held-out data. A trace holds only the local
/// model's confidence s in its answer and whether the answer was right, so we read it as a
/// two-class problem (right / wrong) whose softmax is sigmoid(z) with z = logit(s) = log(s / (1 - s)):
/// dividing both logits by T divides z by T, and the calibrated confidence is
///
///     q(s) = sigmoid(logit(s) / T)
///
/// with T minimising NLL(T) = -sum_i [y_i log q(s_i) + (1 - y_i) log(1 - q(s_i))] (y = 1 right).
/// Like Guo's, this changes no ranking: q is increasing in s for every T > 0. Scores are clamped to
/// [1e-12, 1 - 1e-12] before the logit (0 and 1 would give infinite logits).
///
/// The fit works on beta = 1 / T: NLL is convex in beta (a logistic regression through the origin
/// with the single feature z), so its derivative g(beta) = sum_i z_i (q_i - y_i) is non-decreasing
/// and T is where it crosses 0. The root is found by Newton's method safeguarded by bisection
/// inside the bracket beta in [1e-4, 1e4] (T in [1e-4, 1e4]); when g does not change sign there,
/// T is the bound NLL falls towards (1e4 when the scores carry no or inverse information, 1e-4 when
/// every training answer is on the side its score favours); T = 1 when every score is 0.5.
///
///     auto fit = cbo::fit_temperature({{0.99, 0.99, 0.6, 0.9}, {1, 0, 1, 0}});
///     double q = cbo::temperature_apply(fit, 0.99);
#include "schedulers/cbo/calibration_error.hpp"

namespace coinfer::cbo {

struct TemperatureFit {
  double temperature = 1;  ///< T
  int iterations = 0;      ///< Newton / bisection steps taken
};

/// Throws `std::invalid_argument` when `train` is empty or its sizes differ.
TemperatureFit fit_temperature(const ScoredFrames& train);

/// q(s) = sigmoid(logit(s) / T).
double temperature_apply(const TemperatureFit& fit, double score);

/// NLL of `frames` under temperature `t` (natural log, summed), for reports and tests.
double temperature_nll(const ScoredFrames& frames, double t);

}  // namespace coinfer::cbo
