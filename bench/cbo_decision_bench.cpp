// CBO decision time per frame in the simulator: the `cbo` runtime scheduler
// (Algorithm 1 run online over the frames processed locally and not yet decided) drives the
// digits trace through the SimGrid replay exactly as `coinfer run scenarios/cbo/cbo-digits.yaml`
// does (Mate 10 Pro NPU, 30 fps, T = 200 ms, frames scaled to video size), at 2, 5 and 20 Mbps.
// Every scheduler call the replay makes (on_plan_end, take_decisions) is timed with the thread's
// CPU clock by a forwarding wrapper. Printed per uplink rate: frames, Algorithm 1 runs, mean
// decision CPU time per frame and per run, the slowest call, and the ratios to the paper's bound
// (< 1 ms per decision on the phone, sec. V-A) and to the frame interval (33.3 ms).
//
//   cmake --build build --target cbo_decision_bench && ./build/bench/cbo_decision_bench
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "schedulers/cbo/cbo_runtime.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/replay/simulate.hpp"

using namespace coinfer;

namespace {

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Forwards every hook to the real scheduler and adds up the CPU time of the decision hooks.
class Timed final : public Scheduler {
 public:
  explicit Timed(Scheduler& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  Continuation on_plan_end(std::size_t frame, const SchedulerView& view) override {
    const double t0 = thread_cpu_s();
    auto c = inner_.on_plan_end(frame, view);
    add(thread_cpu_s() - t0);
    return c;
  }
  std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView& view) override {
    const double t0 = thread_cpu_s();
    auto d = inner_.take_decisions(view);
    add(thread_cpu_s() - t0);
    return d;
  }
  double frame_score(std::size_t frame, const FrameRecord& record) override {
    return inner_.frame_score(frame, record);
  }
  std::map<std::string, double> summary() const override { return inner_.summary(); }
  double total_s = 0, max_s = 0;

 private:
  void add(double s) {
    total_s += s;
    max_s = std::max(max_s, s);
  }
  Scheduler& inner_;
};

std::string measure(double uplink_mbps) {
  const std::string root = COINFER_SOURCE_DIR;
  cbo::RuntimeParams params;
  params.trace_file = root + "/examples/cbo/digits_trace.csv";
  params.size_scale = 20.8;  // as scenarios/cbo/cbo-digits.yaml
  cbo::RuntimeScheduler cbo(cbo::Mode::Cbo, params);
  Platform platform = load_platform_file(root + "/platforms/cbo_mate10pro.yaml");
  platform.networks[0].uplink.rate_bps = uplink_mbps * 1e6;
  const std::vector<Plan> npu{{"alexnet", "", {compute_task("alexnet", "phone", 0.020, {})}}};
  const auto plans = cbo.plan_variants(npu, platform);
  Timed timed(cbo);
  const std::size_t frames = 449;  // the trace's frames after the calibration half
  const auto r = simulate(platform, plans, stream_workload(30.0, frames, DropPolicy::Queue, 0.2), {}, &timed);
  const auto m = r.scheduler_metrics;
  const double runs = m.at("decisions");
  const double per_frame_us = 1e6 * timed.total_s / static_cast<double>(frames);
  char line[400];
  std::snprintf(line, sizeof line,
                "%6.1f Mbps  frames %zu  Algorithm 1 runs %.0f  per frame %.2f us  per run %.2f us  "
                "slowest call %.1f us  per frame / 1 ms (paper) %.4f  per frame / frame interval %.5f  "
                "accuracy %.4f\n",
                uplink_mbps, frames, runs, per_frame_us, 1e6 * timed.total_s / std::max(runs, 1.0),
                1e6 * timed.max_s, per_frame_us / 1000.0, per_frame_us / (1e6 / 30.0), m.at("accuracy"));
  return line;
}

}  // namespace

int main() {
  std::printf("cbo decision time per frame in the simulator (digits trace, 30 fps, T = 200 ms)\n");
  for (const double mbps : {2.0, 5.0, 20.0}) {
    // SimGrid runs one simulation per process: each rate in its own child.
    std::fputs(run_in_child_process([mbps] { return measure(mbps); }).c_str(), stdout);
  }
  return 0;
}
