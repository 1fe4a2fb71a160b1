// JointDNN family benchmarks: `jointdnn` on a 500-layer chain with 100 residual skips,
// `jointdnn-labels` against `jointdnn-ilp` (GLPK) on 50-layer constrained problems (ratio printed
// at the end), and `neurosurgeon` on 500 layers. Problems are synthetic and seeded; grouped costs
// are not additive ([JointDNN §2.2]), so every grouping is a distinct option.
//
// Every solve happens inside a benchmark, so `--benchmark_filter` (and `--benchmark_list_tests`)
// decides what runs: the closing labels-vs-ILP table lists only the instances whose two
// benchmarks both ran, from the solutions those benchmarks recorded (`bench/regression.yaml`
// times one instance at a time).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/jointdnn_problem.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/register.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"

namespace {

using coinfer::Json;
namespace jd = coinfer::jointdnn;

/// Grouped costs: the sum of per-layer costs times a factor in [0.7, 1.0] per group.
Json triangle(std::mt19937_64& rng, const std::vector<double>& per_layer) {
  std::uniform_real_distribution<double> factor(0.7, 1.0);
  const int n = static_cast<int>(per_layer.size());
  Json rows = Json::array();
  for (int i = 0; i < n; ++i) {
    std::vector<double> row;
    double sum = 0.0;
    for (int j = i; j < n; ++j) {
      sum += per_layer[j];
      row.push_back(j == i ? per_layer[j] : sum * factor(rng));
    }
    rows.push_back(row);
  }
  return rows;
}

/// A synthetic N-layer problem: mobile layers 1-20 ms, cloud 10x faster, transfers 1-80 ms,
/// ResNet-like skips [5m, 5m + 3] for m < skips (one residual block open at a time).
Json synthetic_problem(int n, int skips, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto draw = [&](int size, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(size);
    for (auto& x : v) x = u(rng);
    return v;
  };
  const auto mobile = draw(n, 0.001, 0.020);
  std::vector<double> cloud(mobile);
  for (auto& c : cloud) c *= 0.1;
  Json j;
  j["layers"] = n;
  j["mobile_time"] = triangle(rng, mobile);
  j["cloud_time"] = triangle(rng, cloud);
  j["upload_time"] = draw(n + 1, 0.001, 0.080);
  j["download_time"] = draw(n + 1, 0.001, 0.040);
  j["mobile_energy"] = triangle(rng, draw(n, 0.002, 0.040));
  j["upload_energy"] = draw(n + 1, 0.002, 0.150);
  j["download_energy"] = draw(n + 1, 0.001, 0.050);
  j["weight_download_time"] = draw(n, 0.0, 0.002);
  j["weight_download_energy"] = draw(n, 0.0, 0.004);
  Json s = Json::array();
  for (int m = 0; m < skips && 5 * m + 3 <= n; ++m) s.push_back({5 * m, 5 * m + 3});
  j["skips"] = s;
  j["objective"] = "latency";
  return j;
}

/// Energy objective under a QoS deadline halfway between the fastest schedule's latency and the
/// least-energy schedule's latency, and a cloud budget of max(fastest's, 60% of least-energy's)
/// cloud time: the fastest schedule stays feasible, the least-energy one usually is not.
Json constrained_problem(int n, std::uint64_t seed) {
  Json j = synthetic_problem(n, n / 5, seed);
  const auto fastest = jd::solve_shortest_path(jd::parse_problem(j));
  j["objective"] = "energy";
  const auto frugal = jd::solve_shortest_path(jd::parse_problem(j));
  j["max_latency"] = 0.5 * (fastest.cost.latency_s + frugal.cost.latency_s);
  j["max_cloud_time"] = std::max(fastest.cost.cloud_time_s, 0.6 * frugal.cost.cloud_time_s);
  return j;
}

const jd::Problem& chain500() {
  static const jd::Problem p = jd::parse_problem(synthetic_problem(500, 100, 500));
  return p;
}

constexpr int kConstrainedInstances = 4;

const jd::Problem& constrained50(int k) {
  static const std::vector<jd::Problem> ps = [] {
    std::vector<jd::Problem> v;
    for (int i = 0; i < kConstrainedInstances; ++i)
      v.push_back(jd::parse_problem(constrained_problem(50, 5000 + i)));
    return v;
  }();
  return ps[k];
}

void BM_jointdnn_500_layers_100_skips(benchmark::State& state) {
  const auto& p = chain500();
  for (auto _ : state) benchmark::DoNotOptimize(jd::solve_shortest_path(p));
  state.SetLabel("shortest path, struct in/out");
}
BENCHMARK(BM_jointdnn_500_layers_100_skips)->Unit(benchmark::kMillisecond);

void BM_jointdnn_500_layers_json(benchmark::State& state) {
  const Json j = synthetic_problem(500, 100, 500);
  coinfer::SolverRegistry r("solver");
  coinfer::register_jointdnn_solvers(r);
  const auto solver = r.create("jointdnn", Json::object());
  for (auto _ : state) benchmark::DoNotOptimize(solver->solve(j));
  state.SetLabel("parse + solve + serialise (JSON in/out)");
}
BENCHMARK(BM_jointdnn_500_layers_json)->Unit(benchmark::kMillisecond);

/// The last solution each constrained benchmark found, per instance, for the closing table.
std::map<int, jd::Solution> g_labels_solutions, g_ilp_solutions;

void BM_labels_50_constrained(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const auto& p = constrained50(k);
  for (auto _ : state) {
    auto s = jd::solve_labels(p);
    benchmark::DoNotOptimize(s);
    g_labels_solutions.insert_or_assign(k, std::move(s));
  }
}
BENCHMARK(BM_labels_50_constrained)->DenseRange(0, kConstrainedInstances - 1)->Unit(benchmark::kMillisecond);

void BM_ilp_50_constrained(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const auto& p = constrained50(k);
  for (auto _ : state) {
    auto s = jd::solve_ilp(p);
    benchmark::DoNotOptimize(s);
    g_ilp_solutions.insert_or_assign(k, std::move(s));
  }
}
BENCHMARK(BM_ilp_50_constrained)->DenseRange(0, kConstrainedInstances - 1)->Unit(benchmark::kMillisecond);

void BM_neurosurgeon_500_layers(benchmark::State& state) {
  const auto& p = chain500();
  for (auto _ : state) benchmark::DoNotOptimize(jd::solve_neurosurgeon(p));
}
BENCHMARK(BM_neurosurgeon_500_layers)->Unit(benchmark::kMicrosecond);

/// Console output plus a record of each run's real time per iteration (seconds) for the ratios.
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs)
      if (run.run_type == Run::RT_Iteration)  // CPU time: the machine may be shared
        seconds[run.benchmark_name()] = run.GetAdjustedCPUTime() * 1e-9 * multiplier(run.time_unit);
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> seconds;

 private:
  static double multiplier(benchmark::TimeUnit unit) {  // unit -> nanoseconds
    switch (unit) {
      case benchmark::kSecond:
        return 1e9;
      case benchmark::kMillisecond:
        return 1e6;
      case benchmark::kMicrosecond:
        return 1e3;
      default:
        return 1.0;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  // Agreement and speed of the two exact constrained solvers on the instances both benchmarks ran
  // (nothing is solved here: a filter that selects one benchmark runs only that one).
  double log_sum = 0.0;
  int counted = 0;
  for (int k = 0; k < kConstrainedInstances; ++k) {
    const auto label_key = "BM_labels_50_constrained/" + std::to_string(k);
    const auto ilp_key = "BM_ilp_50_constrained/" + std::to_string(k);
    if (!reporter.seconds.count(label_key) || !reporter.seconds.count(ilp_key) ||
        !g_labels_solutions.count(k) || !g_ilp_solutions.count(k))
      continue;
    if (counted == 0)
      std::printf(
          "\njointdnn-labels vs jointdnn-ilp (CPU time per call), 50 layers, 10 skips, energy objective,\n"
          "max_latency + max_cloud_time; 'free' = least energy without maxima:\n");
    const auto& a = g_labels_solutions.at(k);
    const auto& b = g_ilp_solutions.at(k);
    jd::Problem free = constrained50(k);
    free.max_latency_s.reset();
    free.max_cloud_time_s.reset();
    const double free_energy = jd::solve_shortest_path(free).cost.energy_j;
    const double ratio = reporter.seconds[ilp_key] / reporter.seconds[label_key];
    log_sum += std::log(ratio);
    ++counted;
    const bool agree = a.feasible == b.feasible && std::fabs(a.cost.energy_j - b.cost.energy_j) <= 1e-9;
    std::printf(
        "  instance %d: labels %.3f ms, ilp %.3f ms, ilp/labels = %.0fx; energy %.6f J (ilp %.6f, free "
        "%.6f)%s\n",
        k, reporter.seconds[label_key] * 1e3, reporter.seconds[ilp_key] * 1e3, ratio, a.cost.energy_j,
        b.cost.energy_j, free_energy, agree && a.feasible ? "" : "  MISMATCH/INFEASIBLE");
  }
  if (counted > 0) std::printf("  geometric mean ilp/labels = %.0fx\n", std::exp(log_sum / counted));
  benchmark::Shutdown();
  return 0;
}
