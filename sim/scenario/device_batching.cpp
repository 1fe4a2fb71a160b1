#include "sim/scenario/device_batching.hpp"

#include <algorithm>
#include <map>

namespace coinfer {

void fill_batch_times(Platform& platform, const CostModel& cost,
                      const std::function<CostModel(std::int64_t batch)>& batch_cost) {
  std::map<std::int64_t, CostModel> models;  // by batch size, built on first use
  for (auto& d : platform.devices) {
    if (!d.batching) continue;
    const double one = cost.total_time_s(d.calibration);
    d.batching->time_ratio = {1.0};
    for (std::size_t b = 2; b <= d.batching->max_batch; ++b) {
      const auto batch = static_cast<std::int64_t>(b);
      auto it = models.find(batch);
      if (it == models.end()) it = models.emplace(batch, batch_cost(batch)).first;
      d.batching->time_ratio.push_back(one > 0.0 ? it->second.total_time_s(d.calibration) / one
                                                 : static_cast<double>(b));
    }
  }
}

}  // namespace coinfer
