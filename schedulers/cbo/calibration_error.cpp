#include "schedulers/cbo/calibration_error.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace coinfer::cbo {
namespace {

double upper_edge(std::size_t i) { return static_cast<double>(i + 1) / kCalibrationBins; }

}  // namespace

ScoredFrames select_rows(const ScoredFrames& frames, const std::vector<std::size_t>& rows) {
  ScoredFrames out;
  for (const std::size_t r : rows) {
    out.confidence.push_back(frames.confidence[r]);
    out.correct.push_back(frames.correct[r]);
    if (frames.has_feature_vectors()) {
      out.scores.push_back(frames.scores[r]);
      out.labels.push_back(frames.labels[r]);
    }
  }
  return out;
}

ScoredFrames slice(const ScoredFrames& frames, std::size_t begin, std::size_t end) {
  const auto range = [&](const auto& v) {
    using Column = std::decay_t<decltype(v)>;
    return v.empty() ? Column{} : Column(v.begin() + std::ptrdiff_t(begin), v.begin() + std::ptrdiff_t(end));
  };
  return {range(frames.confidence), range(frames.correct), range(frames.scores), range(frames.labels)};
}

std::size_t calibration_bin(double confidence) {
  // A first guess from ceil(10 c) - 1, then corrected against the edges as doubles: 10 * 0.3 is
  // 3.0000000000000004, whose ceil would put 0.3 one bin too high.
  const double guess = std::ceil(confidence * kCalibrationBins) - 1;
  std::size_t i =
      guess <= 0 ? 0 : std::min<std::size_t>(static_cast<std::size_t>(guess), kCalibrationBins - 1);
  while (i > 0 && confidence <= upper_edge(i - 1)) --i;
  while (i + 1 < kCalibrationBins && confidence > upper_edge(i)) ++i;
  return i;
}

std::vector<ReliabilityBin> reliability_bins(const ScoredFrames& frames) {
  if (frames.confidence.size() != frames.correct.size())
    throw std::invalid_argument("reliability_bins: confidence and correct differ in size");
  std::vector<ReliabilityBin> bins(kCalibrationBins);
  std::vector<double> confidence_sum(kCalibrationBins, 0.0), correct_sum(kCalibrationBins, 0.0);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const std::size_t i = calibration_bin(frames.confidence[k]);
    ++bins[i].count;
    confidence_sum[i] += frames.confidence[k];
    correct_sum[i] += frames.correct[k] ? 1.0 : 0.0;
  }
  for (std::size_t i = 0; i < kCalibrationBins; ++i) {
    bins[i].lower = static_cast<double>(i) / kCalibrationBins;
    bins[i].upper = upper_edge(i);
    if (bins[i].count == 0) continue;
    bins[i].mean_confidence = confidence_sum[i] / static_cast<double>(bins[i].count);
    bins[i].accuracy = correct_sum[i] / static_cast<double>(bins[i].count);
  }
  return bins;
}

double expected_calibration_error(const std::vector<ReliabilityBin>& bins) {
  std::size_t n = 0;
  for (const auto& b : bins) n += b.count;
  if (n == 0) return 0.0;
  double ece = 0.0;
  for (const auto& b : bins)
    ece += static_cast<double>(b.count) / static_cast<double>(n) * std::abs(b.accuracy - b.mean_confidence);
  return ece;
}

double maximum_calibration_error(const std::vector<ReliabilityBin>& bins) {
  double mce = 0.0;
  for (const auto& b : bins)
    if (b.count > 0) mce = std::max(mce, std::abs(b.accuracy - b.mean_confidence));
  return mce;
}

}  // namespace coinfer::cbo
