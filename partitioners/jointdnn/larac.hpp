#pragma once
/// `jointdnn-larac`: the LARAC Lagrangian relaxation (Juttner et al., cited as [20] in [JointDNN
/// §2.3]) for one maximum, on the JointDNN graph. Approximate: it returns a schedule that meets
/// the maximum and a lower bound on the optimum, so the gap is known.
#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

struct LaracSolution {
  Solution solution;
  double lower_bound = 0.0;  ///< <= the constrained optimum of the objective
};

/// Minimises the objective subject to at most one of max_latency / max_energy / max_cloud_time
/// (a second maximum throws `InputError` naming it). Feasibility is exact (the schedule with the
/// least constrained resource is tried); the objective may exceed the optimum by at most
/// `solution objective - lower_bound`. Example: `solve_larac(problem).lower_bound`.
LaracSolution solve_larac(const Problem& problem);

/// `solution_to_json` plus "lower_bound" and "gap" (objective - lower_bound, objective units;
/// null when infeasible).
Json larac_to_json(const Problem& problem, const LaracSolution& result);

}  // namespace coinfer::jointdnn
