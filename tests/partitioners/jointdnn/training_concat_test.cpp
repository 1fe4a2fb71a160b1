// JointDNN online training on concat models (U-Net skips, sec. 2.3-2.4): a concat's backward sends
// each producer its own slice of the gradient, modelled by zero-compute slice layers; checked by
// hand, against a per-edge brute force written here, and in the replay on Pix2Pix's U-Net.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "partitioners/jointdnn/training_problem.hpp"
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

// A U-Net level in miniature: data 100 floats (400 B) -> fc a 50 (200 B) -> fc b 30 (120 B) ->
// concat(a, b) 80 (320 B) -> fc c 10 (40 B). Parameters: a 5,050, b 1,530, c 810.
Graph unet_fc() {
  GraphBuilder b("unet_fc");
  const auto a = b.fc(b.input("data", {100}), "a", 50);
  const auto x = b.fc(a, "b", 30);
  b.fc(b.concat({a, x}, "cat"), "c", 10);
  return b.build();
}

int index_of(const TrainingProblem& tp, const std::string& name) {
  const auto it = std::find(tp.names.begin(), tp.names.end(), name);
  REQUIRE(it != tp.names.end());
  return static_cast<int>(it - tp.names.begin());
}

}  // namespace

// Problem layers 1..4 = a, b, cat, c; 5, 6 = d:c, d:cat; 7, 8 = the slices of dL/d(cat out) for
// a (input 0) and b (input 1); 9, 10 = d:b, d:a. Edges: forward as in inference (cat reads a by
// the skip [1, 3]); d:c reads c (the loss); d:cat reads d:c; both slices read d:cat (the second by
// the skip [6, 8], so 8 is detached); d:b reads its slice (8, chain); d:a reads d:b (chain) and
// its slice (skip [7, 10]). Crossings: d:c = dL/d(cat out) 320 B, d:cat = the same G 320 B, the
// slices 200 B (a's part) and 120 B (b's), d:b = dL/d(a out) 200 B, d:a none.
TEST_CASE("the training problem of a concat: slice layers between the concat's and its producers' backward") {
  const Setup f(unet_fc());
  const TrainingProblem tp = build_training_problem(f.ctx, ScenarioSetup{}, 1.0);
  const Problem& p = tp.scenario.problem;
  REQUIRE(p.layers == 10);
  CHECK(tp.names == std::vector<std::string>{"input", "a", "b", "cat", "c", "d:c", "d:cat", "d:cat/0",
                                             "d:cat/1", "d:b", "d:a"});
  CHECK(tp.producers ==
        std::vector<std::vector<int>>{{}, {0}, {1}, {1, 2}, {3}, {4}, {5}, {6}, {6}, {8}, {7, 9}});
  std::vector<std::pair<int, int>> skips;
  for (const Skip& s : p.skips) skips.emplace_back(s.from_layer, s.to_layer);
  std::sort(skips.begin(), skips.end());
  CHECK(skips == std::vector<std::pair<int, int>>{{1, 3}, {6, 8}, {7, 10}});
  CHECK(p.detached == std::vector<int>{8});
  CHECK(tp.crossing_bytes == std::vector<double>{400, 200, 120, 320, 40, 320, 320, 200, 120, 200, 0});
  CHECK(tp.weight_bytes == std::vector<double>{0, 0, 0, 0, 3240, 0, 0, 0, 6120, 20200});
  // Slices cost nothing on either side; a group with them costs what its other layers cost.
  CHECK(p.group_time_s(7, 8, Side::mobile) == 0.0);
  CHECK(p.group_time_s(6, 9, Side::cloud) ==
        Approx(p.group_time_s(6, 6, Side::cloud) + p.group_time_s(9, 9, Side::cloud)).epsilon(1e-12));
  CHECK(p.group_time_s(6, 6, Side::mobile) > 0.0);  // the concat's backward (a copy) has its host time
}

// Only b's backward on the server: b's slice (120 B) goes up, not the whole gradient (320 B);
// dL/d(a out) comes back down for d:a, and b's updated weights. With the slices on the server
// instead, G goes up once and a's slice comes back down as well.
TEST_CASE("a concat's gradient crosses as the slice a producer's backward reads, or whole once") {
  const Setup f(unet_fc());
  const TrainingProblem tp = build_training_problem(f.ctx, ScenarioSetup{}, 1.0);
  const Problem& p = tp.scenario.problem;
  const auto crossings = [&](const std::vector<Group>& groups) {
    const Solution s = make_solution(p, groups);
    std::vector<std::string> ids;
    for (const Task& t : plan_of_training_schedule(tp, s, "jointdnn").tasks)
      if (t.id.rfind("g", 0) != 0) ids.push_back(t.id);
    double compute = 0.0;
    for (const Group& g : groups) compute += p.group_time_s(g.first, g.last, g.on);
    return std::pair{ids, s.cost.latency_s - compute};
  };
  const auto [slice_ids, slice_s] =
      crossings({{1, 8, Side::mobile}, {9, 9, Side::cloud}, {10, 10, Side::mobile}});
  CHECK(slice_ids == std::vector<std::string>{"up-d:cat/1", "weights-b", "down-d:b"});
  CHECK(slice_s == Approx(8 * 120 / 4e6 + 8 * 6120 / 8e6 + 8 * 200 / 8e6).epsilon(1e-12));
  const auto [whole_ids, whole_s] =
      crossings({{1, 6, Side::mobile}, {7, 9, Side::cloud}, {10, 10, Side::mobile}});
  CHECK(whole_ids == std::vector<std::string>{"up-d:cat", "weights-b", "down-d:cat/0", "down-d:b"});
  CHECK(whole_s == Approx(8 * 320 / 4e6 + 8 * 6120 / 8e6 + 8 * 200 / 8e6 + 8 * 200 / 8e6).epsilon(1e-12));
}

// Brute force over the 2^8 sides of the real layers (a, b, cat, c, d:c, d:cat, d:b, d:a) and the
// two ways the concat's gradient can reach the far side (each producer's slice on its own, or the
// whole gradient once), costed per edge from first principles: per-layer host times x scale, each
// real output crossing once to a side where one of its hand-listed readers runs, weights of cloud
// backward layers. With a per-transfer latency, one transfer of the whole gradient can beat two
// slices. A slow handset (scale 2000) and a cap on the server's time (0.4 x all of it) put the
// optimum inside the concat's region; every solver's optimum equals the brute force's.
TEST_CASE("brute force over per-edge gradient routing through a concat equals the training solvers") {
  Setup f(unet_fc());
  const double latency_s = GENERATE(0.0, 0.004);
  f.platform.networks[0].uplink.latency_s = f.platform.networks[0].downlink.latency_s = latency_s;
  const double scale = GENERATE(20.0, 2000.0);
  for (auto& [op, x] : f.platform.devices[0].calibration.edit().op_scale) x = scale;
  const double cap = GENERATE(0.0, 0.4);  // x the server time of the whole step; 0: no cap
  ScenarioSetup setup = with_objective(GENERATE(Objective::latency, Objective::energy));
  const double fraction = GENERATE(0.0, 1.0);
  const HostProfile fwd = estimate_host_profile(f.graph, HostSpeed::nominal());
  const HostProfile bwd = estimate_backward_profile(f.graph, HostSpeed::nominal());
  // Real layers r = 0..7: a, b, cat, c (topological positions 1..4), d:c, d:cat, d:b, d:a.
  const std::array<double, 8> host = {fwd.layers[1].median_s, fwd.layers[2].median_s, fwd.layers[3].median_s,
                                      fwd.layers[4].median_s, bwd.layers[4].median_s, bwd.layers[3].median_s,
                                      bwd.layers[2].median_s, bwd.layers[1].median_s};
  double all_cloud_s = 0.0;
  for (double h : host) all_cloud_s += 0.5 * h;
  if (cap > 0.0) setup.max_cloud_time_s = cap * all_cloud_s;
  const TrainingProblem tp = build_training_problem(f.ctx, setup, fraction);
  const std::array<double, 8> weights = {0, 0, 0, 0, 3240, 0, 6120, 20200};
  // Outputs other than the concat's gradient: {producer (-1: the input, on the mobile), bytes, readers}.
  struct Edge {
    int from;
    double bytes;
    std::vector<int> readers;
  };
  const std::vector<Edge> edges = {{-1, 400, {0}}, {0, 200, {1, 2}}, {1, 120, {2}}, {2, 320, {3}},
                                   {3, 40, {4}},   {4, 320, {5}},    {6, 200, {7}}};
  double best = 1e300;
  bool best_crosses_gradient = false;
  for (unsigned mask = 0; mask < (1u << 8); ++mask)
    for (const bool whole : {false, true}) {
      const auto cloud = [&](int r) { return r >= 0 && (mask >> r & 1u); };
      double latency = 0.0, energy = 0.0, cloud_s = 0.0;
      const auto cross = [&](bool up, double bytes) {
        const double t = latency_s + 8 * bytes / (up ? 4e6 : 8e6);
        latency += t;
        energy += eq21_j(up ? 300 : 100, 800, bytes, t);
      };
      for (int r = 0; r < 8; ++r) {
        const double t = host[r] * (cloud(r) ? 0.5 : scale);
        latency += t;
        (cloud(r) ? cloud_s : energy) += cloud(r) ? t : 3.0 * t;
        if (cloud(r) && fraction * weights[r] > 0) cross(false, fraction * weights[r]);
      }
      for (const Edge& e : edges)
        if (std::any_of(e.readers.begin(), e.readers.end(), [&](int r) { return cloud(r) != cloud(e.from); }))
          cross(!cloud(e.from), e.bytes);
      // dL/d(cat out) from d:cat (5) to d:a (7, a's slice 200 B) and d:b (6, b's slice 120 B).
      const bool far_a = cloud(7) != cloud(5), far_b = cloud(6) != cloud(5);
      if (whole && (far_a || far_b)) cross(!cloud(5), 320);
      if (!whole && far_a) cross(!cloud(5), 200);
      if (!whole && far_b) cross(!cloud(5), 120);
      if (cap > 0.0 && !within_limit(cloud_s, cap * all_cloud_s)) continue;
      const double value = setup.objective == Objective::latency ? latency : energy;
      if (value < best) std::tie(best, best_crosses_gradient) = std::pair{value, far_a || far_b};
    }
  INFO("latency " << latency_s << " scale " << scale << " cap " << cap << " fraction " << fraction);
  for (auto solver : {SolverChoice::automatic, SolverChoice::ilp, SolverChoice::labels}) {
    const Solution s = solve_scenario_problem(tp.scenario, solver);
    CHECK(objective_value(tp.scenario.problem, s.cost) == Approx(best).epsilon(1e-9));
  }
  // Without transfer latency, the slow handset and the cap put the concat's gradient across the cut
  // (a check of the case, not of the solvers).
  if (scale > 20.0 && cap > 0.0 && latency_s == 0.0) CHECK(best_crosses_gradient);
}

TEST_CASE("training a concat that reads one layer twice names the concat and the layer") {
  GraphBuilder b("twice");
  const auto a = b.fc(b.input("data", {64}), "fc1", 32);
  b.fc(b.concat({a, a}, "cat"), "fc2", 10);
  const Setup f(b.build());
  CHECK_THROWS_WITH(build_training_problem(f.ctx, ScenarioSetup{}, 1.0),
                    Contains("concat 'cat' reads layer 'fc1' more than once"));
}

// Pix2Pix's U-Net: 7 concats, each with an encoder and a decoder input, give 14 slice layers;
// the chosen plans replay as the problem costs them (wake-up of 4g_rrc included).
TEST_CASE("analytic latency and energy of the chosen Pix2Pix training plans equal the replay's") {
  const Tx2K40 f(build_zoo_model("pix2pix"));
  ScenarioSetup setup;
  setup.cloud = "k40";
  setup.network = GENERATE(as<std::string>{}, "wifi", "4g_rrc");
  setup.objective = GENERATE(Objective::latency, Objective::energy);
  const TrainingProblem tp = build_training_problem(f.ctx, setup, 1.0);
  CHECK(tp.scenario.problem.layers == 2 * tp.forward_layers + 14);
  check_solved_replay(f, tp, solve_scenario_problem(tp.scenario, SolverChoice::automatic));
}

// A forced Pix2Pix step split across the skips in both halves: the encoder to down3 on the TX2,
// the rest of the forward pass and the backward pass down to up3's concat slices on the K40c, the
// rest on the TX2. Forward, the encoder outputs of levels 1 and 2 (down1.conv, down2.bn) go up
// for the concats of up2 and up3, with down3.conv for the chain; backward, the encoder slices (/0)
// of up2's and up3's concat gradients come down for d:down1.conv and d:down2.bn, and up3's decoder
// slice (/1) for d:up3.bn. Nothing else of the two concat gradients crosses.
TEST_CASE("a Pix2Pix training schedule split across the U-Net skips replays as the problem costs it") {
  const Tx2K40 f(build_zoo_model("pix2pix"));
  const TrainingProblem tp = rrc_training_problem(f);
  const int down3 = index_of(tp, "down3.conv"), slice = index_of(tp, "d:up3.concat/1");
  const Solution s =
      make_solution(tp.scenario.problem, {{1, down3, Side::mobile},
                                          {down3 + 1, slice, Side::cloud},
                                          {slice + 1, tp.scenario.problem.layers, Side::mobile}});
  const Plan plan = plan_of_training_schedule(tp, s, "jointdnn");
  std::vector<std::string> crossings;
  for (const Task& t : plan.tasks)
    if (t.id.rfind("up-", 0) == 0 || t.id.rfind("down-", 0) == 0) crossings.push_back(t.id);
  CHECK(crossings == std::vector<std::string>{"up-down1.conv", "up-down2.bn", "up-down3.conv",
                                              "down-d:up2.concat/0", "down-d:up3.concat/0",
                                              "down-d:up3.concat/1"});
  check_forced_replay(f, tp, s, plan);
}

// Inception-BN's ten modules concat four branches (three in 3c and 4e) that all read the module input: the
// slices of each concat's gradient go to four backward branches, whose outputs b(module input) sums. The
// chosen step over 4g_rrc (wake-up included) replays as costed.
TEST_CASE("Inception-BN trains through its four-way concats and replays as the problem costs it") {
  const Tx2K40 f(build_zoo_model("inception_bn"));
  const TrainingProblem tp = rrc_training_problem(f);
  const auto slices = std::count_if(tp.backward.begin(), tp.backward.end(),
                                    [](const BackwardLayer& b) { return b.is_slice(); });
  CHECK(tp.scenario.problem.layers == 2 * tp.forward_layers + slices);
  CHECK(slices == 8 * 4 + 2 * 3);  // 3c and 4e have no 1x1 branch and a max pool without projection
  check_solved_replay(f, tp, solve_scenario_problem(tp.scenario, SolverChoice::automatic));
}
