#pragma once
/// Calibration error of confidence scores, as Tan & Cao define it in [CBO §III-B],
/// over 10 equal-width bins:
///
///     ECE = sum_{i=1..10} |B_i| / n * |A(B_i) - C(B_i)|
///     MCE = max_{i=1..10} |A(B_i) - C(B_i)|
///
/// where A(B_i) is the fraction of correct frames in bin B_i and C(B_i) their mean confidence.
/// Bin edges: the paper says only "0 to 0.1"; we follow its ref. [13] (Guo et al. 2017),
/// B_i = ((i-1)/10, i/10], with a confidence of exactly 0 in B_1. The edges are compared as
/// doubles (0.3 is in B_3 = (0.2, 0.3], not B_4). An empty bin adds nothing to ECE and is left
/// out of MCE's max (|A - C| is undefined there); with no frames at all both are 0.
///
///     ScoredFrames f{{0.95, 0.15}, {1, 0}};
///     double e = expected_calibration_error(reliability_bins(f));   // (0.05 + 0.15) / 2 = 0.1
#include <cstddef>
#include <cstdint>
#include <vector>

namespace coinfer::cbo {

/// Frames with a confidence in [0, 1] and whether the answer was right (1) or not (0); optionally
/// (both or neither) each frame's feature vector (the local model's output per class) and true class.
struct ScoredFrames {
  std::vector<double> confidence;
  std::vector<char> correct;
  std::vector<std::vector<double>> scores{};  ///< per frame, or empty
  std::vector<std::int64_t> labels{};         ///< per frame, or empty

  bool has_feature_vectors() const { return !scores.empty(); }

  std::size_t size() const { return confidence.size(); }
};

/// One bin of a reliability diagram.
struct ReliabilityBin {
  double lower = 0;  ///< the bin is (lower, upper] (B_1 also holds 0)
  double upper = 0;
  std::size_t count = 0;       ///< |B_i|
  double mean_confidence = 0;  ///< C(B_i); 0 when empty
  double accuracy = 0;         ///< A(B_i); 0 when empty
};

inline constexpr std::size_t kCalibrationBins = 10;

/// The frames at `rows` (indices into `frames`), in that order.
ScoredFrames select_rows(const ScoredFrames& frames, const std::vector<std::size_t>& rows);
/// The frames [begin, end) of `frames` (begin <= end <= frames.size()).
ScoredFrames slice(const ScoredFrames& frames, std::size_t begin, std::size_t end);

/// The bin index (0-based) of a confidence in [0, 1]: the i with i/10 < c <= (i+1)/10, 0 for c = 0.
std::size_t calibration_bin(double confidence);

/// The 10 bins of `frames` (sizes of confidence and correct must match: `std::invalid_argument`).
std::vector<ReliabilityBin> reliability_bins(const ScoredFrames& frames);

/// ECE over the bins (weights |B_i| / n).
double expected_calibration_error(const std::vector<ReliabilityBin>& bins);
/// MCE over the non-empty bins.
double maximum_calibration_error(const std::vector<ReliabilityBin>& bins);

}  // namespace coinfer::cbo
