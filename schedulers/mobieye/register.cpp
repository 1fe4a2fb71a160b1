#include "schedulers/mobieye/register.hpp"

#include "schedulers/mobieye/dff_scheduler.hpp"

namespace coinfer {

void register_mobieye_schedulers(SchedulerRegistry& registry) {
  registry.add("dff",
               "MobiEye's sequential deep feature flow: key frames run FeatNet in line [Mao-PhD §4.3.1]",
               mobieye::dff_param_schema(), [](const Json& params) {
                 return std::make_unique<mobieye::DffScheduler>(false, mobieye::DffParams::from_json(params));
               });
  registry.add("adff",
               "MobiEye's asynchronous DFF: FeatNet as a background job on a second GPU [Mao-PhD §4.3.2]",
               mobieye::dff_param_schema(), [](const Json& params) {
                 return std::make_unique<mobieye::DffScheduler>(true, mobieye::DffParams::from_json(params));
               });
}

}  // namespace coinfer
