#include "sim/workload/scheduler.hpp"

#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer {

std::vector<Plan> Scheduler::plan_variants(std::vector<Plan> partitioned, const Platform& platform) {
  (void)platform;
  return partitioned;
}

}  // namespace coinfer
