// Benchmarks of the CBO solver cores (Tan & Cao): cbo-online (Algorithm 1) with 30 frames x 5
// resolutions, which the paper runs in < 1 ms on a phone (sec. V-A), and cbo-optimal (sec. IV-C)
// with 300 frames. Reference measured in the same run: one replay of a decision vector over the
// uplink (cbo::evaluate), the cheapest possible pass over the same frames. Counters: cpu_us = the
// solver's thread CPU time per call, replay_us = the same for one replay, x_replay = their ratio,
// front = the largest Pareto front the DP kept.
//
// Inputs: 30 fps video (sec. V-A evaluates frame rates around 30 fps), 5 resolutions 45..224 px
// (sec. V-A), time constraint 200 ms (sec. V-A), server time 37 ms (Table III, ResNet-152 on the
// server). Synthetic, not from the paper (its Fig. 10 values are not in our text): frame sizes
// (a 224x224 PNG of about 600 kbit, scaled by pixel count, +-25 % per frame), server accuracies,
// 20 ms latency, 8 Mbit/s uplink; local accuracy = calibrated confidence (sec. III-B: a calibrated
// confidence is the expected accuracy).
//
//   cmake --build build --target cbo_bench && ./build/bench/cbo_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <random>
#include <vector>

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/cbo_optimal.hpp"
#include "schedulers/cbo/cbo_problem.hpp"

namespace cbo = coinfer::cbo;

namespace {

struct Scenario {
  double frame_interval_s = 1.0 / 30.0;
  double deadline_s = 0.2;
  double bandwidth_bps = 8e6;
};

cbo::Problem make_problem(std::size_t frames, const Scenario& scenario, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::vector<double> side_px{45, 90, 134, 179, 224};  // sec. V-A
  cbo::Problem p;
  p.server_accuracy = {0.40, 0.62, 0.70, 0.74, 0.76};  // synthetic, increasing with resolution
  p.bandwidth_bps = scenario.bandwidth_bps;
  p.server_time_s = 0.037;  // Table III: ResNet-152 on the server, 37 ms
  p.latency_s = 0.020;
  p.deadline_s = scenario.deadline_s;  // sec. V-A: 200 ms
  for (std::size_t i = 0; i < frames; ++i) {
    cbo::Frame f;
    f.arrival_s = static_cast<double>(i) * scenario.frame_interval_s;
    f.confidence = unit(rng);
    f.local_accuracy = f.confidence;
    const double jitter = 0.75 + 0.5 * unit(rng);
    for (const double side : side_px)
      f.sizes_bits.push_back(600e3 * jitter * (side / 224.0) * (side / 224.0));
    p.frames.push_back(f);
  }
  return p;
}

constexpr int kInstances = 16;

std::vector<cbo::Problem> instances(std::size_t frames, const Scenario& scenario) {
  std::vector<cbo::Problem> out;
  for (int k = 0; k < kInstances; ++k)
    out.push_back(make_problem(frames, scenario, 1000 + static_cast<std::uint64_t>(k)));
  return out;
}

/// CPU time of the calling thread, in seconds (the machine may be shared; wall time is not fair).
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// CPU time of one replay of "offload every frame at the lowest resolution", in seconds.
double replay_time_s(const std::vector<cbo::Problem>& problems) {
  std::vector<std::vector<int>> decisions;
  for (const auto& p : problems) decisions.emplace_back(p.frames.size(), 0);
  const int repeats = 2000;
  const double start_s = thread_cpu_s();
  for (int k = 0; k < repeats; ++k)
    for (std::size_t i = 0; i < problems.size(); ++i)
      benchmark::DoNotOptimize(cbo::evaluate(problems[i], decisions[i]).total_accuracy);
  return (thread_cpu_s() - start_s) / (repeats * static_cast<double>(problems.size()));
}

/// Runs `solve` round-robin over `problems`; reports the per-call CPU time, the largest front, the
/// replay reference and the ratio between them.
template <class Solve>
void run(benchmark::State& state, const std::vector<cbo::Problem>& problems, Solve solve) {
  std::size_t k = 0;
  std::size_t front = 0;
  const double start_s = thread_cpu_s();
  for (auto _ : state) {
    front = std::max(front, solve(problems[k]));
    k = (k + 1) % problems.size();
  }
  const double per_call_s = (thread_cpu_s() - start_s) / static_cast<double>(state.iterations());
  const double replay_s = replay_time_s(problems);
  state.counters["front"] = static_cast<double>(front);
  state.counters["cpu_us"] = per_call_s * 1e6;
  state.counters["replay_us"] = replay_s * 1e6;
  state.counters["x_replay"] = per_call_s / replay_s;
}

void BM_CboOnline(benchmark::State& state, Scenario scenario, cbo::ResolutionPolicy policy) {
  const auto problems = instances(static_cast<std::size_t>(state.range(0)), scenario);
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = cbo::solve_online(p, policy);
    benchmark::DoNotOptimize(s.improvement);
    return s.peak_front;
  });
}

void BM_CboOptimal(benchmark::State& state, Scenario scenario) {
  const auto problems = instances(static_cast<std::size_t>(state.range(0)), scenario);
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = cbo::solve_optimal(p);
    benchmark::DoNotOptimize(s.accuracy);
    return s.peak_front;
  });
}

// Stream: frames 1/30 s apart, 200 ms deadline. Backlog: all frames arrived at once with a
// 1 s deadline, so far more subsets fit and the fronts grow (a harder case than the paper's).
const Scenario kStream{};
const Scenario kBacklog{0.0, 1.0, 8e6};

}  // namespace

BENCHMARK_CAPTURE(BM_CboOnline, stream_per_frame, kStream, cbo::ResolutionPolicy::kPerFrame)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnline, backlog_per_frame, kBacklog, cbo::ResolutionPolicy::kPerFrame)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnline, stream_uniform, kStream, cbo::ResolutionPolicy::kUniform)
    ->Arg(30)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOptimal, stream, kStream)
    ->Arg(30)
    ->Arg(300)
    ->Arg(3000)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
