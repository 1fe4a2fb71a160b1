#pragma once
/// Registration of the `split-dp` solver (Hu & Krishnamachari eq. 2).
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds `split-dp` to `registry`; throws `Error` if it is already registered.
void register_split_dp_solvers(SolverRegistry& registry);

}  // namespace coinfer
