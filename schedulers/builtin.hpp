#pragma once
/// Explicit registration of the built-in scheduling algorithms: solver cores and runtime schedulers.
#include "sim/scenario/scheduler_registry.hpp"
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds every scheduler solver core (`cbo-optimal`, `pipeline-expected`, ...) to `registry`.
void register_scheduler_solvers(SolverRegistry& registry);

/// Adds every runtime scheduler a scenario can name (`scheduler: {name: ...}`), starting with the
/// engine's `none`.
void register_builtin_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
