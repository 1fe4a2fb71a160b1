#pragma once
// A zoo or hand-built model on the shipped Jetson TX2 + Tesla K40c platform, and the check that a
// schedule's plan, replayed for one inference, takes the problem's latency and the TX2's active
// energy (busy_w x busy time + radio, no idle power).
#include <catch2/catch.hpp>

#include <string>

#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/replay/simulate.hpp"

namespace coinfer::jointdnn::testing {

struct Tx2K40 {
  Graph graph;
  Platform platform;
  CostModel cost;
  PartitionContext ctx;
  explicit Tx2K40(Graph g)
      : graph(std::move(g)),
        platform(load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml")),
        cost(graph, estimate_host_profile(graph, HostSpeed::nominal())),
        ctx{graph, platform, cost, "tx2", [this](std::int64_t batch) {
              return CostModel(graph, estimate_host_profile(graph, HostSpeed::nominal(), batch));
            }} {}
  Tx2K40(const Tx2K40&) = delete;
};

/// Replays `s` and checks latency = cost + `extra_latency_s` (a wake-up the solution leaves out)
/// and the TX2's active energy = cost, both to a relative 1e-9. Returns the replay.
inline SimulationResult check_replay(const Tx2K40& f, const ScenarioProblem& sp, const Solution& s,
                                     double extra_latency_s = 0.0) {
  const Plan plan = plan_of_schedule(f.ctx, sp, s, "jointdnn");
  SimulationResult r = simulate_in_child(f.platform, {plan}, single_workload());
  REQUIRE(r.frames.size() == 1);
  const auto& tx2 = r.devices[f.platform.device_index("tx2")];
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s + extra_latency_s).epsilon(1e-9));
  CHECK(tx2.active_energy_j == Approx(s.cost.energy_j).epsilon(1e-9));
  return r;
}

}  // namespace coinfer::jointdnn::testing
