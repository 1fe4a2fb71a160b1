#pragma once
/// The batch times of a platform's batching devices (platform.hpp Batching), from a scenario's cost
/// model: time_ratio[b - 1] = the model's forward time at batch b / at batch 1 on the device's
/// calibration (CostModel::total_time_s; the batched cost model measures or estimates every layer
/// at batch b, and the calibration's batch_lanes says how many inputs the device runs at once).
///
///     fill_batch_times(platform, cost, [&](std::int64_t b) { return CostModel(graph, profiles.forward(b));
///     });
#include <cstdint>
#include <functional>

#include "sim/cost/cost_model.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer {

/// Fills Batching::time_ratio of every device with `batching`, each batch size's cost model built
/// once for all of them. Devices without batching are left alone.
void fill_batch_times(Platform& platform, const CostModel& cost,
                      const std::function<CostModel(std::int64_t batch)>& batch_cost);

}  // namespace coinfer
