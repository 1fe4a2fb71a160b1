#pragma once
/// Registers the JointDNN family of solver cores: `jointdnn`, `jointdnn-ilp`, `jointdnn-labels`,
/// `jointdnn-larac`, `neurosurgeon`, and the scenario partitioners of the same family.
#include "sim/scenario/partitioner.hpp"
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds the JointDNN solvers to `registry`; throws `Error` if a name is already taken.
void register_jointdnn_solvers(SolverRegistry& registry);

/// Adds the scenario partitioners `jointdnn` and `neurosurgeon` (scenario_problem.hpp: the
/// problem built from the scenario's model, devices and network, solved by the cores above).
void register_jointdnn_partitioners(PartitionerRegistry& registry);

}  // namespace coinfer
