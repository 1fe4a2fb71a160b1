#pragma once
/// `cbo-optimal`: the offline optimum of the CBO problem (Tan & Cao, sec. IV-B objective (1) and
/// constraint (2)), found with the solution-graph dynamic programme of sec. IV-C.
///
/// Frames are processed in arrival order (the input must list them with non-decreasing arrivals;
/// decisions are reported by input index). Each frame is kept local (accuracy local_accuracy) or
/// offloaded at one resolution r (accuracy server_accuracy[r]); every offloaded frame must be on
/// time under the timing rule of cbo_problem.hpp. The solver maximises the mean accuracy.
///
/// Like the paper, this solver ignores the threshold constraints (3)-(4): the solution graph of
/// sec. IV-C lets every frame take any of its m + 1 nodes, so the optimum need not offload exactly
/// the frames below one confidence threshold (that is what makes it an upper bound for CBO).
///
/// Differences from the paper's text, none of which changes the optimum:
/// - The paper keeps a set of efficient paths per node V_i^r; a path's future depends only on its
///   (time, cost) pair, not on the node it ends in, so one Pareto front per level is kept.
/// - Sec. IV-C calls a path more efficient only when it is strictly earlier and strictly cheaper;
///   we drop a label when another is no later and no less accurate (Algorithm 1's rule), which
///   keeps one representative of equal labels.
/// - The paper's edge cost c(V^npu_i, .) = A^npu lacks the minus sign of c(V^r_i, .) = -A^o_r; we
///   maximise accuracy directly.
/// - A label's time is raised to the earliest arrival of the frames still to come that can still
///   be offloaded on time (an uplink idle until then is as good as one free exactly then; after
///   the last such frame, to +inf), which merges labels without changing the optimum.
/// - Timing follows the rule of cbo_problem.hpp (one upload at a time from max(arrival, end of the
///   previous upload, uplink_free_at); a frame is on time iff upload end + server time + latency <=
///   arrival + deadline), not the window of sec. IV-C.
#include <cstddef>
#include <vector>

#include "schedulers/cbo/cbo_problem.hpp"

namespace coinfer::cbo {

struct OptimalSolution {
  std::vector<int> decisions;  ///< per input frame: kLocal (-1) or a resolution index
  double accuracy = 0;         ///< mean accuracy over all frames (objective (1))
  std::size_t peak_front = 0;  ///< largest Pareto front (diagnostics, not serialised)
};

/// Solves `problem` exactly. Throws `InputError` (`frames[i].arrival`) when arrivals decrease.
///
///     auto s = cbo::solve_optimal(cbo::parse_problem(json));   // s.decisions, s.accuracy
OptimalSolution solve_optimal(const Problem& problem);

/// `{"decisions": [...], "accuracy": mean}`.
Json to_json(const OptimalSolution& solution);

/// The registered solver: parse, validate, solve, serialise. Throws `InputError`.
Json solve_optimal_json(const Json& problem);

}  // namespace coinfer::cbo
