#include "schedulers/builtin.hpp"
#include "schedulers/cbo/register.hpp"
#include "schedulers/pipeline/register.hpp"

namespace coinfer {

void register_scheduler_solvers(SolverRegistry& registry) {
  (void)registry;
  // One line per algorithm family, e.g. register_cbo_solvers(registry);
  register_cbo_solvers(registry);
  register_pipeline_solvers(registry);
}

}  // namespace coinfer
