#include "sim/cost/partial_cost.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {

double partial_layer_time_s(const CostModel& cost, std::size_t position, const DeviceCalibration& device,
                            double fraction) {
  if (!(fraction >= 0.0 && fraction <= 1.0))
    throw Error(fmt::format("partial_layer_time_s: fraction {} outside [0, 1]", fraction));
  return fraction == 0.0 ? 0.0 : cost.layer_time_s(position, device) * fraction;
}

FcRates fc_rates(const CostModel& cost, std::size_t position, const DeviceCalibration& device) {
  const Layer& layer = cost.graph().layer(cost.graph().topological_order().at(position));
  if (layer.op != OpKind::FullyConnected)
    throw Error(fmt::format("fc_rates: layer '{}' is not fully connected", layer.name));
  const double thld = device.sparse_model ? device.sparse_model->density_threshold : 0.0;
  if (!(thld > 0.0 && thld <= 1.0))
    throw InputError("", fmt::format("devices.{}.calibration", device.name),
                     "sparse fully connected layers need sparse_model.density_threshold in (0, 1]");
  const double units = static_cast<double>(layer.attrs.units);
  const double inputs = static_cast<double>(layer.macs) / units;
  // Dense device time of the whole layer spread over its inputs x units weights.
  const double per_element = cost.host_time_s(position) * cost.scale_of(position, device) / (inputs * units);
  return FcRates{per_element, per_element / thld, thld};
}

}  // namespace coinfer
