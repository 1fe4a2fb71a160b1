#pragma once
/// Runtime schedulers register by name like partitioners, with the schema of their parameters;
/// parameters come from the scenario's `scheduler:` mapping and are validated against it
/// (`scheduler.<key>` in errors). `none` (NoopScheduler, no parameters) is always registered by
/// the engine.
#include "sim/core/registry.hpp"
#include "sim/workload/scheduler.hpp"

namespace coinfer {

using SchedulerRegistry = Registry<Scheduler>;

/// Adds `none` (every frame on plan variant 0, never dropped).
void register_engine_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
