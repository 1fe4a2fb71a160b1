// Per-call times of the Hu & Krishnamachari cores: split-dp (eq. 2) with m = 200 layers on n = 8
// devices, and pipeline-expected (eq. 4-6) on the 7 links of that pipeline. References measured in
// the same run: split-dp at m = 100 (O(m^2 n): the m = 200 call should cost about 4x) and a
// 10^5-sample Monte Carlo estimate of E[T] (about 3 significant digits, vs 1e-10 relative).
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "partitioners/split_dp/split_dp.hpp"
#include "schedulers/pipeline/expected_throughput.hpp"

namespace {

coinfer::SplitDpProblem split_problem(std::size_t m, std::size_t n) {
  std::mt19937_64 rng(200);
  std::uniform_real_distribution<double> ops(1e6, 5e8), speed(1e9, 8e9);  // MACs, MACs per second
  coinfer::SplitDpProblem p;
  for (std::size_t j = 0; j < m; ++j) p.layer_ops.push_back(ops(rng));
  for (std::size_t i = 0; i < n; ++i) p.device_speeds.push_back(speed(rng));
  return p;
}

coinfer::ExpectedThroughputProblem expected_problem() {
  // 7 links (8 devices): stage throughputs mean_i / D_i from 12 to 24 fps around Tp = 15 fps,
  // coefficient of variation 0.3.
  coinfer::ExpectedThroughputProblem p{15.0, {}, {}, coinfer::BandwidthTail::clamped};
  for (int i = 0; i < 7; ++i) {
    const double d = 0.5 + 0.25 * i, mean = d * (12 + 2 * i);
    p.stage_data.push_back(d);
    p.bandwidth.push_back({mean, 0.3 * mean});
  }
  return p;
}

double monte_carlo(const coinfer::ExpectedThroughputProblem& p, int samples, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  double sum = 0;
  for (int k = 0; k < samples; ++k) {
    double t = p.compute_throughput_fps;
    for (std::size_t i = 0; i < p.stage_data.size(); ++i)
      t = std::min(
          t, std::max(0.0, p.bandwidth[i].mean + p.bandwidth[i].stddev * normal(rng)) / p.stage_data[i]);
    sum += t;
  }
  return sum / samples;
}

void BM_split_dp(benchmark::State& state) {
  const auto p =
      split_problem(static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(coinfer::solve_split_dp(p));
}
BENCHMARK(BM_split_dp)->Args({200, 8})->Args({100, 8})->Unit(benchmark::kMicrosecond);

void BM_pipeline_expected(benchmark::State& state) {
  const auto p = expected_problem();
  for (auto _ : state) benchmark::DoNotOptimize(coinfer::solve_expected_throughput(p));
}
BENCHMARK(BM_pipeline_expected)->Unit(benchmark::kMicrosecond);

void BM_monte_carlo_1e5(benchmark::State& state) {
  const auto p = expected_problem();
  std::uint64_t seed = 1;
  for (auto _ : state) benchmark::DoNotOptimize(monte_carlo(p, 100000, seed++));
}
BENCHMARK(BM_monte_carlo_1e5)->Unit(benchmark::kMicrosecond);

/// Console output as usual, plus the per-call CPU time of every run kept for the summary (CPU
/// rather than wall time: the machine is shared, so wall time includes waiting for a core).
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    // Every benchmark here reports in microseconds, so this is microseconds per call.
    for (const auto& r : runs) us_[r.benchmark_name()] = r.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  double us(const std::string& name) const {
    auto it = us_.find(name);
    return it == us_.end() ? 0.0 : it->second;
  }

 private:
  std::map<std::string, double> us_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double dp200 = reporter.us("BM_split_dp/200/8"), dp100 = reporter.us("BM_split_dp/100/8");
  const double expected = reporter.us("BM_pipeline_expected"), mc = reporter.us("BM_monte_carlo_1e5");
  const auto p = expected_problem();
  std::printf("\nsummary (CPU time per call)\n");
  if (dp200 > 0) {
    const auto s = coinfer::solve_split_dp(split_problem(200, 8));
    std::printf("  split-dp m=200 n=8        %9.1f us  (throughput %.4f fps)\n", dp200, s.throughput_fps);
  }
  if (dp200 > 0 && dp100 > 0)
    std::printf("  split-dp m=100 n=8        %9.1f us  ratio m=200/m=100 = %.2f (O(m^2 n) predicts 4)\n",
                dp100, dp200 / dp100);
  if (expected > 0)
    std::printf("  pipeline-expected 7 links %9.1f us  (E[T] %.9f fps)\n", expected,
                coinfer::solve_expected_throughput(p).expected_throughput_fps);
  if (expected > 0 && mc > 0)
    std::printf("  Monte Carlo 1e5 samples   %9.1f us  (E[T] ~ %.4f fps), %.0fx the quadrature\n", mc,
                monte_carlo(p, 100000, 1), mc / expected);
  benchmark::Shutdown();
  return 0;
}
