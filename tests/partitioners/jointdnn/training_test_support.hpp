#pragma once
// Shared by the JointDNN training tests: a handset + server platform with round numbers, a model
// on it, eq. 21's radio energy, and forced TX2 + K40c schedules replayed against their cost.
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>

#include "partitioners/jointdnn/training_problem.hpp"
#include "sim/calibration/op_class.hpp"
#include "tests/partitioners/jointdnn/replay_check.hpp"

namespace coinfer::jointdnn::testing {

// A handset (every op class 20x the host estimate, 3 W busy, 4G radio alpha_u 300, alpha_d 100,
// beta 800 mW) and a server (0.5x) on a 4G cell: up 4 Mbps, down 8 Mbps, no latency, no wake-up.
inline Platform handset_server() {
  Platform p;
  p.name = "handset_server";
  for (auto [name, kind, scale, busy_w] : {std::tuple{"handset", DeviceKind::PhoneCpu, 20.0, 3.0},
                                           std::tuple{"server", DeviceKind::GpuServer, 0.5, 50.0}}) {
    Device d;
    d.name = d.calibration.edit().name = name;
    d.calibration.edit().kind = kind;
    d.calibration.edit().power = {0.5, busy_w};
    for (auto c : all_op_classes()) d.calibration.edit().op_scale[std::string(op_class_name(c))] = scale;
    p.devices.push_back(d);
  }
  p.devices[0].calibration.edit().radio["4g"] = RadioPowerModel{300.0, 800.0, 100.0, 800.0};
  auto& cell = p.networks.emplace_back();
  std::tie(cell.name, cell.kind, cell.base) = std::tuple{"lte", NetworkKind::Cellular4g, "server"};
  cell.members = {"handset"};
  std::tie(cell.uplink.rate_bps, cell.downlink.rate_bps) = std::pair{4e6, 8e6};  // no latency, no wake-up
  return p;
}

// A model on handset_server(), the nominal host estimate as its profile, the handset as source.
struct Setup {
  Graph graph;
  Platform platform;
  CostModel cost;
  PartitionContext ctx;
  explicit Setup(Graph g)
      : graph(std::move(g)),
        platform(handset_server()),
        cost(graph, estimate_host_profile(graph, HostSpeed::nominal())),
        ctx{graph, platform, cost, "handset"} {}
  Setup(const Setup&) = delete;
};

inline ScenarioSetup with_objective(Objective o) {
  ScenarioSetup s;
  s.objective = o;
  return s;
}

// Radio energy of eq. 21 as the replay charges it: (alpha x Mbps + beta) x t, mW -> J.
inline double eq21_j(double alpha, double beta, double bytes, double t) {
  return t > 0.0 ? (alpha * 8.0 * bytes / t / 1e6 + beta) * t / 1000.0 : 0.0;
}

// A TX2 + K40c training step over 4g_rrc (with its LTE wake-up), half the updated weights downloaded.
inline TrainingProblem rrc_training_problem(const Tx2K40& f) {
  ScenarioSetup setup;
  setup.cloud = "k40";
  setup.network = "4g_rrc";
  return build_training_problem(f.ctx, setup, 0.5);
}

// Replays the plan of a solver's schedule (its cost includes any wake-up): latency and TX2 active
// energy = the cost.
inline void check_solved_replay(const Tx2K40& f, const TrainingProblem& tp, const Solution& s) {
  const SimulationResult r =
      simulate_in_child(f.platform, {plan_of_training_schedule(tp, s, "jointdnn")}, single_workload());
  REQUIRE(r.frames.size() == 1);
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s).epsilon(1e-9));
  CHECK(r.devices[f.platform.device_index("tx2")].active_energy_j == Approx(s.cost.energy_j).epsilon(1e-9));
}

// Replays a forced schedule's plan: one wake-up, latency = cost + wake-up, TX2 active energy = cost.
inline void check_forced_replay(const Tx2K40& f, const TrainingProblem& tp, const Solution& s,
                                const Plan& plan) {
  const SimulationResult r = simulate_in_child(f.platform, {plan}, single_workload());
  const auto& tx2 = r.devices[f.platform.device_index("tx2")];
  CHECK(tx2.wake_ups == 1u);
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s + tp.scenario.wake_up_s).epsilon(1e-9));
  CHECK(tx2.active_energy_j == Approx(s.cost.energy_j).epsilon(1e-9));
}

}  // namespace coinfer::jointdnn::testing
