#include "sim/scenario/scheduler_registry.hpp"

namespace coinfer {

void register_engine_schedulers(SchedulerRegistry& registry) {
  registry.add("none", "no runtime decisions: every frame runs plan variant 0", ParamSchema{},
               [](const Json&) { return std::make_unique<NoopScheduler>(); });
}

}  // namespace coinfer
