#pragma once
/// `jointdnn-labels`: the constrained problem (max_latency / max_energy / max_cloud_time, [JointDNN
/// §2.4.5]) solved exactly by label setting on the JointDNN graph, as a faster alternative to
/// the ILP. Ours, not the paper's.
#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

/// Exact constrained shortest path: every node of the (acyclic) JointDNN graph keeps the Pareto
/// set of its labels over (objective, each constrained resource); a label is dropped when another
/// label at the node is no worse in all of them, or when it cannot meet a maximum even with the
/// cheapest possible completion (backward shortest-path bounds). Nodes are finalised in
/// topological order. Without maxima it is the plain shortest path. Worst case exponential (the
/// problem is NP-hard, sec. 2.3), fast on profiled networks. Example: `solve_labels(problem)`.
Solution solve_labels(const Problem& problem);

}  // namespace coinfer::jointdnn
