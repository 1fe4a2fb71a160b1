#pragma once
/// Expected effective accuracy of a pipeline with adaptive compression at one split point, Hu &
/// Krishnamachari [HuK §V-f]: eq. 4-7 made piecewise over the
/// bandwidth thresholds Theta of eq. 3.
///
/// Stage `stage` carries D_s uncompressed; with ratio gamma_k it sends D_s / gamma_k and the frames it
/// passes have accuracy nu_k. Algorithm 2 picks, for the bandwidth b measured at that stage, the ratio
/// maximising nu_k * min(Tp, b * gamma_k / D_s) (`select_ratio_index` of thresholds.hpp; the
/// thresholds of eq. 3 when they increase), so the bandwidth axis splits into regions R_k. Then
///     E[nu T] = sum_k nu_k int_0^Tp P(B_s gamma_k / D_s > x, B_s in R_k) prod_{i != s} P(B_i / D_i > x) dx
/// (the survival form of eq. 5-6 restricted to each region), and E[nu_eff] = E[nu T] / T_gen. The
/// chosen ratio holds for the whole coherence period (the paper's slowly varying bandwidth).
///
/// Problem JSON: the `pipeline-expected` problem (stage_data uncompressed; bandwidth_model clamped or
/// truncated) plus `"adaptive": {"stage": 0, "ratios": [8, 4, 2, 1], "accuracies": [0.877, 0.885,
/// 0.892, 0.902]}` (ratios strictly descending, accuracies in [0, 1], as `pipeline-thresholds`).
/// Solution JSON: `{"expected_throughput", "expected_accurate_throughput", "regions": [{"from",
/// "to" (null: no upper end), "ratio"}]}`.
#include <cstddef>
#include <vector>

#include "schedulers/pipeline/expected_throughput.hpp"

namespace coinfer {

struct AdaptiveExpectationProblem {
  ExpectedThroughputProblem pipeline;  ///< stage_data uncompressed at `stage`
  std::size_t stage = 0;               ///< 0-based index into stage_data
  std::vector<double> ratios;          ///< gamma, strictly descending, >= 1
  std::vector<double> accuracies;      ///< nu per ratio, in [0, 1]
};

/// One bandwidth region [from, to) and the ratio Algorithm 2 uses there.
struct AdaptiveRegion {
  double from = 0.0;
  double to = 0.0;  ///< infinity for the last region
  double ratio = 1.0;
  double accuracy = 0.0;
};

struct AdaptiveExpectationSolution {
  double expected_throughput_fps = 0.0;           ///< E[T]
  double expected_accurate_throughput_fps = 0.0;  ///< E[nu T]: correctly classified frames per second
  std::vector<AdaptiveRegion> regions;
};

/// Throws `InputError` naming the JSON path (`adaptive.ratios[1]: ...`, `adaptive.stage: ...`).
AdaptiveExpectationProblem parse_adaptive_expectation_problem(const Json& problem);

/// The regions of Algorithm 2's choice over the bandwidth of the adaptive stage.
std::vector<AdaptiveRegion> adaptive_regions(const AdaptiveExpectationProblem& problem);

///     solve_adaptive_expectation(p).expected_accurate_throughput_fps / t_gen   // E[nu_eff]
AdaptiveExpectationSolution solve_adaptive_expectation(const AdaptiveExpectationProblem& problem);

/// parse -> solve -> JSON; the `pipeline-expected-adaptive` solver.
Json solve_adaptive_expectation_json(const Json& problem);

}  // namespace coinfer
