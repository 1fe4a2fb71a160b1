// Batch times of batching devices from the cost model (device_batching.hpp).
#include "sim/scenario/device_batching.hpp"

#include <catch2/catch.hpp>

#include "sim/calibration/calibration_json.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;

namespace {

Device gpu(std::string name, std::int64_t lanes, std::optional<Batching> batching) {
  Device d;
  d.name = std::move(name);
  d.calibration =
      load_calibration_file(std::string(COINFER_SOURCE_DIR) + "/platforms/calibration/gtx1080.json");
  d.calibration.edit().batch_lanes = lanes;
  d.batching = std::move(batching);
  return d;
}

}  // namespace

TEST_CASE("device batching: a batch of b takes the model's batch-b time over its batch-1 time") {
  const Graph g = build_zoo_model("alexnet");
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  const auto batch_cost = [&](std::int64_t b) {
    return CostModel(g, estimate_host_profile(g, HostSpeed::nominal(), b));
  };
  Batching four;
  four.max_batch = 4;
  Platform p;
  p.devices = {gpu("wide", 8, four), gpu("narrow", 1, four), gpu("plain", 8, std::nullopt)};
  fill_batch_times(p, cost, batch_cost);
  const auto& wide = p.devices[0].batching->time_ratio;
  REQUIRE(wide.size() == 4);
  CHECK(wide[0] == 1.0);
  for (std::int64_t b = 2; b <= 4; ++b)
    CHECK(wide[std::size_t(b - 1)] == Approx(batch_cost(b).total_time_s(p.devices[0].calibration) /
                                             cost.total_time_s(p.devices[0].calibration)));
  // Eight lanes run four inputs at once: a batch of 4 costs less than four single runs, and more
  // than one; each input added costs something.
  CHECK(wide[3] < 4.0);
  CHECK(wide[3] > 1.0);
  for (std::size_t b = 1; b < 4; ++b) CHECK(wide[b] > wide[b - 1]);
  // One lane gains only what the batched host kernels gain.
  CHECK(p.devices[1].batching->time_ratio[3] > wide[3]);
  CHECK_FALSE(p.devices[2].batching);
}
