#pragma once
/// Split-point dynamic programme of Hu & Krishnamachari ([HuK
/// §IV-A, eq. 2]): cut a chain of m layers into n consecutive, non-empty stages, one per device
/// of a linear pipeline (devices in the given order), so that the slowest computation stage is as
/// fast as possible. Communication is ignored here (eq. 2 assumes it is not the bottleneck).
///
/// Split convention (the paper's S = {s_1, .., s_{n-1}}): `splits` holds the n-1 internal cut
/// points s_1 < s_2 < .. < s_{n-1}, as 1-based layer indices; s_0 = 0 and s_n = m are implicit and
/// NOT stored. Device i (1-based) runs layers s_{i-1}+1 .. s_i, so in 0-based C++ terms device d
/// runs layers (d == 0 ? 1 : splits[d-1] + 1) .. (d == n-1 ? m : splits[d]). Example: m = 5, n = 3,
/// splits = {2, 4}: device 1 runs layers 1-2, device 2 runs 3-4, device 3 runs layer 5.
///
/// Units: `layer_ops` and `device_speeds` share one unit of work (e.g. MACs and MACs per second);
/// throughputs are then frames per second.
#include <cstddef>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Problem JSON `{"layer_ops": [m numbers], "device_speeds": [n numbers]}`, every speed in
/// [1e-30, 1e30], every op count 0 or in [1e-30, 1e30] with at least one > 0 (so the bottleneck
/// throughput is finite and > 0), 1 <= m <= 4096, 1 <= n <= 256. A layer with no MACs (pooling,
/// activation, residual add) is a real layer with 0 ops; a stage made only of such layers has an
/// unbounded (infinite) throughput, never the bottleneck.
struct SplitDpProblem {
  std::vector<double> layer_ops;      ///< entry j-1 = ops of layer j (work units per frame), >= 0
  std::vector<double> device_speeds;  ///< C_i, work units per second, > 0, in pipeline order
};

/// Solution JSON `{"feasible", "splits", "throughput", "stage_throughputs"}`; a stage without ops
/// has throughput infinity in the struct and null in `stage_throughputs`.
/// Infeasible (n > m: some device would get no layer) gives feasible = false, splits = [],
/// stage_throughputs = [] and throughput = null in JSON (0 in the struct).
struct SplitDpSolution {
  bool feasible = false;
  std::vector<std::size_t> splits;        ///< s_1 .. s_{n-1}, 1-based, strictly increasing
  double throughput_fps = 0.0;            ///< min_i C_i / ops(stage i), maximised (eq. 2)
  std::vector<double> stage_throughputs;  ///< C_i / ops(stage i) per device, frames per second
};

/// Reads and validates a problem; throws `InputError` naming the JSON path
/// (`layer_ops[3]: expected a number > 0, got -1`, `device_speeds: expected at least 1 entry`).
SplitDpProblem parse_split_dp_problem(const Json& problem);

/// Solves eq. 2 exactly in O(m^2 n) time and O(m n) memory; ties between optimal splits are
/// broken towards the smallest cut point. Never throws on a problem from `parse_split_dp_problem`.
///
///     auto s = solve_split_dp({{1, 2, 3, 4}, {1, 1}});   // splits {3}: stages 6 and 4 ops
SplitDpSolution solve_split_dp(const SplitDpProblem& problem);

/// Throughput of each stage for a given split (no validation beyond assertions).
std::vector<double> split_stage_throughputs(const SplitDpProblem& problem,
                                            const std::vector<std::size_t>& splits);

Json split_dp_solution_to_json(const SplitDpSolution& solution);

/// parse -> solve -> JSON; the `split-dp` solver.
Json solve_split_dp_json(const Json& problem);

}  // namespace coinfer
