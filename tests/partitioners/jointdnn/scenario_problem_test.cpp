// The jointdnn / neurosurgeon scenario partitioners: the problem built from a model, devices and a
// network, and the plan of its schedule replayed in SimGrid.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "partitioners/jointdnn/register.hpp"
#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/partitioners/jointdnn/replay_check.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using Catch::Matchers::Contains;

namespace {

Device device(const std::string& name, DeviceKind kind, double scale, double busy_w, double idle_w) {
  Device d;
  d.name = name;
  d.calibration.edit().name = name;
  d.calibration.edit().kind = kind;
  d.calibration.edit().power = {idle_w, busy_w};
  for (auto c : all_op_classes()) d.calibration.edit().op_scale[std::string(op_class_name(c))] = scale;
  return d;
}

// A phone (every op 10x the host estimate, 2 W busy) reaching a GPU (0.1x) over a 4G access
// network: up 8 Mbps / 10 ms, down 16 Mbps / 5 ms; phone radio alpha_u 400, alpha_d 50,
// beta 1000 mW.
Platform phone_gpu(double wake_up_s = 0.0, double timeout_s = 1e9) {
  Platform p;
  p.name = "pair";
  p.devices = {device("phone", DeviceKind::PhoneCpu, 10.0, 2.0, 0.5),
               device("gpu", DeviceKind::GpuServer, 0.1, 100.0, 10.0)};
  p.devices[0].calibration.edit().radio["4g"] = RadioPowerModel{400.0, 1000.0, 50.0, 1000.0};
  Network cell;
  cell.name = "cell";
  cell.kind = NetworkKind::Cellular4g;
  cell.members = {"phone"};
  cell.base = "gpu";
  cell.uplink = {8e6, 0.010, {}};
  cell.downlink = {16e6, 0.005, {}};
  cell.wake_up_s = wake_up_s;
  cell.power_save_timeout_s = timeout_s;
  p.networks = {cell};
  return p;
}

// Three fully connected layers: data 250 floats (1,000 bytes) -> fc1 100 (400 B) -> fc2 50
// (200 B) -> fc3 10 (40 B).
Graph three_fc() {
  GraphBuilder b("three_fc");
  auto x = b.input("data", {250});
  x = b.fc(x, "fc1", 100);
  x = b.fc(x, "fc2", 50);
  b.fc(x, "fc3", 10);
  return b.build();
}

// As three_fc with fc3 reading fc1 + fc2 (a residual add): data -> fc1 -> fc2 -> add(fc1, fc2).
Graph residual_fc() {
  GraphBuilder b("residual_fc");
  auto x = b.input("data", {250});
  auto a = b.fc(x, "fc1", 100);
  auto c = b.fc(a, "fc2", 100);
  b.add_op({a, c}, "sum");
  return b.build();
}

struct Fixture {
  Graph graph;
  Platform platform;
  CostModel cost;
  Fixture(Graph g, Platform p)
      : graph(std::move(g)),
        platform(std::move(p)),
        cost(graph, estimate_host_profile(graph, HostSpeed::nominal())) {}
  PartitionContext context() const { return PartitionContext{graph, platform, cost, "phone"}; }
};

// eq. 21 over a transfer's whole duration, as the replay charges it: (alpha x Mbps + beta) x t, mW -> J.
double radio_j(double alpha, double beta, double bytes, double t) {
  return (alpha * 8.0 * bytes / t / 1e6 + beta) * t / 1000.0;
}

}  // namespace

TEST_CASE("the problem of a three-layer chain: every group, crossing and energy term") {
  const Fixture f(three_fc(), phone_gpu());
  const auto sp = build_scenario_problem(f.context(), ScenarioSetup{});
  const Problem& p = sp.problem;
  REQUIRE(p.layers == 3);
  CHECK(sp.cloud == "gpu");  // the first server-kind device
  CHECK(sp.network == "cell");
  CHECK(p.skips.empty());
  const auto host = [&](std::size_t a, std::size_t b) { return f.cost.profile().range_sum_s(a, b); };
  // Groups [i+1 .. i+1+k] (topological positions; 0 is the input): scale x host time, additive
  // since the estimate profile has no grouped timings. Mobile energy = 2 W busy x time.
  for (int i = 0; i < 3; ++i) {
    REQUIRE(p.mobile_time_s[i].size() == static_cast<std::size_t>(3 - i));
    for (int k = 0; i + 1 + k <= 3; ++k) {
      CHECK(p.mobile_time_s[i][k] == Approx(10.0 * host(i + 1, i + 1 + k)).epsilon(1e-12));
      CHECK(p.cloud_time_s[i][k] == Approx(0.1 * host(i + 1, i + 1 + k)).epsilon(1e-12));
      CHECK(p.mobile_energy_j[i][k] == Approx(2.0 * p.mobile_time_s[i][k]).epsilon(1e-12));
    }
  }
  // Crossings of outputs 0..3 (1000, 400, 200, 40 bytes): up 10 ms + 8 B / 8 Mbps, down 5 ms + 8 B / 16 Mbps.
  const double bytes[] = {1000, 400, 200, 40};
  CHECK(p.upload_time_s[0] == Approx(0.011));      // 0.010 + 8000 / 8e6
  CHECK(p.download_time_s[3] == Approx(0.00502));  // 0.005 + 320 / 16e6
  for (int j = 0; j <= 3; ++j) {
    const double up = 0.010 + 8 * bytes[j] / 8e6;
    const double down = 0.005 + 8 * bytes[j] / 16e6;
    CHECK(p.upload_time_s[j] == Approx(up).epsilon(1e-12));
    CHECK(p.download_time_s[j] == Approx(down).epsilon(1e-12));
    // e.g. j = 0: (400 x 1 Mbps + 1000 mW) x 0.011 s = 0.0154 J... spelled out: 400 x 0.008 Mb / 1000
    // + 1000 x 0.011 / 1000 = 0.0032 + 0.011 = 0.0142 J
    CHECK(p.upload_energy_j[j] == Approx(radio_j(400, 1000, bytes[j], up)).epsilon(1e-12));
    CHECK(p.download_energy_j[j] == Approx(radio_j(50, 1000, bytes[j], down)).epsilon(1e-12));
  }
  CHECK(p.upload_energy_j[0] == Approx(0.0142));
  CHECK(sp.wake_up_s == 0.0);
}

TEST_CASE("a residual add becomes a skip from its far input") {
  const Fixture f(residual_fc(), phone_gpu());
  const auto sp = build_scenario_problem(f.context(), ScenarioSetup{});
  REQUIRE(sp.problem.layers == 3);
  REQUIRE(sp.problem.skips.size() == 1);
  CHECK(sp.problem.skips[0].from_layer == 1);  // fc1 also feeds the add (layer 3)
  CHECK(sp.problem.skips[0].to_layer == 3);
}

TEST_CASE("a schedule's plan: one compute per group, one transfer per crossing, output back on the mobile") {
  const Fixture f(three_fc(), phone_gpu());
  const auto sp = build_scenario_problem(f.context(), ScenarioSetup{});
  // fc1 on the mobile, fc2..fc3 on the cloud: upload fc1's 400 B, download fc3's 40 B.
  const Solution s = make_solution(sp.problem, {{1, 1, Side::mobile}, {2, 3, Side::cloud}});
  const Plan plan = plan_of_schedule(f.context(), sp, s, "jointdnn");
  REQUIRE(plan.tasks.size() == 4);
  CHECK(plan.tasks[0].id == "g1-mobile");
  CHECK(plan.tasks[1].id == "up-fc1");
  CHECK(plan.tasks[1].bytes == 400);
  CHECK(plan.tasks[1].network == "cell");
  CHECK(plan.tasks[2].label == "fc2..fc3");
  CHECK(plan.tasks[2].duration_s == Approx(sp.problem.cloud_time_s[1][1]));
  CHECK(plan.tasks[3].id == "down-fc3");
  CHECK(plan.tasks[3].bytes == 40);
}

TEST_CASE("a radio wake-up is paid once by a schedule that uses the cloud") {
  // Wake-up 1 s: offloading can no longer win on latency, so the mobile keeps everything.
  const Fixture f(three_fc(), phone_gpu(1.0));
  const auto sp = build_scenario_problem(f.context(), ScenarioSetup{});
  CHECK(sp.wake_up_s == 1.0);
  const Solution s = solve_scenario_problem(sp, SolverChoice::automatic);
  REQUIRE(s.groups.size() == 1);
  CHECK(s.groups[0].on == Side::mobile);
}

TEST_CASE("a radio that may sleep between crossings is rejected") {
  const Fixture f(three_fc(), phone_gpu(0.05, 0.0));
  CHECK_THROWS_WITH(build_scenario_problem(f.context(), ScenarioSetup{}),
                    Contains("partitioner.network") && Contains("may sleep between crossings"));
}

TEST_CASE("an unmeetable deadline names max_latency_s and the best achievable latency") {
  const Fixture f(three_fc(), phone_gpu());
  ScenarioSetup setup;
  setup.max_latency_s = 1e-9;
  const auto sp = build_scenario_problem(f.context(), setup);
  const double best =
      solve_scenario_problem(build_scenario_problem(f.context(), ScenarioSetup{}), SolverChoice::automatic)
          .cost.latency_s;
  CHECK_THROWS_WITH(solve_scenario_problem(sp, SolverChoice::labels),
                    Contains("partitioner.max_latency_s: no schedule meets 1e-09 s; the best latency is " +
                             fmt::format("{:.6g}", best)));
}

// The analytic cost of the chosen plan equals what the replay measures for one inference:
// latency = the frame's latency; active energy = busy_w x busy_s + radio energy of the mobile.
TEST_CASE("analytic latency and energy of the chosen AlexNet plan equal the replay's") {
  const Graph g = build_zoo_model("alexnet");
  const Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  const PartitionContext ctx{g, platform, cost, "tx2"};
  const std::string network = GENERATE(as<std::string>{}, "3g", "4g", "wifi", "4g_rrc");
  const auto objective = GENERATE(Objective::latency, Objective::energy);
  const auto solver = GENERATE(SolverChoice::automatic, SolverChoice::ilp, SolverChoice::neurosurgeon);
  ScenarioSetup setup;
  setup.network = network;
  setup.objective = objective;
  const auto sp = build_scenario_problem(ctx, setup);
  const Solution s = solve_scenario_problem(sp, solver);
  const Plan plan = plan_of_schedule(ctx, sp, s, "jointdnn");
  const SimulationResult r = simulate_in_child(platform, {plan}, single_workload());
  REQUIRE(r.frames.size() == 1);
  const auto& tx2 = r.devices[platform.device_index("tx2")];
  const double active_j = platform.devices[0].calibration->power.busy_w * tx2.busy_s + tx2.radio_energy_j;
  INFO(network << " objective " << static_cast<int>(objective) << " solver " << static_cast<int>(solver)
               << " groups " << s.groups.size());
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s).epsilon(1e-9));
  CHECK(active_j == Approx(s.cost.energy_j).epsilon(1e-9));
  // The replay's energy_j adds idle power while the mobile waits.
  CHECK(tx2.energy_j ==
        Approx(s.cost.energy_j + platform.devices[0].calibration->power.idle_w * (r.end_s - tx2.busy_s))
            .epsilon(1e-9));
}

// The same on forced schedules that cross the network (AlexNet on the TX2 mostly stays local):
// every split mobile 1..a | cloud a+1..b | mobile b+1..N of AlexNet, on the 4G link with latency
// and a radio wake-up (paid once, by the first upload).
TEST_CASE("analytic latency and energy of mixed AlexNet schedules equal the replay's") {
  const Graph g = build_zoo_model("alexnet");
  const Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  const PartitionContext ctx{g, platform, cost, "tx2"};
  ScenarioSetup setup;
  setup.network = GENERATE(as<std::string>{}, "3g", "4g_rrc");
  const auto sp = build_scenario_problem(ctx, setup);
  const int n = sp.problem.layers;
  const int a = GENERATE(0, 5, 17);
  const int b = GENERATE(18, 23);  // 23 = every layer after the input
  std::vector<Group> groups;
  if (a > 0) groups.push_back({1, a, Side::mobile});
  groups.push_back({a + 1, b, Side::cloud});
  if (b < n) groups.push_back({b + 1, n, Side::mobile});
  const Solution s = make_solution(sp.problem, groups);
  const Plan plan = plan_of_schedule(ctx, sp, s, "jointdnn");
  const SimulationResult r = simulate_in_child(platform, {plan}, single_workload());
  const auto& tx2 = r.devices[platform.device_index("tx2")];
  INFO(setup.network << " mobile 1.." << a << " cloud .." << b);
  CHECK(tx2.wake_ups == (sp.wake_up_s > 0 ? 1u : 0u));
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s + sp.wake_up_s).epsilon(1e-9));
  CHECK(platform.devices[0].calibration->power.busy_w * tx2.busy_s + tx2.radio_energy_j ==
        Approx(s.cost.energy_j).epsilon(1e-9));
}

// ResNet-18's residual adds are skips and its projection shortcuts detached layers; a split inside
// a block uploads several outputs at one boundary (the block input, the skip source, and the
// previous layer's). The plan sends them one after another, each paying the link latency and eq.
// 21's beta, as the problem charges them: every split of the first blocks replays exactly.
TEST_CASE("ResNet-18 splits inside and between residual blocks replay as the problem costs them") {
  const testing::Tx2K40 f(build_zoo_model("resnet18"));
  ScenarioSetup setup;
  setup.network = "4g_rrc";
  const auto sp = build_scenario_problem(f.ctx, setup);
  REQUIRE_FALSE(sp.problem.skips.empty());
  REQUIRE_FALSE(sp.problem.detached.empty());
  const int n = sp.problem.layers;
  const int a = GENERATE(range(1, 36));
  INFO("mobile 1.." << a);
  testing::check_replay(f, sp, make_solution(sp.problem, {{1, a, Side::mobile}, {a + 1, n, Side::cloud}}),
                        sp.wake_up_s);
}

// The schedule JointDNN chooses for ResNet-18 (residual blocks, projection shortcuts), for latency
// and for energy on every network: its analytic cost is the replay's.
TEST_CASE("analytic latency and energy of the chosen ResNet-18 plan equal the replay's") {
  const testing::Tx2K40 f(build_zoo_model("resnet18"));
  ScenarioSetup setup;
  setup.network = GENERATE(as<std::string>{}, "3g", "wifi", "4g_rrc");
  setup.objective = GENERATE(Objective::latency, Objective::energy);
  const auto sp = build_scenario_problem(f.ctx, setup);
  INFO(setup.network);
  testing::check_replay(f, sp, solve_scenario_problem(sp, SolverChoice::automatic));
}

TEST_CASE("jointdnn is never worse than neurosurgeon, which is never worse than mobile-only") {
  const Graph g = build_zoo_model("alexnet");
  const Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  const PartitionContext ctx{g, platform, cost, "tx2"};
  const std::string network = GENERATE(as<std::string>{}, "3g", "4g", "wifi", "4g_rrc");
  ScenarioSetup setup;
  setup.network = network;
  setup.objective = Objective::energy;
  const auto sp = build_scenario_problem(ctx, setup);
  const double joint = solve_scenario_problem(sp, SolverChoice::automatic).cost.energy_j;
  const double split = solve_scenario_problem(sp, SolverChoice::neurosurgeon).cost.energy_j;
  const double mobile = make_solution(sp.problem, {{1, sp.problem.layers, Side::mobile}}).cost.energy_j;
  CHECK(joint <= split * (1 + 1e-12));
  CHECK(split <= mobile * (1 + 1e-12));
}

TEST_CASE("jointdnn and neurosurgeon are registered as scenario partitioners") {
  PartitionerRegistry r("partitioner");
  coinfer::register_jointdnn_partitioners(r);
  const Fixture f(three_fc(), phone_gpu());
  for (const char* name : {"jointdnn", "neurosurgeon"}) {
    const Plan plan = r.create(name, Json{{"objective", "energy"}})->partition(f.context());
    CHECK(plan.name == name);
    CHECK_FALSE(plan.tasks.empty());
  }
  CHECK_THROWS_WITH(r.create("jointdnn", Json{{"weights_file", "w.bin"}}),
                    Contains("partitioner.weights_file: weights are read only with compression: png"));
}

TEST_CASE("JointDNN group tables that exceed the memory limit are refused before they are allocated") {
  // 100,000 layers: 100,000 x 100,001 / 2 = 5.00005e9 groups x 3 doubles x 8 bytes = 1.2e11 bytes.
  // Under a 1e9-byte limit, 12 N (N + 1) <= 1e9 holds up to N = 9128 (9128 x 9129 = 83,329,512 and
  // 9129 x 9130 = 83,347,770 around 1e9 / 12 = 83,333,333).
  const Graph g = three_fc();
  try {
    check_group_tables(g, 100000, 1'000'000'000);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "partitioner.name");
    CHECK_THAT(e.message(),
               Contains("model 'three_fc' gives 100000 layers, 5e+09 groups needing 1.2e+11 bytes") &&
                   Contains("at most 9128 layers fit"));
  }
  CHECK_NOTHROW(check_group_tables(g, 9128, 1'000'000'000));
  CHECK_THROWS_AS(check_group_tables(g, 9129, 1'000'000'000), InputError);
}
