#include "schedulers/builtin.hpp"

namespace coinfer {

void register_scheduler_solvers(SolverRegistry& registry) {
  (void)registry;
  // One line per algorithm family, e.g. register_cbo_solvers(registry);
}

}  // namespace coinfer
