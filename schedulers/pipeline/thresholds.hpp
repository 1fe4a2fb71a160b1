#pragma once
/// Bandwidth thresholds for adaptive communication compression, Hu & Krishnamachari
/// [HuK §IV-D, eq. 3 and Algorithm 2].
///
/// One communication stage carries D data units per frame uncompressed (e.g. megabits). A compressor
/// with ratio gamma = original size / compressed size (the paper's gamma_i = data(s_i) / size(M_i),
/// so gamma = 1 is "no compressor" and Table I uses 2, 4, 8) sends D / gamma per frame, so at
/// bandwidth b (data units per second) the pipeline runs at min(Tp, b * gamma / D) frames per second
/// and, with pre-trained accuracy nu, classifies nu * min(Tp, b * gamma / D) frames per second
/// correctly (the effective accuracy of sec. III times T_gen, under the paper's simplifications:
/// one bottleneck communication stage and T_gen >= Tp).
///
/// Ratios are given strictly descending (most compressed first), so thresholds increase with
/// bandwidth in the usual case: below thresholds[k] ratios[k] is at least as good as ratios[k+1];
/// above it ratios[k+1] is strictly better.
#include <cstddef>
#include <optional>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Problem JSON `{"compute_throughput": Tp, "stage_data": D, "ratios": [gamma..], "accuracies": [nu..]}`.
struct ThresholdProblem {
  double compute_throughput_fps = 0.0;  ///< Tp, frames per second, > 0
  double stage_data = 0.0;              ///< D, uncompressed data units per frame, > 0
  std::vector<double> ratios;           ///< gamma >= 1, strictly descending
  std::vector<double> accuracies;       ///< nu in [0, 1], one per ratio
};

/// `thresholds[k]` separates ratios[k] and ratios[k+1] (bandwidth in data units per second);
/// nullopt (JSON null) means ratios[k+1] is never better (nu[k+1] <= nu[k]): an infinite threshold.
struct ThresholdSolution {
  std::vector<std::optional<double>> thresholds;
};

/// Reads and validates a problem; throws `InputError` naming the JSON path
/// (`ratios[2]: expected ratios strictly descending, got 4 after 4`).
ThresholdProblem parse_threshold_problem(const Json& problem);

/// Correctly classified frames per second with compressor `ratio` and accuracy `accuracy` at
/// bandwidth `bandwidth`: accuracy * min(Tp, bandwidth * ratio / D).
double effective_throughput(double compute_throughput_fps, double stage_data, double ratio, double accuracy,
                            double bandwidth);

/// The eq. 3 threshold between a more compressed `left` (gamma_l > gamma_r) and a less compressed
/// `right` compressor: the bandwidth above which right gives strictly more correct frames per second.
/// Returns 0 when right is better at every positive bandwidth and nullopt when it never is.
///
///     ratio_threshold(10, 1, 8, 0.877, 4, 0.885);   // 10 * 1 * 0.877 / (4 * 0.885) = 2.4774
std::optional<double> ratio_threshold(double compute_throughput_fps, double stage_data, double left_ratio,
                                      double left_accuracy, double right_ratio, double right_accuracy);

/// Thresholds between all neighbouring ratios.
ThresholdSolution solve_thresholds(const ThresholdProblem& problem);

/// Algorithm 2 line 4 without relying on monotone thresholds: the index of the ratio maximising
/// effective_throughput at `bandwidth` (ties go to the more compressed, lower index).
std::size_t select_ratio_index(const ThresholdProblem& problem, double bandwidth);

Json threshold_solution_to_json(const ThresholdSolution& solution);

/// parse -> solve -> JSON; the `pipeline-thresholds` solver.
Json solve_thresholds_json(const Json& problem);

}  // namespace coinfer
