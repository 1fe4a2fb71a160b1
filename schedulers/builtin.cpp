#include "schedulers/builtin.hpp"
#include "schedulers/cbo/register.hpp"
#include "schedulers/jointdnn_table/register.hpp"
#include "schedulers/mobieye/register.hpp"
#include "schedulers/pipeline/adaptive_compression.hpp"
#include "schedulers/pipeline/register.hpp"

namespace coinfer {

void register_scheduler_solvers(SolverRegistry& registry) {
  (void)registry;
  // One line per algorithm family, e.g. register_cbo_solvers(registry);
  register_cbo_solvers(registry);
  register_pipeline_solvers(registry);
}

void register_builtin_schedulers(SchedulerRegistry& registry) {
  register_engine_schedulers(registry);
  // One line per runtime scheduler family, e.g. register_cbo_schedulers(registry);
  register_cbo_schedulers(registry);
  register_jointdnn_table_schedulers(registry);
  register_mobieye_schedulers(registry);
  register_pipeline_schedulers(registry);
}

}  // namespace coinfer
