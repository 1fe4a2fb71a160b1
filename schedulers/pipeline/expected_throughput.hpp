#pragma once
/// Expected throughput of a linear pipeline with random link bandwidths, Hu & Krishnamachari
/// [HuK §V, eq. 4-7].
///
/// The computation stages run at a fixed Tp frames per second (the split-dp result); communication
/// stage i carries D_i data units per frame over a link whose bandwidth B_i (data units per second)
/// is an independent Gaussian N(mean_i, stddev_i). The pipeline throughput is
///     T = min(Tp, min_i B_i / D_i)                                   (sec. V a-b)
/// and the solver returns E[T] (eq. 6) and P1 = P(every B_i / D_i > Tp) (eq. 4).
///
/// Negative bandwidth. Eq. 5 integrates tau from -infinity, i.e. the paper keeps the untruncated
/// Gaussian, whose negative draws give negative throughputs. The problem key `bandwidth_model` picks:
///   - "clamped" (default): B_i' = max(0, B_i); a link cannot move negative data, T lies in [0, Tp];
///   - "truncated": B_i conditioned on B_i > 0 (renormalised Gaussian);
///   - "untruncated": eq. 4-6 literally (E[T] can then fall below 0 when P(B_i < 0) is large).
/// The three agree whenever mean_i >> stddev_i (the paper's regime, Fig. 3).
///
/// Method. E[T] is computed from the survival form E[T] = int_0^Tp P(T > x) dx
/// - int_-inf^0 P(T < x) dx with P(T > x) = prod_i P(B_i > D_i x) for x < Tp, which equals eq. 6
/// (P1 Tp + sum_j E(T, j), eq. 5) after integrating eq. 5 by parts, by adaptive Gauss-Kronrod
/// (7, 15) quadrature to 1e-10 relative (1e-6 is the accuracy required). stddev 0 is a point mass.
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// What a normal bandwidth draw below 0 becomes: 0 (clamped), a redraw (truncated: the normal
/// conditioned on B >= 0), or kept as drawn (untruncated, the closed form of eq. 4-7).
enum class BandwidthTail { clamped, truncated, untruncated };

/// One link's bandwidth distribution, data units per second.
struct GaussianBandwidth {
  double mean = 0.0;    ///< >= 0
  double stddev = 0.0;  ///< >= 0; 0 = deterministic
};

/// Problem JSON `{"compute_throughput": Tp, "stage_data": [D_i], "bandwidth": [{"mean", "stddev"}],
/// "bandwidth_model": "clamped"|"truncated"|"untruncated"?}`.
struct ExpectedThroughputProblem {
  double compute_throughput_fps = 0.0;       ///< Tp, > 0
  std::vector<double> stage_data;            ///< D_i, data units per frame, > 0, at least one stage
  std::vector<GaussianBandwidth> bandwidth;  ///< one per stage
  BandwidthTail model = BandwidthTail::clamped;
};

/// Solution JSON `{"expected_throughput": E[T], "p_compute_bound": P1}`.
struct ExpectedThroughputSolution {
  double expected_throughput_fps = 0.0;
  double p_compute_bound = 0.0;
};

/// Reads and validates a problem; throws `InputError` naming the JSON path
/// (`bandwidth[1].stddev: expected a number >= 0, got -2`).
ExpectedThroughputProblem parse_expected_throughput_problem(const Json& problem);

/// P(B / D > throughput_fps) under `model`: the survival function of one stage's throughput.
/// Example: stage_survival({10, 0}, 2, 4, BandwidthTail::clamped) == 1 (10 / 2 = 5 > 4).
double stage_survival(const GaussianBandwidth& bandwidth, double stage_data, double throughput_fps,
                      BandwidthTail model);

/// Eq. 4 and eq. 6. Never throws on a problem from `parse_expected_throughput_problem`.
///
///     solve_expected_throughput({10, {1}, {{10, 0}}});   // {10, 0}: B / D = 10 ties Tp (eq. 4 is strict)
ExpectedThroughputSolution solve_expected_throughput(const ExpectedThroughputProblem& problem);

Json expected_throughput_solution_to_json(const ExpectedThroughputSolution& solution);

/// parse -> solve -> JSON; the `pipeline-expected` solver.
Json solve_expected_throughput_json(const Json& problem);

}  // namespace coinfer
