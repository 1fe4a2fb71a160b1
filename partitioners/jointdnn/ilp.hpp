#pragma once
/// `jointdnn-ilp`: the integer program of [JointDNN §2.4] (group variables m_{i,j}, c_{i,j},
/// eq. 5 coverage, battery eq. 18, cloud eq. 19 and QoS eq. 20 constraints), solved with GLPK.
#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

/// Exact MIP over the semantics of jointdnn_problem.hpp, including skips and the maxima; GLPK's
/// terminal output is silenced. Returns an infeasible solution when no schedule meets the maxima;
/// throws `Error` when GLPK fails. Example: `solve_ilp(parse_problem(Json::parse(text)))`.
Solution solve_ilp(const Problem& problem);

}  // namespace coinfer::jointdnn
