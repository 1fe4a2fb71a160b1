// JointDNN online training on residual models (sec. 2.3-2.4): the backward half as the reverse
// DAG of the forward one (mirrored skips, detached layers, gradient crossings), checked by hand,
// against brute force, and in the replay on ResNet-18 (concat models: training_concat_test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "partitioners/jointdnn/training_problem.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "tests/partitioners/jointdnn/training_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using namespace coinfer::jointdnn::testing;

namespace {

// The brief's residual block: data 100 floats (400 B) -> fc a 50 (200 B) -> fc b 50 -> add(a, b)
// -> fc c 10 (40 B). With `projection`, the shortcut is an fc p 50 of a, built after b (so p is
// detached: it does not read b) and b is 30 wide: add(b, p) 30 (120 B), fc c 10.
Graph residual_fc(bool projection) {
  GraphBuilder b(projection ? "residual_projection" : "residual_fc");
  const auto a = b.fc(b.input("data", {100}), "a", 50);
  const auto x = b.fc(a, "b", projection ? 30 : 50);
  const auto shortcut = projection ? b.fc(a, "p", 30) : a;
  b.fc(b.add_op({x, shortcut}, "add"), "c", 10);
  return b.build();
}

}  // namespace

// The projection block, problem layers 1..5 = a, b, p, add, c; 6..10 = d:c, d:add, d:p, d:b, d:a.
// Forward edges: 0->a, a->b, a->p (skip [1, 3]; p is detached, it does not read b), b->add (skip
// [2, 4]), p->add, add->c. Backward = the reverse DAG, b(u) -> b(v) per forward edge v -> u:
//   c -> d:c (5 -> 6, the loss gradient), d:c -> d:add (6 -> 7, chain),
//   d:add -> d:p (7 -> 8, chain: add reads p), d:add -> d:b (7 -> 9, skip [7, 9]: add reads b),
//   d:p -> d:a (8 -> 10, skip [8, 10]: p reads a), d:b -> d:a (9 -> 10, chain: b reads a);
//   d:b does not read d:p (p does not read b): layer 9 is detached.
// Backward crossings: d:c = dL/d(add out) 120 B; d:add passes dL/d(add out) (120 B) to both d:p and
// d:b, one tensor crossing once; d:p = dL/d(a out) 200 B (not 120 B, b's output, as a chain's
// mirror would have it); d:b = dL/d(a out) 200 B; d:a = dL/d(input) is not needed: 0.
TEST_CASE("the training problem of a residual block with a projection: mirrored skips and crossings") {
  const Setup f(residual_fc(true));
  const TrainingProblem tp = build_training_problem(f.ctx, ScenarioSetup{}, 1.0);
  const Problem& p = tp.scenario.problem;
  REQUIRE(p.layers == 10);
  CHECK(tp.names ==
        std::vector<std::string>{"input", "a", "b", "p", "add", "c", "d:c", "d:add", "d:p", "d:b", "d:a"});
  std::vector<std::pair<int, int>> skips;
  for (const Skip& s : p.skips) skips.emplace_back(s.from_layer, s.to_layer);
  std::sort(skips.begin(), skips.end());
  CHECK(skips == std::vector<std::pair<int, int>>{{1, 3}, {2, 4}, {7, 9}, {8, 10}});
  CHECK(p.detached == std::vector<int>{3, 9});
  CHECK(tp.producers ==
        std::vector<std::vector<int>>{{}, {0}, {1}, {1}, {2, 3}, {4}, {5}, {6}, {7}, {7}, {8, 9}});
  const std::array<double, 11> bytes = {400, 200, 120, 120, 120, 40, 120, 120, 200, 200, 0};
  for (int k = 0; k <= 10; ++k) {
    CHECK(tp.crossing_bytes[k] == bytes[k]);
    CHECK(p.upload_time_s[k] == Approx(8 * bytes[k] / 4e6).epsilon(1e-12));
    CHECK(p.download_energy_j[k] == Approx(eq21_j(100, 800, bytes[k], 8 * bytes[k] / 8e6)).epsilon(1e-12));
  }
  // Weights: c 310 parameters (1,240 B), add none, p and b 1,530 (6,120 B), a 5,050 (20,200 B).
  CHECK(std::vector<double>(tp.weight_bytes.begin() + 5, tp.weight_bytes.end()) ==
        std::vector<double>{1240, 0, 6120, 6120, 20200});
}

TEST_CASE("training a residual add without projection mirrors the skip from a to add") {
  const Setup f(residual_fc(false));
  const TrainingProblem tp = build_training_problem(f.ctx, ScenarioSetup{}, 1.0);
  // Layers 1..4 = a, b, add, c; 5..8 = d:c, d:add, d:b, d:a. Forward skip [1, 3] (add reads a);
  // backward skip [6, 8] (d:add sends dL/d(add out) straight to d:a); nothing detached.
  REQUIRE(tp.scenario.problem.skips.size() == 2);
  CHECK(tp.scenario.problem.skips[1].from_layer == 6);
  CHECK(tp.scenario.problem.skips[1].to_layer == 8);
  CHECK(tp.scenario.problem.detached.empty());
  CHECK(tp.crossing_bytes == std::vector<double>{400, 200, 200, 200, 40, 200, 200, 200, 0});
}

// Brute force over the 2^2N side assignments of the two residual blocks, costed from first
// principles (per-layer host times x scale; each output crossing once to a side where one of its
// hand-listed consumers runs; weights of cloud backward layers) equals every solver's optimum.
TEST_CASE("brute force over all 2N side assignments of a residual block equals the training solvers") {
  const bool projection = GENERATE(false, true);
  const Setup f(residual_fc(projection));
  const auto objective = GENERATE(Objective::latency, Objective::energy);
  const double fraction = GENERATE(0.0, 1.0);
  const TrainingProblem tp = build_training_problem(f.ctx, with_objective(objective), fraction);
  const HostProfile fwd = estimate_host_profile(f.graph, HostSpeed::nominal());
  const HostProfile bwd = estimate_backward_profile(f.graph, HostSpeed::nominal());
  // [j]: the layers reading output j, and its bytes; derived in the comments above.
  const std::vector<std::vector<int>> readers =
      projection ? std::vector<std::vector<int>>{{1}, {2, 3}, {4}, {4}, {5}, {6}, {7}, {8, 9}, {10}, {10}, {}}
                 : std::vector<std::vector<int>>{{1}, {2, 3}, {3}, {4}, {5}, {6}, {7, 8}, {8}, {}};
  const std::vector<double> bytes =
      projection ? std::vector<double>{400, 200, 120, 120, 120, 40, 120, 120, 200, 200, 0}
                 : std::vector<double>{400, 200, 200, 200, 40, 200, 200, 200, 0};
  const std::vector<double> weights = projection
                                          ? std::vector<double>{0, 0, 0, 0, 0, 1240, 0, 6120, 6120, 20200}
                                          : std::vector<double>{0, 0, 0, 0, 2040, 0, 10200, 20200};
  const int n2 = static_cast<int>(weights.size()), n = n2 / 2;
  const auto host = [&](int k) { return k <= n ? fwd.layers[k].median_s : bwd.layers[n2 + 1 - k].median_s; };
  double best = 1e300;
  for (unsigned mask = 0; mask < (1u << n2); ++mask) {
    const auto cloud = [&](int k) { return k >= 1 && k <= n2 && (mask >> (k - 1) & 1u); };
    double latency = 0.0, energy = 0.0;
    for (int k = 1; k <= n2; ++k) {
      const double t = host(k) * (cloud(k) ? 0.5 : 20.0);
      latency += t;
      if (!cloud(k)) energy += 3.0 * t;
      if (cloud(k) && weights[k - 1] > 0) {
        const double w = fraction * weights[k - 1], tw = 8 * w / 8e6;
        latency += tw;
        energy += eq21_j(100, 800, w, tw);
      }
    }
    for (int j = 0; j < n2; ++j)
      if (std::any_of(readers[j].begin(), readers[j].end(), [&](int r) { return cloud(r) != cloud(j); })) {
        const double up = 8 * bytes[j] / 4e6, down = 8 * bytes[j] / 8e6;
        latency += cloud(j) ? down : up;
        energy += cloud(j) ? eq21_j(100, 800, bytes[j], down) : eq21_j(300, 800, bytes[j], up);
      }
    best = std::min(best, objective == Objective::latency ? latency : energy);
  }
  for (auto solver : {SolverChoice::automatic, SolverChoice::ilp, SolverChoice::labels}) {
    const Solution s = solve_scenario_problem(tp.scenario, solver);
    CHECK(objective_value(tp.scenario.problem, s.cost) == Approx(best).epsilon(1e-9));
  }
}

// A ResNet-18 step forced to split inside the first residual block in both halves: forward, the
// K40c's group starts at layer1.0.conv2 and reads both bn1's output (relu1) and the block input
// (maxpool, via the skip to layer1.0.add): two uploads at one boundary. Backward, the TX2 takes
// over at d:layer1.0.relu1: it reads d:layer1.0.conv2 (chain) and d:layer1.0.add (mirrored skip to
// d:maxpool): two downloads. The replay, wake-up included, takes what the problem costs.
TEST_CASE("a ResNet training schedule split inside a residual block replays as the problem costs it") {
  const testing::Tx2K40 f(build_zoo_model("resnet18"));
  const TrainingProblem tp = rrc_training_problem(f);
  const int n = tp.forward_layers;
  const auto at = [&](const std::string& name) {
    return static_cast<int>(std::find(tp.names.begin(), tp.names.end(), name) - tp.names.begin());
  };
  const int i = at("layer1.0.relu1");
  REQUIRE(at("layer1.0.conv2") == i + 1);
  REQUIRE(at("d:layer1.0.relu1") == 2 * n + 1 - i);
  const Solution s = make_solution(
      tp.scenario.problem,
      {{1, i, Side::mobile}, {i + 1, 2 * n - i, Side::cloud}, {2 * n + 1 - i, 2 * n, Side::mobile}});
  const Plan plan = plan_of_training_schedule(tp, s, "jointdnn");
  std::vector<std::string> crossings;
  for (const Task& t : plan.tasks)
    if ((t.id.rfind("up-", 0) == 0 || t.id.rfind("down-", 0) == 0)) crossings.push_back(t.id);
  CHECK(crossings == std::vector<std::string>{"up-maxpool", "up-layer1.0.relu1", "down-d:layer1.0.add",
                                              "down-d:layer1.0.conv2"});
  check_forced_replay(f, tp, s, plan);
}
