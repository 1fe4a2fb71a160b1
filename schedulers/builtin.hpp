#pragma once
/// Explicit registration of the built-in scheduling algorithms' solver cores.
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds every scheduler solver core (`cbo-optimal`, `pipeline-expected`, ...) to `registry`.
void register_scheduler_solvers(SolverRegistry& registry);

}  // namespace coinfer
