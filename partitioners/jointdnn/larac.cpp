#include "partitioners/jointdnn/larac.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "partitioners/jointdnn/jointdnn_graph.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

double resource(const Cost& c, int r) { return r == 0 ? c.latency_s : r == 1 ? c.energy_j : c.cloud_time_s; }

Weights unit(int r) {
  Weights w{0.0, 0.0, 0.0};
  w[r] = 1.0;
  return w;
}

/// The one constrained resource (0 latency, 1 energy, 2 cloud time) and its maximum.
struct Constraint {
  int resource = -1;
  double limit = 0.0;
};

Constraint single_constraint(const Problem& p) {
  const std::optional<double> maxima[3] = {p.max_latency_s, p.max_energy_j, p.max_cloud_time_s};
  const char* keys[3] = {"max_latency", "max_energy", "max_cloud_time"};
  Constraint c;
  for (int r = 0; r < 3; ++r) {
    if (!maxima[r]) continue;
    if (c.resource >= 0)
      throw InputError("", keys[r],
                       "jointdnn-larac takes one maximum; use jointdnn-labels or jointdnn-ilp for more");
    c = {r, *maxima[r]};
  }
  return c;
}

}  // namespace

LaracSolution solve_larac(const Problem& problem) {
  const Constraint con = single_constraint(problem);
  const JointDnnGraph graph(problem);
  const int o = problem.objective == Objective::energy ? 1 : 0;
  Solution pc = shortest_path_by_weight(problem, graph, unit(o));
  auto c = [&](const Solution& s) { return resource(s.cost, o); };
  if (pc.feasible) return {pc, c(pc)};  // the unconstrained optimum meets the maximum (or none is set)
  if (con.resource == o) return {Solution{}, 0.0};
  const int r = con.resource;
  auto d = [&](const Solution& s) { return resource(s.cost, r); };
  Solution pd = shortest_path_by_weight(problem, graph, unit(r));
  if (!pd.feasible) return {Solution{}, 0.0};  // even the least d misses the maximum
  double lower = c(pc);                        // lambda = 0
  // LARAC: lambda makes pc and pd equally long under c + lambda d; the shortest path r under that
  // length either ties them (lambda is optimal for the Lagrangian dual: stop) or replaces one of them.
  for (int iter = 0; iter < 200 && d(pd) < d(pc); ++iter) {
    const double lambda = (c(pd) - c(pc)) / (d(pc) - d(pd));
    Weights w{0.0, 0.0, 0.0};
    w[o] += 1.0;
    w[r] += lambda;
    Solution next = shortest_path_by_weight(problem, graph, w);
    const double next_len = c(next) + lambda * d(next);
    const double line = c(pc) + lambda * d(pc);
    lower =
        std::max(lower, next_len - lambda * con.limit);  // L(lambda) = min (c + lambda d) - lambda * limit
    if (next_len >= line - 1e-12 * std::max(1.0, std::fabs(line))) break;
    if (within_limit(d(next), con.limit))
      pd = std::move(next);
    else
      pc = std::move(next);
  }
  lower = std::min(lower, c(pd));
  return {pd, lower};
}

Json larac_to_json(const Problem& problem, const LaracSolution& result) {
  Json out = solution_to_json(problem, result.solution);
  if (!result.solution.feasible) {
    out["lower_bound"] = nullptr;
    out["gap"] = nullptr;
    return out;
  }
  out["lower_bound"] = result.lower_bound;
  out["gap"] = objective_value(problem, result.solution.cost) - result.lower_bound;
  return out;
}

}  // namespace coinfer::jointdnn
