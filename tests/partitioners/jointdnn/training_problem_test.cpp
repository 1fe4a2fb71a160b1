// JointDNN online training (sec. 2.3, eq. 12-17): the 2N-layer problem of a training step, its
// weight downloads, the solver against brute force, and the plan replayed in SimGrid.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "partitioners/jointdnn/register.hpp"
#include "partitioners/jointdnn/training_problem.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "tests/partitioners/jointdnn/training_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using namespace coinfer::jointdnn::testing;
using Catch::Matchers::Contains;

namespace {

// data 250 floats (1,000 B) -> fc1 100 (400 B) -> fc2 50 (200 B) -> fc3 10 (40 B); with biases
// fc1 has 25,100 parameters, fc2 5,050, fc3 510.
Graph chain_fc() {
  GraphBuilder b("chain_fc");
  std::string x = b.input("data", {250});
  for (auto [name, units] : {std::pair{"fc1", 100}, std::pair{"fc2", 50}, std::pair{"fc3", 10}})
    x = b.fc(x, name, units);
  return b.build();
}

}  // namespace

// Nominal host (estimate): fc 2.5 GMAC/s, 10 GB/s, 1 us per layer. Backward = 2x the MACs,
// traffic = forward traffic + input bytes:
//   d:fc1 = 2 x 25,000 / 2.5e9 + (1000 + 400 + 1000) / 1e10 + 1e-6 = 2.124e-5 s
//   d:fc2 = 2 x  5,000 / 2.5e9 + ( 400 + 200 +  400) / 1e10 + 1e-6 = 5.1e-6 s
//   d:fc3 = 2 x    500 / 2.5e9 + ( 200 +  40 +  200) / 1e10 + 1e-6 = 1.444e-6 s
// Forward fc2 = 5,000 / 2.5e9 + 600 / 1e10 + 1e-6 = 3.06e-6 s, fc3 = 500 / 2.5e9 + 240 / 1e10 + 1e-6
// = 1.224e-6 s. Problem layers 4, 5, 6 are d:fc3, d:fc2, d:fc1.
TEST_CASE("the training problem of a three-layer chain: every group, crossing and weight download") {
  const Setup f(chain_fc());
  const TrainingProblem tp = build_training_problem(f.ctx, ScenarioSetup{}, 1.0);
  const Problem& p = tp.scenario.problem;
  REQUIRE(p.layers == 6);
  CHECK(tp.names == std::vector<std::string>{"input", "fc1", "fc2", "fc3", "d:fc3", "d:fc2", "d:fc1"});
  CHECK(p.mobile_time_s[3][0] == Approx(20 * 1.444e-6).epsilon(1e-12));                        // [4, 4]
  CHECK(p.mobile_time_s[5][0] == Approx(20 * 2.124e-5).epsilon(1e-12));                        // [6, 6]
  CHECK(p.mobile_time_s[3][2] == Approx(20 * (1.444e-6 + 5.1e-6 + 2.124e-5)).epsilon(1e-12));  // [4, 6]
  // [2, 5] spans both halves: forward fc2, fc3 then backward fc3, fc2.
  CHECK(p.cloud_time_s[1][3] == Approx(0.5 * (3.06e-6 + 1.224e-6 + 1.444e-6 + 5.1e-6)).epsilon(1e-12));
  for (int i = 0; i < 6; ++i)
    for (std::size_t k = 0; k < p.mobile_time_s[i].size(); ++k)
      CHECK(p.mobile_energy_j[i][k] == Approx(3.0 * p.mobile_time_s[i][k]).epsilon(1e-12));
  // Output k crosses with: activations 1000, 400, 200, 40 (k = 0..3: the input, fc1..fc3), the
  // gradients dL/d(fc2 out) 200 and dL/d(fc1 out) 400 (k = 4, 5), nothing for dL/d(input) (k = 6).
  const std::array<double, 7> bytes = {1000, 400, 200, 40, 200, 400, 0};
  for (int k = 0; k <= 6; ++k) {
    CHECK(tp.crossing_bytes[k] == bytes[k]);
    CHECK(p.upload_time_s[k] == Approx(8 * bytes[k] / 4e6).epsilon(1e-12));
    CHECK(p.download_time_s[k] == Approx(8 * bytes[k] / 8e6).epsilon(1e-12));
    CHECK(p.upload_energy_j[k] == Approx(eq21_j(300, 800, bytes[k], 8 * bytes[k] / 4e6)).epsilon(1e-12));
    CHECK(p.download_energy_j[k] == Approx(eq21_j(100, 800, bytes[k], 8 * bytes[k] / 8e6)).epsilon(1e-12));
  }
  // Weights updated on the cloud, 4 bytes per parameter, down at 8 Mbps: d:fc3 2,040 B = 2.04 ms,
  // d:fc2 20,200 B = 20.2 ms, d:fc1 100,400 B = 100.4 ms; forward layers download nothing.
  const std::array<double, 6> weights = {0, 0, 0, 2040, 20200, 100400};
  for (int k = 0; k < 6; ++k) {
    CHECK(tp.weight_bytes[k] == weights[k]);
    CHECK(p.weight_download_time_s[k] == Approx(8 * weights[k] / 8e6).epsilon(1e-12));
    CHECK(p.weight_download_energy_j[k] ==
          Approx(eq21_j(100, 800, weights[k], 8 * weights[k] / 8e6)).epsilon(1e-12));
  }
  CHECK(p.weight_download_time_s[5] == Approx(0.1004));
}

TEST_CASE("updated_fraction scales the weight downloads") {
  const Setup f(chain_fc());
  const TrainingProblem quarter = build_training_problem(f.ctx, ScenarioSetup{}, 0.25);
  CHECK(quarter.weight_bytes[5] == 25100);  // 0.25 x 100,400 B
  CHECK(quarter.scenario.problem.weight_download_time_s[5] == Approx(0.0251));
  // Whole bytes, rounded up (a fraction of a byte never completes as a SimGrid flow):
  // 1e-4 x 2,040 B = 0.204 B -> 1 B; 1e-4 x 100,400 B = 10.04 B -> 11 B.
  const TrainingProblem tiny = build_training_problem(f.ctx, ScenarioSetup{}, 1e-4);
  CHECK(tiny.weight_bytes[3] == 1);
  CHECK(tiny.weight_bytes[5] == 11);
  const TrainingProblem none = build_training_problem(f.ctx, ScenarioSetup{}, 0.0);
  for (double t : none.scenario.problem.weight_download_time_s) CHECK(t == 0.0);
  // With nothing to download, a backward group on the cloud adds no weight transfer to the plan.
  const Solution s = make_solution(none.scenario.problem, {{1, 6, Side::cloud}});
  const Plan plan = plan_of_training_schedule(none, s, "t");
  CHECK(std::none_of(plan.tasks.begin(), plan.tasks.end(),
                     [](const Task& t) { return t.id.rfind("weights-", 0) == 0; }));
  CHECK_THROWS_WITH(build_training_problem(f.ctx, ScenarioSetup{}, 1.5),
                    Contains("partitioner.updated_fraction"));
}

// Brute force over the 2^6 side assignments of the six layers, costed from first principles
// (per-layer host times x scale, a crossing where neighbours differ, weights of cloud backward
// layers), equals the solver's optimum for latency and energy and every updated fraction.
TEST_CASE("brute force over all 2N side assignments equals the training solver") {
  const Setup f(chain_fc());
  const auto objective = GENERATE(Objective::latency, Objective::energy);
  const double fraction = GENERATE(0.0, 0.3, 1.0);
  const TrainingProblem tp = build_training_problem(f.ctx, with_objective(objective), fraction);
  const HostProfile fwd = estimate_host_profile(f.graph, HostSpeed::nominal());
  const HostProfile bwd = estimate_backward_profile(f.graph, HostSpeed::nominal());
  const auto host = [&](int k) { return k <= 3 ? fwd.layers[k].median_s : bwd.layers[7 - k].median_s; };
  const std::array<double, 7> bytes = {1000, 400, 200, 40, 200, 400, 0};
  const std::array<double, 7> weights = {0, 0, 0, 0, 2040, 20200, 100400};  // [k], k = 4..6 backward
  double best = 1e300;
  for (unsigned mask = 0; mask < 64; ++mask) {
    const auto cloud = [&](int k) { return k >= 1 && (mask >> (k - 1) & 1u); };
    double latency = 0.0, energy = 0.0;
    for (int k = 1; k <= 6; ++k) {
      const double t = host(k) * (cloud(k) ? 0.5 : 20.0);
      latency += t;
      if (!cloud(k)) energy += 3.0 * t;
      if (cloud(k) && weights[k] > 0) {
        const double w = fraction * weights[k], tw = 8 * w / 8e6;
        latency += tw;
        energy += eq21_j(100, 800, w, tw);
      }
      if (cloud(k) != cloud(k - 1)) {
        const double up = 8 * bytes[k - 1] / 4e6, down = 8 * bytes[k - 1] / 8e6;
        latency += cloud(k) ? up : down;
        energy += cloud(k) ? eq21_j(300, 800, bytes[k - 1], up) : eq21_j(100, 800, bytes[k - 1], down);
      }
    }
    best = std::min(best, objective == Objective::latency ? latency : energy);
  }
  for (auto solver : {SolverChoice::automatic, SolverChoice::ilp, SolverChoice::labels}) {
    const Solution s = solve_scenario_problem(tp.scenario, solver);
    CHECK(objective_value(tp.scenario.problem, s.cost) == Approx(best).epsilon(1e-9));
  }
}

// The analytic latency and active energy of the chosen training plan equal the replay's for one
// step (the plan is one chain; weight downloads follow their cloud group). At fraction 0.003
// OverFeat over Wi-Fi runs some backward layers on the cloud and downloads their weights. Chair
// brings the transposed convolution and the upsampling layers (their backward kernels), Deep Speech
// the fc layers on (T, F) sequences and the bidirectional LSTM, ResNet-18 (Table 2's ResNet) the
// residual adds and projection shortcuts (mirrored skips and detached layers in the backward half).
TEST_CASE(
    "analytic latency and energy of the chosen AlexNet, OverFeat, Chair, Deep Speech and ResNet training "
    "plans equal the replay's") {
  const testing::Tx2K40 f(
      build_zoo_model(GENERATE(as<std::string>{}, "alexnet", "overfeat", "chair", "deepspeech", "resnet18")));
  ScenarioSetup setup;
  setup.cloud = "k40";
  setup.network = GENERATE(as<std::string>{}, "3g", "wifi", "4g_rrc");
  setup.objective = GENERATE(Objective::latency, Objective::energy);
  const TrainingProblem tp = build_training_problem(f.ctx, setup, GENERATE(0.003, 1.0));
  const Solution s = solve_scenario_problem(tp.scenario, SolverChoice::automatic);
  INFO(setup.network << " groups " << s.groups.size());
  check_solved_replay(f, tp, s);
}

// A batch-B step: backward layers cost the batch-B forward times x each layer's backward / forward
// ratio, activations and gradients cross B x the tensor, the updated weights come down once per
// step, and the chosen plan replays as costed.
TEST_CASE("a batch-B training step costs batch-B layers and B x the crossings and its weights once") {
  const testing::Tx2K40 f(build_zoo_model("alexnet"));
  ScenarioSetup one;
  one.cloud = "k40";
  one.network = "wifi";
  ScenarioSetup four = one;
  four.batch = 4;
  const TrainingProblem t1 = build_training_problem(f.ctx, one, 1.0);
  const TrainingProblem t4 = build_training_problem(f.ctx, four, 1.0);
  for (std::size_t k = 0; k < t1.crossing_bytes.size(); ++k)
    CHECK(t4.crossing_bytes[k] == 4.0 * t1.crossing_bytes[k]);
  CHECK(t4.weight_bytes == t1.weight_bytes);
  const int n = t4.forward_layers;
  const CostModel back4(f.graph,
                        backward_profile_of(f.graph, estimate_host_profile(f.graph, HostSpeed::nominal(), 4)),
                        MeasuredProfile::AsMeasured);
  const DeviceCalibration& tx2 = f.platform.devices[f.platform.device_index("tx2")].calibration;
  const auto whole_backward = static_cast<std::size_t>(n);
  CHECK(t4.scenario.problem.mobile_time_s[n].back() ==
        Approx(back4.range_time_s(1, whole_backward, tx2, false)).epsilon(1e-12));
  CHECK(t4.scenario.problem.mobile_time_s[n].back() > 2.0 * t1.scenario.problem.mobile_time_s[n].back());
  const Solution s = solve_scenario_problem(t4.scenario, SolverChoice::automatic);
  const SimulationResult r =
      simulate_in_child(f.platform, {plan_of_training_schedule(t4, s, "jointdnn")}, single_workload());
  CHECK(r.frames[0].latency_s() == Approx(s.cost.latency_s).epsilon(1e-9));
}

// A forced mobile -> cloud -> mobile step (Fig. 11's training pattern) replays as costed, the
// wake-up of 4g_rrc included, with one weight download per cloud backward layer with weights.
TEST_CASE("a mobile-cloud-mobile training schedule replays as the problem costs it") {
  const testing::Tx2K40 f(build_zoo_model("alexnet"));
  const TrainingProblem tp = rrc_training_problem(f);
  const int n = tp.forward_layers;
  const Solution s =
      make_solution(tp.scenario.problem,
                    {{1, n - 3, Side::mobile}, {n - 2, n + 3, Side::cloud}, {n + 4, 2 * n, Side::mobile}});
  const Plan plan = plan_of_training_schedule(tp, s, "jointdnn");
  const auto downloads = std::count_if(plan.tasks.begin(), plan.tasks.end(),
                                       [](const Task& t) { return t.id.rfind("weights-", 0) == 0; });
  CHECK(downloads == std::count_if(tp.weight_bytes.begin() + n, tp.weight_bytes.begin() + n + 3,
                                   [](double b) { return b > 0.0; }));
  check_forced_replay(f, tp, s, plan);
}

TEST_CASE("training a model with a layer without a backward kernel names the layer") {
  // A pruned (CSR) fc layer is the one kind without a backward kernel.
  GraphBuilder b("sparse_chain");
  LayerAttrs sparse;
  sparse.units = 10;
  sparse.sparsity = 0.5;
  b.add("fc_sparse", OpKind::FullyConnected, {b.fc(b.input("data", {64}), "fc1", 32)}, sparse);
  const Setup f(b.build());
  CHECK_THROWS_WITH(build_training_problem(f.ctx, ScenarioSetup{}, 1.0),
                    Contains("layer 'fc_sparse' (fc) has no backward kernel") && Contains("model"));
}

TEST_CASE("the jointdnn partitioner in mode training plans forward and backward tasks") {
  PartitionerRegistry registry("partitioner");
  coinfer::register_jointdnn_partitioners(registry);
  const Setup f(chain_fc());
  const auto part = registry.create("jointdnn", Json{{"mode", "training"}, {"solver", "cloud-only"}});
  const Plan plan = part->partition(f.ctx);
  const auto labelled = [&](const char* what) {
    return std::any_of(plan.tasks.begin(), plan.tasks.end(),
                       [&](const Task& t) { return t.label.find(what) != std::string::npos; });
  };
  CHECK(labelled("fwd+bwd fc1..d:fc1"));
  CHECK(labelled("weights fc1"));
  // Neurosurgeon trains too: its single split over the 2N layers.
  const Plan split = registry.create("neurosurgeon", Json{{"mode", "training"}})->partition(f.ctx);
  CHECK(std::any_of(split.tasks.begin(), split.tasks.end(),
                    [](const Task& t) { return t.label.find("d:fc1") != std::string::npos; }));
  CHECK_THROWS_WITH(registry.create("jointdnn", Json{{"updated_fraction", 0.5}}),
                    Contains("applies to mode: training only"));
}
