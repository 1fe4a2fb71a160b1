#pragma once
/// Registration of the CBO solver cores (Tan & Cao): `cbo-optimal` and `cbo-online`.
#include "sim/scenario/scheduler_registry.hpp"
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds `cbo-optimal` and `cbo-online` to `registry`; throws `Error` if either name is taken.
///
///     SolverRegistry registry("solver");
///     register_cbo_solvers(registry);
void register_cbo_solvers(SolverRegistry& registry);

/// Adds the runtime schedulers of Tan & Cao's evaluation (schedulers/cbo/cbo_runtime.hpp): `cbo`,
/// `cbo-wo`, `fastva`, `local`, `server`, `compress`, `optimal`, `cbo-threshold`.
void register_cbo_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
