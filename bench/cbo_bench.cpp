// Benchmarks of the CBO solver cores (Tan & Cao): cbo-online (Algorithm 1) with 30 frames x 5
// resolutions, which the paper runs in < 1 ms on a phone (sec. V-A), and cbo-optimal (sec. IV-C)
// with 300 frames. Reference measured in the same run: one replay of a decision vector over the
// uplink (cbo::evaluate), the cheapest possible pass over the same frames. Counters: cpu_us = the
// solver's thread CPU time per call, replay_us = the same for one replay, x_replay = their ratio,
// front = the largest Pareto front the DP kept.
//
// Bounded cbo-online, before and after in one run (`all` is Algorithm 1
// over every frame and every non-dominated label, the code before the change; the others give the
// same decisions, tests/schedulers/cbo/cbo_online_bounded_test.cpp):
//   backlog_per_frame_all / backlog_per_frame  every frame arrived at once with a 1 s deadline, so
//       none has expired and the window leaves nothing out; the fronts grow with the frames that
//       fit, and `backlog_per_frame` drops the labels the gain bound rules out (gain_bound.hpp).
//   history/<all|deadline|window>/<backlog>  one call that sees the `backlog` frames processed
//       locally so far (10, 30, 100, 1000) of a 30 fps stream with the 200 ms deadline, at the
//       arrival of the newest one. `deadline` leaves out the frames that can no longer be offloaded;
//       `window` is cbo::OnlineWindow, which has already forgotten them.
//   stream/<all|deadline|window>  1e4 calls of a simple runtime loop: each frame is added, the
//       algorithm re-run, the first frame it picks is offloaded (the uplink is busy with it) and no
//       longer held. Counters: first_us / last_us = mean CPU time of a call over the first / last
//       1000 calls, held = frames passed to the last call.
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
#include "schedulers/cbo/cbo_online_window.hpp"
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

// Stream: frames 1/30 s apart, 200 ms deadline. Backlog: all frames arrived at once with a
// 1 s deadline, so far more subsets fit and the fronts grow (a harder case than the paper's).
const Scenario kStream{};
const Scenario kBacklog{0.0, 1.0, 8e6};

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

void BM_CboOnline(benchmark::State& state, Scenario scenario, cbo::ResolutionPolicy policy,
                  cbo::FrameWindow window) {
  const auto problems = instances(static_cast<std::size_t>(state.range(0)), scenario);
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = cbo::solve_online(p, policy, window);
    benchmark::DoNotOptimize(s.improvement);
    return s.peak_front;
  });
}

/// A stream's frames processed locally so far, seen at the arrival of the newest (the uplink is
/// free from then): frames 1/30 s apart, the paper's 200 ms deadline.
std::vector<cbo::Problem> histories(std::size_t backlog) {
  auto out = instances(backlog, kStream);
  for (auto& p : out) p.uplink_free_at_s = p.frames.back().arrival_s;
  return out;
}

void BM_CboOnlineHistory(benchmark::State& state, cbo::FrameWindow window) {
  const auto problems = histories(static_cast<std::size_t>(state.range(0)));
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = cbo::solve_online(p, cbo::ResolutionPolicy::kPerFrame, window);
    benchmark::DoNotOptimize(s.improvement);
    return s.peak_front;
  });
}

void BM_CboOnlineHistoryWindow(benchmark::State& state) {
  const auto problems = histories(static_cast<std::size_t>(state.range(0)));
  std::vector<cbo::OnlineWindow> windows;
  for (const auto& p : problems) {
    windows.emplace_back(p);
    for (const auto& f : p.frames) windows.back().add(f);
    windows.back().solve(p.uplink_free_at_s);  // forgets the expired frames once
  }
  std::size_t k = 0;
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = windows[k].solve(p.uplink_free_at_s);
    k = (k + 1) % windows.size();
    benchmark::DoNotOptimize(s.improvement);
    return s.peak_front;
  });
}

/// How the stream benchmark calls the algorithm.
enum class StreamMode { kAll, kDeadline, kWindow };

/// 1e4 calls of the paper's runtime loop (see the top comment); one benchmark iteration is the
/// whole stream.
void BM_CboOnlineStream(benchmark::State& state, StreamMode mode) {
  constexpr std::size_t kCalls = 10000, kTail = 1000;
  const auto stream = make_problem(kCalls, kStream, 7);
  double first_s = 0, last_s = 0;
  std::size_t held = 0;
  for (auto _ : state) {
    cbo::Problem pending = stream;  // the frames processed locally and not offloaded
    pending.frames.clear();
    cbo::OnlineWindow window(stream);
    std::vector<std::size_t> ids;  // stream index of pending.frames[k]
    double busy_until_s = 0;
    first_s = last_s = 0;
    for (std::size_t i = 0; i < kCalls; ++i) {
      const auto& frame = stream.frames[i];
      pending.uplink_free_at_s = std::max(frame.arrival_s, busy_until_s);
      const double start_s = thread_cpu_s();
      cbo::OnlineSolution s;
      if (mode == StreamMode::kWindow) {
        window.add(frame);
        s = window.solve(pending.uplink_free_at_s);
        held = window.size();
      } else {
        pending.frames.push_back(frame);
        ids.push_back(i);
        s = cbo::solve_online(
            pending, cbo::ResolutionPolicy::kPerFrame,
            mode == StreamMode::kAll ? cbo::FrameWindow::kAll : cbo::FrameWindow::kDeadline);
        for (auto& k : s.offload) k = ids[k];
        held = pending.frames.size();
      }
      const double call_s = thread_cpu_s() - start_s;
      if (i < kTail) first_s += call_s;
      if (i >= kCalls - kTail) last_s += call_s;
      if (s.offload.empty()) continue;
      // Offload the first frame the algorithm picked (outside the timed call).
      const auto id = s.offload.front();
      busy_until_s = cbo::upload_end_s(stream, stream.frames[id], static_cast<std::size_t>(s.resolution),
                                       pending.uplink_free_at_s);
      if (mode == StreamMode::kWindow) {
        window.erase(id);
      } else {
        const auto k = static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
        ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(k));
        pending.frames.erase(pending.frames.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  }
  state.counters["first_us"] = first_s / kTail * 1e6;
  state.counters["last_us"] = last_s / kTail * 1e6;
  state.counters["held"] = static_cast<double>(held);
}

void BM_CboOptimal(benchmark::State& state, Scenario scenario) {
  const auto problems = instances(static_cast<std::size_t>(state.range(0)), scenario);
  run(state, problems, [&](const cbo::Problem& p) {
    const auto s = cbo::solve_optimal(p);
    benchmark::DoNotOptimize(s.accuracy);
    return s.peak_front;
  });
}

}  // namespace

BENCHMARK_CAPTURE(BM_CboOnline, stream_per_frame, kStream, cbo::ResolutionPolicy::kPerFrame,
                  cbo::FrameWindow::kDeadline)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
// Every frame arrived at once and none has expired: the bound leaves nothing out, so `all` and
// `deadline` do the same work here (the fronts themselves grow with the frames that fit).
BENCHMARK_CAPTURE(BM_CboOnline, backlog_per_frame_all, kBacklog, cbo::ResolutionPolicy::kPerFrame,
                  cbo::FrameWindow::kAll)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnline, backlog_per_frame, kBacklog, cbo::ResolutionPolicy::kPerFrame,
                  cbo::FrameWindow::kDeadline)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnline, stream_uniform, kStream, cbo::ResolutionPolicy::kUniform,
                  cbo::FrameWindow::kDeadline)
    ->Arg(30)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnlineHistory, all, cbo::FrameWindow::kAll)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnlineHistory, deadline, cbo::FrameWindow::kDeadline)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CboOnlineHistoryWindow)
    ->Name("BM_CboOnlineHistory/window")
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CboOnlineStream, all, StreamMode::kAll)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CboOnlineStream, deadline, StreamMode::kDeadline)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CboOnlineStream, window, StreamMode::kWindow)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CboOptimal, stream, kStream)
    ->Arg(30)
    ->Arg(300)
    ->Arg(3000)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
