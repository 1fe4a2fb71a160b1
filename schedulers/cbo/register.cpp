#include "schedulers/cbo/register.hpp"

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/cbo_optimal.hpp"

namespace coinfer {

void register_cbo_solvers(SolverRegistry& registry) {
  registry.add("cbo-optimal", "Tan & Cao sec. IV-C: offline optimum by solution-graph DP with dominance",
               problem_documented_in("schedulers/cbo/cbo_problem.hpp"),
               solver_factory([](const Json& problem) { return cbo::solve_optimal_json(problem); }));
  registry.add("cbo-online", "Tan & Cao Algorithm 1: confidence threshold and resolution by (t, A) DP",
               problem_documented_in("schedulers/cbo/cbo_problem.hpp"),
               solver_factory([](const Json& problem) { return cbo::solve_online_json(problem); }));
}

}  // namespace coinfer
