#pragma once
#include "sim/scenario/scheduler_registry.hpp"

namespace coinfer {

/// Registers `jointdnn-table` (table_scheduler.hpp).
void register_jointdnn_table_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
