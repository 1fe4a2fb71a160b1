// Decision points (Scheduler::on_plan_end / take_decisions), measured link throughput
// (SchedulerView::measured_links), frame scores and device slots, each against a closed form.
// Each simulation runs in its own child process; what a scheduler saw comes back as text.
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Two devices on one 8 Mbps (1 MB/s) WiFi cell with 10 ms latency.
Platform wifi_pair() { return test::wifi_cell_pair(); }

// Variant 0: 0.1 s on a; variant 1: an upload a -> b whose size the scheduler sets.
std::vector<Plan> local_then_upload() {
  return {{"local", "", {compute_task("c", "a", 0.1, {})}},
          {"up", "", {transfer_task("x", "a", "b", 1.0, {})}}};
}

// Runs after every plan end: variant 0 continues with an upload of `bytes`, then finishes.
class Offloader final : public Scheduler {
 public:
  explicit Offloader(double bytes) : bytes_(bytes) {}
  std::string name() const override { return "offloader"; }
  Continuation on_plan_end(std::size_t frame, const SchedulerView& view) override {
    if (view.frames[frame].variant == 0) return Continuation::run(1, {{"x", bytes_}});
    return Continuation::finish();
  }
  double frame_score(std::size_t frame, const FrameRecord&) override { return frame == 0 ? 1.0 : 0.0; }
  std::map<std::string, double> summary() const override { return {{"k", 7.0}}; }

 private:
  double bytes_;
};

// Holds every frame; when frame 1's plan ends, resumes frame 0 with the upload. Records what
// the measured link said at each decision.
class Holder final : public Scheduler {
 public:
  std::string name() const override { return "holder"; }
  Continuation on_plan_end(std::size_t frame, const SchedulerView& view) override {
    if (view.frames[frame].variant == 1) return Continuation::finish();
    if (frame == 1) release_ = true;
    return Continuation::hold();
  }
  std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView&) override {
    if (!release_) return {};
    release_ = false;
    return {{0, Continuation::run(1, {{"x", 1e6}})}};
  }

 private:
  bool release_ = false;
};

// Sends frame k's upload of sizes[k] at release (variant k) and writes down the measured link
// at each frame end.
class Meter final : public Scheduler {
 public:
  std::string name() const override { return "meter"; }
  FrameDecision on_frame(const SchedulerView& view) override { return {view.frame, false}; }
  void on_frame_end(const FrameRecord&, const SchedulerView& view) override {
    const MeasuredLink& m = view.measured_links.at(0);
    log += fmt::format("{} {} {} {};", m.transfers, m.last_duration_s, m.last_rate_bps, m.ewma_rate_bps);
  }
  std::string log;
};

}  // namespace

TEST_CASE("decision point: a continuation runs after the plan with the size the scheduler set") {
  // 0.1 s of compute, then 1e6 B at 1 MB/s + 10 ms: the frame ends at 1.11 s on variant 1.
  const auto r = run_in_child_process([] {
    Offloader s(1e6);
    return simulation_result_to_json(simulate(wifi_pair(), local_then_upload(), single_workload(), {}, &s))
        .dump();
  });
  const auto result = simulation_result_from_json(Json::parse(r));
  REQUIRE(result.frames.size() == 1);
  CHECK(result.frames[0].end_s == Approx(1.11).epsilon(1e-9));
  CHECK(result.frames[0].variant == 1);
  CHECK(result.links[0].bytes == 1e6);
  REQUIRE(result.frame_scores.size() == 1);
  CHECK(result.frame_scores[0] == 1.0);
  CHECK(result.scheduler_metrics.at("k") == 7.0);
}

TEST_CASE(
    "decision point: a held frame resumes when the scheduler decides, or keeps its answer at the deadline") {
  // Frames at 0 and 0.5 s (2 fps), deadline 2 s. Frame 0 is held at 0.1 s and resumed when frame
  // 1's local pass ends (0.6 s): its upload ends at 0.6 + 1.01 = 1.61 s. Frame 1 stays held and
  // finishes at its deadline (2.5 s) with the answer it had at 0.6 s: end 0.6, deadline met.
  const auto r = run_in_child_process([] {
    Holder s;
    const auto w = stream_workload(2.0, 2, DropPolicy::Queue, 2.0);
    return simulation_result_to_json(simulate(wifi_pair(), local_then_upload(), w, {}, &s)).dump();
  });
  const auto result = simulation_result_from_json(Json::parse(r));
  CHECK(result.frames[0].end_s == Approx(1.61).epsilon(1e-9));
  CHECK(result.frames[0].variant == 1);
  CHECK(result.frames[1].end_s == Approx(0.6).epsilon(1e-9));
  CHECK(result.frames[1].variant == 0);
  CHECK(result.frames[1].deadline_met);
  CHECK(result.end_s == Approx(2.5).epsilon(1e-9));  // the replay waited for frame 1's deadline
}

TEST_CASE("decision point: holding a frame without a deadline is refused") {
  CHECK_THROWS_WITH(run_in_child_process([] {
                      Holder s;
                      simulate(wifi_pair(), local_then_upload(), single_workload(), {}, &s);
                      return std::string();
                    }),
                    Catch::Contains("no deadline"));
}

TEST_CASE("measured link: rate and EWMA of completed transfers, latency taken out") {
  // Frame 0 at t = 0: 1e6 B at 8 Mbps -> 1.01 s, measured 1.0 s, 8 Mbps. The rate halves at 2 s;
  // frame 1 at t = 3: 1e6 B at 4 Mbps -> 2.01 s, measured 2.0 s, 4 Mbps;
  // EWMA = 0.5 * 4e6 + 0.5 * 8e6 = 6e6 (kMeasuredEwmaWeight = 0.5).
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {2.0, 4e6}};
  const std::vector<Plan> plans{{"f0", "", {transfer_task("x", "a", "b", 1e6, {})}},
                                {"f1", "", {transfer_task("x", "a", "b", 1e6, {})}}};
  const auto log = run_in_child_process([&] {
    Meter s;
    simulate(p, plans, stream_workload(1.0 / 3.0, 2, DropPolicy::Queue), {}, &s);
    return s.log;
  });
  double d0, r0, e0, d1, r1, e1;
  int n0, n1;
  REQUIRE(std::sscanf(log.c_str(), "%d %lf %lf %lf;%d %lf %lf %lf;", &n0, &d0, &r0, &e0, &n1, &d1, &r1,
                      &e1) == 8);
  CHECK(n0 == 1);
  CHECK(d0 == Approx(1.0).epsilon(1e-9));
  CHECK(r0 == Approx(8e6).epsilon(1e-9));
  CHECK(e0 == Approx(8e6).epsilon(1e-9));
  CHECK(n1 == 2);
  CHECK(d1 == Approx(2.0).epsilon(1e-9));
  CHECK(r1 == Approx(4e6).epsilon(1e-9));
  CHECK(e1 == Approx(6e6).epsilon(1e-9));
}

TEST_CASE("device slots: a device with two slots runs two tasks at once at full speed") {
  // Frames at 0 and 0.1 s; each sends 1 B to b (10 ms + 1 us) then computes 1 s on b. One slot:
  // frame 1 waits for frame 0, ending at 0.010001 + 2 = 2.010001 s; two slots: 1.110001 s.
  const Plan plan{"p", "", {transfer_task("x", "a", "b", 1.0, {}), compute_task("c", "b", 1.0, {"x"})}};
  for (const std::size_t slots : {1, 2}) {
    Platform p = wifi_pair();
    p.devices[1].slots = slots;
    const auto r = simulate_in_child(p, {plan}, stream_workload(10.0, 2, DropPolicy::Queue, kInf), {});
    CHECK(r.frames[0].end_s == Approx(1.010001).epsilon(1e-9));
    CHECK(r.frames[1].end_s == Approx(slots == 1 ? 2.010001 : 1.110001).epsilon(1e-9));
  }
}
