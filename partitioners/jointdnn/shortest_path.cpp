#include "partitioners/jointdnn/shortest_path.hpp"

#include <limits>

#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

struct Pred {
  int from = -1;  // previous boundary; the group is [from + 1 .. this boundary]
  std::size_t code = 0;
  Side on = Side::mobile;
};

void reject_limits(const Problem& p) {
  const char* key = p.max_latency_s ? "max_latency" : p.max_energy_j ? "max_energy" : "max_cloud_time";
  throw InputError(
      "", key, "jointdnn solves the unconstrained problem; use jointdnn-labels or jointdnn-ilp for maxima");
}

}  // namespace

Solution shortest_path_by_weight(const Problem& problem, const JointDnnGraph& graph, const Weights& w) {
  const int n = problem.layers;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> dist(n + 1);
  std::vector<std::vector<Pred>> pred(n + 1);
  for (int j = 0; j <= n; ++j) {
    dist[j].assign(graph.states(j), kInf);
    pred[j].resize(graph.states(j));
  }
  dist[0][0] = 0.0;  // start: nothing run, the input on the mobile
  std::vector<Edge> edges;
  // Nodes are visited in topological order (boundary increasing): DAG relaxation.
  for (int j = 0; j < n; ++j) {
    for (std::size_t code = 0; code < dist[j].size(); ++code) {
      if (dist[j][code] == kInf) continue;
      graph.edges_from(j, code, edges);
      for (const auto& e : edges) {
        const double d =
            dist[j][code] + w[0] * e.cost.latency_s + w[1] * e.cost.energy_j + w[2] * e.cost.cloud_time_s;
        if (d < dist[e.last][e.to_code]) {
          dist[e.last][e.to_code] = d;
          pred[e.last][e.to_code] = {j, code, e.on};
        }
      }
    }
  }
  std::size_t best = 0;
  for (std::size_t code = 1; code < dist[n].size(); ++code)
    if (dist[n][code] < dist[n][best]) best = code;
  if (dist[n][best] == kInf) throw Error("jointdnn: no path reached the last layer");  // invariant
  std::vector<Group> groups;
  for (int j = n; j > 0;) {
    const Pred& p = pred[j][best];
    groups.insert(groups.begin(), Group{p.from + 1, j, p.on});
    best = p.code;
    j = p.from;
  }
  return make_solution(problem, std::move(groups));
}

Solution solve_shortest_path(const Problem& problem) {
  if (problem.has_limits()) reject_limits(problem);
  const Weights w = problem.objective == Objective::energy ? Weights{0, 1, 0} : Weights{1, 0, 0};
  return shortest_path_by_weight(problem, JointDnnGraph(problem), w);
}

}  // namespace coinfer::jointdnn
