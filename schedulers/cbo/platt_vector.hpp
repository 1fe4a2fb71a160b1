#pragma once
/// Platt calibration as Tan & Cao describe it [CBO §III-B, Fig. 6]: N logistic models, one per
/// class, each taking the whole feature vector x = [x_1 ... x_N] (the local model's last-layer output)
/// and giving class k's calibrated score
///
///     p_k(x) = 1 / (1 + exp(a_k . x + b_k))
///
/// (the paper's sign convention, as platt_scaling.hpp). Model k is trained with target 1 on the
/// frames whose true class is k and 0 on the others, smoothed as Platt's: t+ = (N+ + 1) / (N+ + 2),
/// t- = 1 / (N- + 2) with N+ / N- the frames of class k / of another class. A frame's calibrated
/// confidence is the score of the class the local model answers (the largest x_k, the first on
/// ties): the probability that its answer is right.
///
/// Each model is fitted by `fit_logistic` (logistic_fit.hpp), started at a = 0,
/// b = log((N- + 1) / (N+ + 1)). With one feature this is exactly platt_scaling.hpp's fit.
///
///     auto fit = cbo::fit_platt_vector(train);          // train.scores, train.labels filled
///     double p = cbo::platt_vector_apply(fit, {2.0, -1.0, 0.5});
#include <vector>

#include "schedulers/cbo/calibration_error.hpp"
#include "schedulers/cbo/logistic_fit.hpp"

namespace coinfer::cbo {

struct PlattVectorFit {
  std::vector<LogisticFit> models;  ///< one per class
};

/// Throws `std::invalid_argument` unless `train` is non-empty and carries a feature vector (of one
/// size N >= 2) and a label in [0, N) for every frame.
PlattVectorFit fit_platt_vector(const ScoredFrames& train);

/// The calibrated confidence of a frame with feature vector `scores` (of the fitted size N;
/// `std::invalid_argument` otherwise): p_k for k the largest score's class.
double platt_vector_apply(const PlattVectorFit& fit, const std::vector<double>& scores);

}  // namespace coinfer::cbo
