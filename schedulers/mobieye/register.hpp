#pragma once
/// Registration of MobiEye's runtime schedulers [Mao-PhD §4.3]: `dff` and `adff`
/// (schedulers/mobieye/dff_scheduler.hpp).
#include "sim/scenario/scheduler_registry.hpp"

namespace coinfer {

/// Adds `dff` and `adff` to `registry`; throws `Error` if either name is taken.
void register_mobieye_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
