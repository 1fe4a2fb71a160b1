#include "cli/builtin_registries.hpp"

#include "partitioners/builtin.hpp"
#include "schedulers/builtin.hpp"

namespace coinfer::cli {

SolverRegistry builtin_solvers() {
  SolverRegistry registry("solver");
  register_partitioner_solvers(registry);
  register_scheduler_solvers(registry);
  return registry;
}

PartitionerRegistry builtin_partitioners() {
  PartitionerRegistry registry("partitioner");
  register_builtin_partitioners(registry);
  return registry;
}

SchedulerRegistry builtin_schedulers() {
  SchedulerRegistry registry("scheduler");
  register_builtin_schedulers(registry);
  return registry;
}

}  // namespace coinfer::cli
