#pragma once
/// Every built-in component, registered: what `coinfer solve`, `coinfer list` and the
/// scenario commands look names up in.
#include "sim/scenario/partitioner.hpp"
#include "sim/scenario/scheduler_registry.hpp"
#include "sim/solve/solver.hpp"

namespace coinfer::cli {

/// The solver cores of every partitioner and scheduler family (`coinfer solve NAME`).
SolverRegistry builtin_solvers();
/// The partitioners a scenario can name (`partitioner: {name: ...}`).
PartitionerRegistry builtin_partitioners();
/// The runtime schedulers a scenario can name (`scheduler: {name: ...}`).
SchedulerRegistry builtin_schedulers();

}  // namespace coinfer::cli
