#include "partitioners/builtin.hpp"

namespace coinfer {

void register_partitioner_solvers(SolverRegistry& registry) {
  (void)registry;
  // One line per algorithm family, e.g. register_jointdnn_solvers(registry);
}

}  // namespace coinfer
