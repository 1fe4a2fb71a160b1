#pragma once
/// Explicit registration of the built-in partitioning algorithms (a static self-registering
/// object in a static library could be dropped by the linker).
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds every partitioning solver core (`jointdnn`, `split-dp`, ...) to `registry`.
void register_partitioner_solvers(SolverRegistry& registry);

}  // namespace coinfer

#include "sim/scenario/partitioner.hpp"

namespace coinfer {

/// Adds every built-in partitioner (`local`, `remote`, ...) to `registry`.
void register_builtin_partitioners(PartitionerRegistry& registry);

}  // namespace coinfer
