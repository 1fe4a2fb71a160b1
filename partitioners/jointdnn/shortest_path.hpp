#pragma once
/// `jointdnn`: the optimal schedule as a shortest path on the JointDNN graph ([JointDNN §2.3],
/// Fig. 5-7), residual skips handled by the transformed graph of `JointDnnGraph`.
#include <array>

#include "partitioners/jointdnn/jointdnn_graph.hpp"
#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

/// Weights of (latency, energy, cloud time) in a combined edge length.
using Weights = std::array<double, 3>;

/// The schedule minimising w[0] * latency + w[1] * energy + w[2] * cloud time (w >= 0) on `graph`,
/// ignoring the problem's maxima; `feasible` in the result says whether the maxima hold.
/// Example: `shortest_path_by_weight(p, JointDnnGraph(p), {1.0, 0.0, 0.0})`.
Solution shortest_path_by_weight(const Problem& problem, const JointDnnGraph& graph, const Weights& w);

/// Minimises the problem's objective over all groupings and sides (exact). Unconstrained only:
/// a problem with max_latency / max_energy / max_cloud_time throws `InputError` naming the key and
/// pointing to `jointdnn-labels` or `jointdnn-ilp`. Time O(E) with E = sum over boundaries of
/// states * 2 * remaining layers (O(N^2) for a chain). Example: `solve_shortest_path(parse_problem(j))`.
Solution solve_shortest_path(const Problem& problem);

}  // namespace coinfer::jointdnn
