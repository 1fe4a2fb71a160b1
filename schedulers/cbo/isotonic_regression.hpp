#pragma once
/// Isotonic regression (Zadrozny & Elkan 2002; Tan & Cao sec. III-B): the non-decreasing,
/// piecewise constant f minimising sum_i (f(s_i) - y_i)^2 over the training frames (y = 1 right,
/// 0 wrong), fitted by pool adjacent violators (PAV).
///
/// Frames are sorted by score; frames with the same score start in one block (weight = count,
/// value = their accuracy). Scanning left to right, a block whose value is not above the previous
/// block's is pooled with it (weighted mean), repeatedly, so that block values end strictly
/// increasing. Each block covers the scores [lower, upper] of the frames in it.
///
/// Prediction is a step function, as the paper describes it ("piecewise constant"), not the linear
/// interpolation some libraries use: f(s) is the value of the last block whose lower score is
/// <= s (between two blocks the left one's value holds), and the first block's value below it.
/// So every training score maps to its own block's value.
///
///     auto fit = cbo::fit_isotonic({{0.1, 0.2, 0.3, 0.4}, {0, 1, 0, 1}});
///     // blocks: [0.1, 0.1] -> 0, [0.2, 0.3] -> 0.5, [0.4, 0.4] -> 1
///     double p = cbo::isotonic_apply(fit, 0.35);   // 0.5
#include <vector>

#include "schedulers/cbo/calibration_error.hpp"

namespace coinfer::cbo {

struct IsotonicBlock {
  double lower = 0;       ///< smallest training score in the block
  double upper = 0;       ///< largest training score in the block
  double value = 0;       ///< the block's accuracy: f on [lower, next block's lower)
  std::size_t count = 0;  ///< training frames pooled in it
};

struct IsotonicFit {
  std::vector<IsotonicBlock> blocks;  ///< by increasing score and strictly increasing value
};

/// Throws `std::invalid_argument` when `train` is empty or its sizes differ.
IsotonicFit fit_isotonic(const ScoredFrames& train);

/// The step function described above.
double isotonic_apply(const IsotonicFit& fit, double score);

}  // namespace coinfer::cbo
