#pragma once
/// MobiEye's two computation masks for spatial sparsity inference [Mao-PhD §4.5.1], as densities (the
/// fraction of pixels a sparse FlowNet still has to compute).
#include <vector>

#include "sim/video/motion_vectors.hpp"

namespace coinfer::video {

/// Eq. 4.2's brightness-error mask: a pixel is 1 where |B_key - B_cur| >= threshold (luma), else 0.
/// Returns the fraction of pixels set. Throws std::invalid_argument when the planes differ in size.
/// Example: key {10, 10, 10, 10}, cur {10, 25, 40, 24}, threshold 15 -> {0, 1, 1, 0} -> 0.5.
double brightness_error_density(const Plane& key, const Plane& cur, int threshold);

/// The feedback mask: MobiEye keeps the key frame's detection boxes plus a margin (64 px by default) and
/// skips the rest. With no detector, the "boxes" here are the 16x16 macroblocks that moved in the P frames
/// since the key frame (a block moving more than kMovingPx marks every macroblock it overlaps); the set
/// grows with the distance from the key frame, as the paper's mask does. The mask is those macroblocks
/// dilated by the margin (a square neighbourhood, clipped to the frame).
class FeedbackMask {
 public:
  static constexpr int kMacroblockPx = 16;
  /// A block moves when |MV| > 0.5 px: x264 gives static content quarter- and half-pixel vectors (its
  /// sub-pixel refinement matching noise), which would otherwise mark a still scene.
  static constexpr double kMovingPx = 0.5;

  /// A frame of `size`, nothing marked. Example: `FeedbackMask m({640, 480});`.
  explicit FeedbackMask(Size size);

  /// Forgets every mark (at a key frame).
  void clear();
  /// Marks the macroblocks the moving blocks overlap (blocks moving kMovingPx or less mark nothing).
  void add_moving(const std::vector<BlockMotion>& blocks);
  /// Fraction of the frame's pixels within `margin_px` (Chebyshev distance) of a marked macroblock.
  double density(int margin_px) const;
  /// Marked macroblocks.
  int marked() const;

 private:
  Size size_;
  int columns_ = 0, rows_ = 0;
  std::vector<char> marked_;  // rows_ x columns_
};

}  // namespace coinfer::video
