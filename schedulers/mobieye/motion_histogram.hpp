#pragma once
/// The motion histogram of Fig. 4.12(a) [Mao-PhD §4.6.1]: mean motion-vector magnitude per P frame,
/// in unit bins truncated at 10, with the summary numbers the text quotes (share below 1 and above 9,
/// mean, median).
#include <cstddef>
#include <vector>

#include "schedulers/mobieye/video_trace.hpp"

namespace coinfer::mobieye {

/// Bins of fraction_by_bin: [0,1), [1,2), ..., [9,10), then >= 10.
inline constexpr std::size_t kMotionBins = 11;

struct MotionSummary {
  std::vector<double> fraction_by_bin;  ///< kMotionBins fractions of the P frames, summing to 1
  double below_1 = 0;                   ///< fraction with motion < 1 px
  double above_9 = 0;                   ///< fraction with motion > 9 px
  double mean = 0;                      ///< px; NaN without P frames
  double median = 0;       ///< px (mean of the middle two for an even count); NaN without P frames
  std::size_t frames = 0;  ///< P frames counted
};

/// Over the P frames' motion_px (I frames skipped). Example: P motions {0.5, 2, 12} -> bins 0, 2
/// and 10 hold 1/3 each, below_1 = above_9 = 1/3, mean 4.833..., median 2.
MotionSummary summarize_motion(const VideoTrace& trace);

}  // namespace coinfer::mobieye
