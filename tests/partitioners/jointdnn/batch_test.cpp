// `batch: B` in the jointdnn / neurosurgeon scenario partitioners (JointDNN Fig. 8): groups cost
// their layers' batch-B time, crossings carry B x the tensor, and the replay of one batched
// inference costs what the problem says.
#include <catch2/catch.hpp>

#include <algorithm>

#include "partitioners/jointdnn/png_wire.hpp"
#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "tests/partitioners/jointdnn/replay_check.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;

namespace {

ScenarioSetup batched(std::int64_t batch, const std::string& network = "4g_rrc") {
  ScenarioSetup s;
  s.network = network;
  s.batch = batch;
  return s;
}

}  // namespace

TEST_CASE("at batch B every crossing carries B x the tensor") {
  const testing::Tx2K40 f(build_zoo_model("alexnet"));
  const auto one = build_scenario_problem(f.ctx, batched(1));
  const auto eight = build_scenario_problem(f.ctx, batched(8));
  const auto& order = f.graph.topological_order();
  for (std::size_t k = 0; k < order.size(); ++k) {
    CHECK(one.wire_bytes[k] == static_cast<double>(f.graph.layer(order[k]).output_bytes));
    CHECK(eight.wire_bytes[k] == 8.0 * one.wire_bytes[k]);
  }
  // The plan's transfers carry those bytes: the input uploaded by a cloud-only schedule is 8 images.
  const int n = eight.problem.layers;
  const Solution s = make_solution(eight.problem, {{1, n, Side::cloud}});
  const Plan plan = plan_of_schedule(f.ctx, eight, s, "jointdnn");
  const auto up = std::find_if(plan.tasks.begin(), plan.tasks.end(),
                               [](const Task& t) { return t.kind == TaskKind::Transfer && t.dst == "k40"; });
  REQUIRE(up != plan.tasks.end());
  CHECK(up->bytes == 8.0 * 3 * 227 * 227 * 4);
}

TEST_CASE("at batch B a group costs its layers' batch-B time and not B x one input's") {
  const testing::Tx2K40 f(build_zoo_model("alexnet"));
  const auto sp = build_scenario_problem(f.ctx, batched(16));
  const CostModel cost16(f.graph, estimate_host_profile(f.graph, HostSpeed::nominal(), 16));
  const DeviceCalibration& tx2 = f.platform.devices[f.platform.device_index("tx2")].calibration;
  const int n = sp.problem.layers;
  CHECK(sp.problem.mobile_time_s[0].back() == Approx(cost16.range_time_s(1, n, tx2)).epsilon(1e-12));
  // fc layers read their weights once per batch: the whole model costs less than 16 single inputs.
  CHECK(sp.problem.mobile_time_s[0].back() < 16.0 * f.cost.range_time_s(1, n, tx2));
}

TEST_CASE("analytic latency and energy of batched AlexNet plans equal the replay's") {
  const testing::Tx2K40 f(build_zoo_model("alexnet"));
  const std::int64_t batch = GENERATE(4, 32);
  const auto sp = build_scenario_problem(f.ctx, batched(batch, GENERATE(as<std::string>{}, "3g", "4g_rrc")));
  const int n = sp.problem.layers;
  INFO("batch " << batch);
  SECTION("the optimal schedule") {
    testing::check_replay(f, sp, solve_scenario_problem(sp, SolverChoice::automatic));
  }
  SECTION("mobile 1..5, cloud 6..18, mobile after") {
    const Solution s =
        make_solution(sp.problem, {{1, 5, Side::mobile}, {6, 18, Side::cloud}, {19, n, Side::mobile}});
    testing::check_replay(f, sp, s, sp.wake_up_s);
  }
}

TEST_CASE("png at batch B sends B x each sample's PNG") {
  const testing::Tx2K40 f(build_zoo_model("lenet5"));
  ScenarioSetup setup = batched(4);
  setup.png = true;
  setup.seed = 7;
  const auto sp = build_scenario_problem(f.ctx, setup);
  const auto wire = measure_png_wire(f.graph, [] {
    PngWireOptions o;
    o.seed = 7;
    o.repeats = 1;
    return o;
  }());
  for (std::size_t j = 0; j < wire.size(); ++j)
    CHECK(sp.wire_bytes[j] == 4.0 * (wire[j].compressed ? wire[j].png_bytes : wire[j].raw_bytes));
  const int n = sp.problem.layers;
  // conv1's output (conv-shaped, sent as PNG) goes up.
  testing::check_replay(f, sp, make_solution(sp.problem, {{1, 1, Side::mobile}, {2, n, Side::cloud}}),
                        sp.wake_up_s);
}

TEST_CASE("a batch without batched costs from the caller names partitioner.batch") {
  const testing::Tx2K40 f(build_zoo_model("lenet5"));
  const PartitionContext bare{f.graph, f.platform, f.cost, "tx2"};
  CHECK_THROWS_WITH(build_scenario_problem(bare, batched(2)), Catch::Matchers::Contains("partitioner.batch"));
  CHECK_NOTHROW(build_scenario_problem(bare, batched(1)));
}
