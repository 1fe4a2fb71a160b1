#include "partitioners/modnn/register.hpp"

#include "partitioners/modnn/bodp.hpp"
#include "partitioners/modnn/fc_1d.hpp"
#include "partitioners/modnn/fgcp.hpp"
#include "partitioners/modnn/grid2d.hpp"
#include "partitioners/modnn/mscc.hpp"

namespace coinfer {

void register_modnn_solvers(SolverRegistry& registry) {
  registry.add("bodp", "MoDNN biased one-dimensional partition of a conv layer (Mao sec. 4.2, eq. 4.1)",
               problem_documented_in("partitioners/modnn/bodp.hpp"),
               solver_factory([](const Json& p) { return modnn::solve_bodp_json(p); }));
  registry.add("grid2d",
               "2-D grid partition of a conv layer, the baseline of MoDNN (Coates et al.; Mao sec. 4.1)",
               problem_documented_in("partitioners/modnn/grid2d.hpp"),
               solver_factory([](const Json& p) { return modnn::solve_grid2d_json(p); }));
  registry.add("fc-1d",
               "1-D split of an FC weight matrix along its longer side, MoDNN's baseline (Mao sec. 7.3)",
               problem_documented_in("partitioners/modnn/fc_1d.hpp"),
               solver_factory([](const Json& p) { return modnn::solve_fc_1d_json(p); }));
  // mscc and fgcp read a problem's `matrix_file` (a Matrix Market file) relative to the working
  // directory, so a caller that has the problem file rebases `*_file` keys onto its folder first.
  registry.add("mscc",
               "MoDNN modified spectral co-clustering of a sparse FC layer (Mao sec. 5.2; Dhillon 2001)",
               problem_documented_in("partitioners/modnn/mscc.hpp"),
               solver_factory([](const Json& p) { return modnn::solve_mscc_json(p); }));
  registry.add("fgcp", "MoDNN fine-grain cross partition of the MSCC outliers (Mao sec. 5.3, eq. 5.1)",
               problem_documented_in("partitioners/modnn/fgcp.hpp"),
               solver_factory([](const Json& p) { return modnn::solve_fgcp_json(p); }));
}

}  // namespace coinfer
