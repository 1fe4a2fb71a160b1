#pragma once
/// Registers the JointDNN family of solver cores: `jointdnn`, `jointdnn-ilp`, `jointdnn-labels`,
/// `jointdnn-larac`, `neurosurgeon`.
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds the JointDNN solvers to `registry`; throws `Error` if a name is already taken.
void register_jointdnn_solvers(SolverRegistry& registry);

}  // namespace coinfer
