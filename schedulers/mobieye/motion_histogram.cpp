#include "schedulers/mobieye/motion_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace coinfer::mobieye {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size(), mid = n / 2;
  return n % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

MotionSummary summarize_motion(const VideoTrace& trace) {
  std::vector<double> motion;
  for (const auto& f : trace.frames)
    if (f.type == 'P') motion.push_back(f.motion_px);
  MotionSummary out;
  out.fraction_by_bin.assign(kMotionBins, 0.0);
  out.frames = motion.size();
  if (motion.empty()) {
    out.mean = out.median = std::nan("");
    return out;
  }
  std::vector<std::size_t> in_bin(kMotionBins, 0);
  std::size_t below_1 = 0, above_9 = 0;
  for (double m : motion) {
    // Unit bins [b, b + 1) for b = 0..9, the last one open: Fig. 4.12(a) is truncated at 10.
    // Clamped before the conversion: a motion past size_t's range would not convert.
    const double last = static_cast<double>(kMotionBins - 1);
    ++in_bin[static_cast<std::size_t>(std::min(std::floor(m), last))];
    below_1 += m < 1 ? 1 : 0;
    above_9 += m > 9 ? 1 : 0;
  }
  const auto n = static_cast<double>(motion.size());
  for (std::size_t b = 0; b < kMotionBins; ++b) out.fraction_by_bin[b] = static_cast<double>(in_bin[b]) / n;
  out.below_1 = static_cast<double>(below_1) / n;
  out.above_9 = static_cast<double>(above_9) / n;
  out.mean = std::accumulate(motion.begin(), motion.end(), 0.0) / n;
  out.median = median_of(motion);
  return out;
}

}  // namespace coinfer::mobieye
