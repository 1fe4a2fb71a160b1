#include "schedulers/jointdnn_table/register.hpp"

#include "schedulers/jointdnn_table/table_scheduler.hpp"

namespace coinfer {

void register_jointdnn_table_schedulers(SchedulerRegistry& registry) {
  registry.add("jointdnn-table",
               "JointDNN lookup table (Eshratifar sec. 2.4.2): per frame, the plan variant of the grid cell "
               "of the measured uplink / downlink rates (oracle: the true rates)",
               jointdnn_table::table_param_schema(), [](const Json& params) {
                 return std::make_unique<jointdnn_table::TableScheduler>(
                     jointdnn_table::TableParams::from_json(params));
               });
}

}  // namespace coinfer
