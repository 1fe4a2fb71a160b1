// Workloads replayed in SimGrid (each run in a child process).
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// a computes 0.3 s (the first stage), sends 1e5 B over a 8 Mbps wired link (0.1 s), b computes 0.1 s.
Platform pair() {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 8e6, 0.0)});
}

Plan pipeline(double first_s = 0.3) {
  return {"pipe",
          "",
          {compute_task("ca", "a", first_s, {}), transfer_task("x", "a", "b", 1e5, {"ca"}),
           compute_task("cb", "b", 0.1, {"x"})}};
}

}  // namespace

TEST_CASE("stream: frames are dropped exactly when the first stage is busy") {
  // Releases every 0.2 s; the first stage takes 0.3 s. Frame 0 holds a over [0, 0.3], so frame 1
  // (0.2) is dropped; frame 2 (0.4) finds a free, holds it to 0.7; frame 3 (0.6) is dropped...
  const auto r = simulate_in_child(pair(), {pipeline()}, stream_workload(5.0, 10), {});
  REQUIRE(r.frames.size() == 10);
  for (std::size_t k = 0; k < 10; ++k) {
    INFO("frame " << k);
    CHECK(r.frames[k].dropped() == (k % 2 == 1));
    if (k % 2 == 0) {
      CHECK(r.frames[k].start_s == Approx(0.2 * k));
      CHECK(r.frames[k].latency_s() == Approx(0.5));  // 0.3 + 0.1 + 0.1, never waits
      CHECK(r.frames[k].drop_reason == DropReason::None);
    } else {
      CHECK(drop_reason_name(r.frames[k].drop_reason) == "busy");
    }
  }
  CHECK(r.completed_frames() == 5);
  CHECK(r.dropped_frames() == 5);
  CHECK(r.executions == 10);
  CHECK(r.messages == 5);
}

TEST_CASE("stream: a first stage faster than the frame interval drops nothing") {
  const auto r = simulate_in_child(pair(), {pipeline(0.19)}, stream_workload(5.0, 10), {});
  CHECK(r.dropped_frames() == 0);
}

TEST_CASE("stream: the queue policy delays frames instead of dropping them") {
  // Frame k enters when a frees: start_k = 0.3 k, end_k = 0.3 k + 0.5; release 0.2 k.
  const auto r = simulate_in_child(pair(), {pipeline()}, stream_workload(5.0, 6, DropPolicy::Queue), {});
  REQUIRE(r.completed_frames() == 6);
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(r.frames[k].start_s == Approx(0.3 * k));
    CHECK(r.frames[k].end_s == Approx(0.3 * k + 0.5));
  }
  // With a 0.45 s deadline, queued frames whose deadline passed before their turn are dropped:
  // frame 1 would start at 0.3 (< 0.2 + 0.45) but ends at 0.8 > 0.65: kept, deadline missed;
  // frame 2 (release 0.4) starts at 0.6 (< 0.85) ... frame k starts at 0.3 k while its deadline
  // is 0.2 k + 0.45, so frames 0..4 start (0.3 k <= 0.2 k + 0.45 for k <= 4.5), frame 5 is late.
  const auto d =
      simulate_in_child(pair(), {pipeline()}, stream_workload(5.0, 6, DropPolicy::Queue, 0.45), {});
  CHECK(d.frames[0].deadline_met == false);  // latency 0.5 > 0.45
  CHECK(d.frames[5].dropped());
  CHECK(d.frames[5].drop_reason == DropReason::Late);
  CHECK(d.completed_frames() == 5);
}

TEST_CASE("training iterations run back to back") {
  // Each iteration takes 0.5 s alone; iteration k is released when k-1 ends.
  const auto r = simulate_in_child(pair(), {pipeline()}, training_workload(3), {});
  REQUIRE(r.frames.size() == 3);
  CHECK(r.frames[1].release_s == Approx(0.5));
  CHECK(r.frames[2].end_s == Approx(1.5));
  CHECK(r.end_s == Approx(1.5));
}

TEST_CASE("a scheduler chooses the plan variant of each frame") {
  // Variant 1 has a 0.1 s first stage: latency 0.3 instead of 0.5. The scheduler runs in the
  // simulation's child process, so it reports a wrong view by choosing variant 0 throughout.
  class Alternate : public Scheduler {
   public:
    std::string name() const override { return "alternate"; }
    FrameDecision on_frame(const SchedulerView& view) override {
      // 2 variants; the wired link has 4 ports (out and in for a and b), all at 8 Mbps.
      const bool view_ok = view.variant_count == 2 && view.link_rates_bps.size() == 4 &&
                           view.link_rates_bps[0] == 8e6 && view.frames.size() == 4;
      return {view_ok ? view.frame % 2 : 0, false};
    }
  };
  Alternate scheduler;
  const auto r =
      simulate_in_child(pair(), {pipeline(), pipeline(0.1)}, stream_workload(1.0, 4), {}, &scheduler);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(r.frames[k].variant == k % 2);
    CHECK(r.frames[k].latency_s() == Approx(k % 2 == 0 ? 0.5 : 0.3));
  }
  CHECK(r.analytic_latency_s.size() == 2);
}

TEST_CASE("stream: max_in_flight drops frames at the entry while the pipeline is full") {
  // a computes 0.1 s, sends 4e5 B at 8 Mbps (0.4 s: the link is the bottleneck), b computes 0.1 s:
  // a frame takes 0.6 s. Releases every 0.25 s with at most one frame in flight: frame 0 holds
  // the pipeline over [0, 0.6], frames 1 (0.25) and 2 (0.5) are dropped, frame 3 (0.75) enters,
  // ... so exactly frames 0, 3, 6 complete, each in 0.6 s. Unbounded, no frame is dropped (the
  // first stage is free every 0.25 s) and transfers pile up on the link instead.
  Plan plan{"pipe",
            "",
            {compute_task("ca", "a", 0.1, {}), transfer_task("x", "a", "b", 4e5, {"ca"}),
             compute_task("cb", "b", 0.1, {"x"})}};
  Workload w = stream_workload(4.0, 9);
  w.max_in_flight = 1;
  const auto r = simulate_in_child(pair(), {plan}, w, {});
  for (std::size_t k = 0; k < 9; ++k) {
    INFO("frame " << k);
    CHECK(r.frames[k].completed() == (k % 3 == 0));
    if (k % 3 == 0) CHECK(r.frames[k].latency_s() == Approx(0.6));
  }
  const auto unbounded = simulate_in_child(pair(), {plan}, stream_workload(4.0, 9), {});
  CHECK(unbounded.dropped_frames() == 0);
}

TEST_CASE("stream: a queue of capacity 1 drops frames released while it is full") {
  // Releases every 0.2 s (30 frames, the last at 5.8 s), a first stage of 0.33 s, one frame may
  // wait. The gate admits a frame every 0.33 s while the queue refills faster than that, so the
  // admissions are at 0 and then back to back: 0.33 k until the queue runs dry after the last
  // release. Walking the releases by hand (no release ever coincides with an end of 0.33 k s):
  // 19 frames are admitted and 11 dropped, none waiting more than one first stage (0.33 s).
  Workload w = stream_workload(5.0, 30, DropPolicy::Queue);
  w.queue_capacity = 1;
  const auto r = simulate_in_child(pair(), {pipeline(0.33)}, w, {});
  std::size_t completed = 0;
  for (const auto& f : r.frames) {
    if (!f.completed()) continue;
    ++completed;
    CHECK(f.start_s - f.release_s <= 0.33);
  }
  CHECK(completed == 19);
  CHECK(r.dropped_frames() == 11);
  for (const auto& f : r.frames)
    if (f.dropped()) CHECK(f.drop_reason == DropReason::Busy);
}

TEST_CASE("stream: Poisson arrivals at one slot with a fixed service time wait as M/D/1 says") {
  // Pollaczek-Khinchine for M/D/1: mean wait in the queue W = rho d / (2 (1 - rho)), rho = lambda d.
  // d = 0.1 s, lambda = 5 /s: rho = 0.5, W = 0.05 s. Over 1e5 frames the sample mean's standard
  // error is about 1% (the waits are correlated); the issue asks for 2%.
  const Platform one =
      test::make_platform({test_device("a"), test_device("b")},
                          {test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 8e6, 0.0)});
  Workload w = stream_workload(5.0, 100000, DropPolicy::Queue);
  w.arrivals = Arrivals::Poisson;
  w.seed = 11;
  const auto r = simulate_in_child(one, {{"serve", "", {compute_task("c", "a", 0.1, {})}}}, w, {});
  REQUIRE(r.completed_frames() == 100000);
  double wait = 0, service_error = 0;
  for (const auto& f : r.frames) {
    wait += f.start_s - f.release_s;
    service_error = std::max(service_error, std::abs(f.end_s - f.start_s - 0.1));
  }
  CHECK(service_error < 1e-9);
  CHECK(wait / 1e5 == Approx(0.05).epsilon(0.02));
}
