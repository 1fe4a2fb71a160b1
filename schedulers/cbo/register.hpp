#pragma once
/// Registration of the CBO solver cores (Tan & Cao): `cbo-optimal` and `cbo-online`.
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds `cbo-optimal` and `cbo-online` to `registry`; throws `Error` if either name is taken.
///
///     SolverRegistry registry("solver");
///     register_cbo_solvers(registry);
void register_cbo_solvers(SolverRegistry& registry);

}  // namespace coinfer
