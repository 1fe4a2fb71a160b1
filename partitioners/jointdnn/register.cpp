#include "partitioners/jointdnn/register.hpp"

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/jointdnn_problem.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/larac.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"

namespace coinfer {
namespace {

/// Parse -> solve -> serialise, each step its own function.
template <class Solve>
SolverRegistry::Factory jointdnn_solver(Solve solve) {
  return solver_factory([solve](const Json& json) {
    const auto problem = jointdnn::parse_problem(json);
    return jointdnn::solution_to_json(problem, solve(problem));
  });
}

// Every JointDNN solver reads the same problem JSON.
ParamSchema jointdnn_schema() { return problem_documented_in("partitioners/jointdnn/jointdnn_problem.hpp"); }

}  // namespace

void register_jointdnn_solvers(SolverRegistry& registry) {
  registry.add("jointdnn",
               "JointDNN shortest path over groupings and sides, residual skips (Eshratifar sec. 2.3)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_shortest_path));
  registry.add("jointdnn-ilp", "JointDNN ILP with battery / cloud / QoS maxima, GLPK (Eshratifar sec. 2.4)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_ilp));
  registry.add("jointdnn-labels", "JointDNN with maxima: exact Pareto label setting (faster than the ILP)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_labels));
  registry.add("jointdnn-larac",
               "JointDNN with one maximum: LARAC Lagrangian relaxation, approximate, gap reported",
               jointdnn_schema(), solver_factory([](const Json& json) {
                 const auto problem = jointdnn::parse_problem(json);
                 return jointdnn::larac_to_json(problem, jointdnn::solve_larac(problem));
               }));
  registry.add("neurosurgeon", "best single mobile/cloud split point (the JointDNN baseline)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_neurosurgeon));
}

}  // namespace coinfer
