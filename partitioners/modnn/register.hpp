#pragma once
/// Registration of MoDNN's solver cores (Mao: [MoDNN]; [Mao-PhD ch. 2]): `bodp`,
/// `grid2d`, `fc-1d`, `mscc` and `fgcp` (schemas in the headers of the same names).
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds the MoDNN solvers to `registry`; throws `Error` if one is already registered.
void register_modnn_solvers(SolverRegistry& registry);

}  // namespace coinfer
