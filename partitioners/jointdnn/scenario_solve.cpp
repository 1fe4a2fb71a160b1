// Solving a scenario's JointDNN problem (scenario_problem.hpp: solve_scenario_problem): the
// solver the setup names, the radio's wake-up, and the message when no schedule meets the maxima.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/jointdnn_graph.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/scenario_problem.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

bool uses_cloud(const Solution& s) {
  return std::any_of(s.groups.begin(), s.groups.end(), [](const Group& g) { return g.on == Side::cloud; });
}

/// The better feasible one of the all-on-one-side schedules on `sides` (infeasible when none meets
/// the maxima).
Solution one_side(const Problem& p, std::initializer_list<Side> sides) {
  Solution best;
  for (Side side : sides) {
    Solution s = make_solution(p, {{1, p.layers, side}});
    if (s.feasible && (!best.feasible || objective_value(p, s.cost) < objective_value(p, best.cost)))
      best = std::move(s);
  }
  return best;
}

}  // namespace

Solution solve_automatic(const Problem& p) {
  if (most_open_skips(p) > kMaxOpenSkips) return solve_ilp(p);
  return p.has_limits() ? solve_labels(p) : solve_shortest_path(p);
}

namespace {

Solution run_core(const Problem& p, SolverChoice solver) {
  switch (solver) {
    case SolverChoice::automatic:
      return solve_automatic(p);
    case SolverChoice::shortest_path:
      return solve_shortest_path(p);
    case SolverChoice::labels:
      return solve_labels(p);
    case SolverChoice::ilp:
      return solve_ilp(p);
    case SolverChoice::neurosurgeon:
      return solve_neurosurgeon(p);
    case SolverChoice::status_quo:
      return one_side(p, {Side::mobile, Side::cloud});
    case SolverChoice::mobile_only:
      return one_side(p, {Side::mobile});
    case SolverChoice::cloud_only:
      return one_side(p, {Side::cloud});
  }
  return {};
}

/// Exact optimum with one wake-up W per cloud-using schedule: the best cloud-using schedule is
/// the best schedule of the problem with max_latency tightened by W (plus W), unless that
/// problem's best schedule stays on the mobile, which is then optimal as it is.
Solution solve_with_wake_up(const ScenarioProblem& sp, SolverChoice solver) {
  const Problem& p = sp.problem;
  const double w = sp.wake_up_s;
  if (w <= 0.0) return run_core(p, solver);
  Solution mobile_only = make_solution(p, {{1, p.layers, Side::mobile}});
  Problem tight = p;
  if (tight.max_latency_s) {
    if (*tight.max_latency_s < w) return mobile_only;
    *tight.max_latency_s -= w;
  }
  Solution best = run_core(tight, solver);
  if (!best.feasible) return mobile_only;
  if (!uses_cloud(best)) return make_solution(p, best.groups);
  best.cost.latency_s += w;
  if (mobile_only.feasible && objective_value(p, mobile_only.cost) <= objective_value(p, best.cost))
    return mobile_only;
  return best;
}

Solution solve_guarded(const ScenarioProblem& sp, SolverChoice solver) {
  try {
    return solve_with_wake_up(sp, solver);
  } catch (const InputError& e) {
    // e.g. too many overlapping skips for the JointDNN graph (`skips`): only the ILP has no limit.
    throw InputError("", "partitioner.solver", fmt::format("{}: {}", e.path(), e.message()));
  }
}

std::string infeasible_message(const ScenarioProblem& sp, SolverChoice solver) {
  // The best achievable value within the solver's own schedules (one split, one side, or any).
  const SolverChoice free_solver = solver == SolverChoice::neurosurgeon || solver >= SolverChoice::status_quo
                                       ? solver
                                       : SolverChoice::automatic;
  ScenarioProblem open = sp;
  open.problem.max_latency_s.reset();
  open.problem.max_energy_j.reset();
  open.problem.max_cloud_time_s.reset();
  open.problem.objective = Objective::latency;
  const double best_latency_s = solve_guarded(open, free_solver).cost.latency_s;
  open.problem.objective = Objective::energy;
  const double best_energy_j = solve_guarded(open, free_solver).cost.energy_j;
  const Problem& p = sp.problem;
  if (p.max_latency_s && !within_limit(best_latency_s, *p.max_latency_s))
    return fmt::format("max_latency_s: no schedule meets {:.6g} s; the best latency is {:.6g} s",
                       *p.max_latency_s, best_latency_s);
  if (p.max_energy_j && !within_limit(best_energy_j, *p.max_energy_j))
    return fmt::format("max_energy_j: no schedule meets {:.6g} J; the best mobile energy is {:.6g} J",
                       *p.max_energy_j, best_energy_j);
  return fmt::format(
      "the maxima cannot be met together (alone, the best latency is {:.6g} s, the best mobile "
      "energy {:.6g} J, the least cloud time 0 s)",
      best_latency_s, best_energy_j);
}

}  // namespace

Solution solve_scenario_problem(const ScenarioProblem& sp, SolverChoice solver) {
  if (solver == SolverChoice::shortest_path && sp.problem.has_limits())
    throw param_error("solver",
                      "shortest-path takes no max_latency_s / max_energy_j / max_cloud_time_s; use "
                      "labels, ilp or auto");
  Solution s = solve_guarded(sp, solver);
  if (!s.feasible) {
    const auto message = infeasible_message(sp, solver);
    const auto colon = message.find(':');
    if (message.rfind("max_", 0) == 0)
      throw param_error(message.substr(0, colon).c_str(), message.substr(colon + 2));
    throw InputError("", "partitioner", message);
  }
  return s;
}

}  // namespace coinfer::jointdnn
