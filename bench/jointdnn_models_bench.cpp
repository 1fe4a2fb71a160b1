// JointDNN on real models: building and solving the scenario problem for ResNet-152
// and Inception-BN (the biggest residual and branching models of the zoo) on the Jetson TX2 +
// Tesla K40c platform over 4G, with the problem's size; then the labels-vs-ILP time ratio on real
// models' constrained problems, 8-bit tensors on the wire: minimise energy under a QoS deadline
// halfway between the fastest schedule's latency and the most frugal one's (sec. 2.4.5, eq. 20).
// Prints measured times and ratios.
//
//     build/bench/jointdnn_models_bench [repeats=3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "partitioners/jointdnn/jointdnn_graph.hpp"
#include "partitioners/jointdnn/scenario_problem.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"

namespace {

using namespace coinfer;
using namespace coinfer::jointdnn;

template <class F>
double median_s(int repeats, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct ModelCase {
  Graph graph;
  CostModel cost;
  explicit ModelCase(const std::string& name)
      : graph(build_zoo_model(name)), cost(graph, estimate_host_profile(graph, HostSpeed::nominal())) {}
};

/// Largest number of graph states at one layer boundary (2 x 3^open skip sources).
std::size_t widest_boundary(const Problem& p) {
  const JointDnnGraph g(p);
  std::size_t w = 0;
  for (int j = 0; j <= p.layers; ++j) w = std::max(w, g.states(j));
  return w;
}

void size_and_solve(const Platform& platform, const std::string& model, int repeats) {
  const ModelCase m(model);
  const PartitionContext ctx{m.graph, platform, m.cost, "tx2"};
  ScenarioSetup setup;
  setup.network = "4g";
  ScenarioProblem sp;
  const double build_s = median_s(repeats, [&] { sp = build_scenario_problem(ctx, setup); });
  Solution s;
  const double solve_s =
      median_s(repeats, [&] { s = solve_scenario_problem(sp, SolverChoice::shortest_path); });
  const int n = sp.problem.layers;
  std::printf(
      "%-13s layers %4d  skips %4zu  detached %4zu  group entries %8lld  widest boundary %6zu states"
      "  build %8.1f ms  shortest path %8.1f ms  (%zu groups)\n",
      model.c_str(), n, sp.problem.skips.size(), sp.problem.detached.size(),
      static_cast<long long>(n) * (n + 1) / 2, widest_boundary(sp.problem), build_s * 1e3, solve_s * 1e3,
      s.groups.size());
}

void labels_vs_ilp(const Platform& platform, const std::string& model, const std::string& network,
                   int repeats) {
  const ModelCase m(model);
  const PartitionContext ctx{m.graph, platform, m.cost, "tx2"};
  ScenarioSetup setup;
  setup.network = network;
  setup.int8_wire = true;  // the paper's 8-bit tensors, where offloading VGG-16 pays over Wi-Fi
  const double fastest_s =
      solve_scenario_problem(build_scenario_problem(ctx, setup), SolverChoice::automatic).cost.latency_s;
  setup.objective = Objective::energy;
  const double frugal_s =
      solve_scenario_problem(build_scenario_problem(ctx, setup), SolverChoice::automatic).cost.latency_s;
  setup.max_latency_s = 0.5 * (fastest_s + frugal_s);  // binds whenever the two schedules differ
  const auto sp = build_scenario_problem(ctx, setup);
  Solution labels, ilp;
  const double labels_s =
      median_s(repeats, [&] { labels = solve_scenario_problem(sp, SolverChoice::labels); });
  const double ilp_s = median_s(repeats, [&] { ilp = solve_scenario_problem(sp, SolverChoice::ilp); });
  std::printf(
      "%-9s %-5s QoS %.4g s, min energy: labels %.6g J in %8.2f ms, ILP %.6g J in %8.2f ms, "
      "ILP / labels time %.1fx\n",
      model.c_str(), network.c_str(), *setup.max_latency_s, labels.cost.energy_j, labels_s * 1e3,
      ilp.cost.energy_j, ilp_s * 1e3, ilp_s / labels_s);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  std::printf("JointDNN scenario problems, TX2 + K40c over 4G, median of %d\n", repeats);
  for (const char* model : {"resnet18", "resnet152", "inception_bn"})
    size_and_solve(platform, model, repeats);
  std::printf("labels vs ILP (GLPK) on constrained real problems\n");
  for (const char* model : {"alexnet", "vgg16", "resnet18"})
    for (const char* network : {"4g", "wifi"}) labels_vs_ilp(platform, model, network, repeats);
  return 0;
}
