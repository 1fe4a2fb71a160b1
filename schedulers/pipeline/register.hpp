#pragma once
/// Registration of the pipeline analysis solvers of Hu & Krishnamachari: `pipeline-thresholds`
/// (eq. 3) and `pipeline-expected` (eq. 4-6).
#include "sim/solve/solver.hpp"

namespace coinfer {

/// Adds `pipeline-thresholds` and `pipeline-expected` to `registry`; throws `Error` on a duplicate.
void register_pipeline_solvers(SolverRegistry& registry);

}  // namespace coinfer
