// The replay's side of the Scheduler fed by hand, without SimGrid: the view it builds, what the
// devices measure, and how it checks a scheduler's answers.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim/core/error.hpp"
#include "sim/replay/scheduler_port.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::replay;
using test::test_device;

namespace {

// Answers what a test sets.
class FakeScheduler final : public Scheduler {
 public:
  FrameDecision decision;
  std::vector<DeviceStall> stalls;
  std::vector<ProbeRequest> probes;
  std::vector<double> scores;  ///< per frame (NaN: none)
  std::string name() const override { return "fake"; }
  FrameDecision on_frame(const SchedulerView&) override { return decision; }
  std::vector<DeviceStall> take_stalls() override { return stalls; }
  std::vector<ProbeRequest> take_probes(const SchedulerView&) override { return probes; }
  double frame_score(std::size_t frame, const FrameRecord&) override { return scores.at(frame); }
};

// a and b on one 8 Mbps WiFi cell with 10 ms latency.
Platform wifi_pair() {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
}

// Two plan variants: a computes; a sends "x" (1 MB) to b, which computes.
std::vector<Plan> two_variants() {
  return {{"local", "", {compute_task("c", "a", 0.1, {})}},
          {"offload", "", {transfer_task("x", "a", "b", 1e6, {}), compute_task("s", "b", 0.1, {"x"})}}};
}

// A port over wifi_pair() and two_variants(), frames 0..2 released.
struct Port {
  explicit Port(Workload w = stream_workload(10.0, 3, DropPolicy::Queue, 0.5))
      : platform(wifi_pair()), topology(platform), plan_specs(two_variants()), workload(std::move(w)) {
    for (const auto& p : plan_specs) plans.push_back(compile_plan(p, topology));
    for (const auto& l : topology.links()) series.emplace_back(*l.spec, link_seed(1, l.name()));
    out.frames.resize(3);
  }
  SchedulerPort port() { return SchedulerPort(&scheduler, topology, plans, workload, series, out); }
  Platform platform;
  Topology topology;
  std::vector<Plan> plan_specs;
  std::vector<CompiledPlan> plans;
  Workload workload;
  std::vector<BandwidthSeries> series;
  SimulationResult out;
  FakeScheduler scheduler;
};

}  // namespace

TEST_CASE("scheduler port: the view shows the snapshot, the links' true rates and the workload's deadline") {
  Port p;
  SchedulerPort port = p.port();
  const SchedulerView v = port.view({2.0, 1, 1, 4, 5});
  CHECK(v.now_s == 2.0);
  CHECK(v.frame == 1);
  CHECK(v.variant_count == 2);
  CHECK(v.current_variant == 1);
  CHECK(v.queued_frames == 4);
  CHECK(v.frames_in_flight == 5);
  CHECK(v.deadline_s == 0.5);
  CHECK(v.frames.data() == p.out.frames.data());
  CHECK(v.frames.size() == 3);
  CHECK(v.link_rates_bps == std::vector<double>{8e6});
  REQUIRE(v.measured_links.size() == 1);
  CHECK(v.measured_links[0].transfers == 0);
}

TEST_CASE("scheduler port: measured links follow completed transfers, the route's latency taken out") {
  Port p;
  SchedulerPort port = p.port();
  const Route& route = *p.topology.route_or_null(0, 0, 1);
  // 1 MB sent at 0, arrived at 1.01: 1 s after the 10 ms latency, 8 Mbps. Then 1 MB in
  // [2, 2.51]: 0.5 s, 16 Mbps; EWMA 0.5 * 16 + 0.5 * 8 = 12 Mbps.
  port.measure_transfer(route, 1e6, 0.0, 1.01);
  port.measure_transfer(route, 1e6, 2.0, 2.51);
  // One that took no longer than its latency measures nothing.
  port.measure_transfer(route, 1.0, 3.0, 3.01);
  const MeasuredLink m = port.view({}).measured_links[0];
  CHECK(m.transfers == 2);
  CHECK(m.last_rate_bps == Approx(16e6));
  CHECK(m.last_duration_s == Approx(0.5));
  CHECK(m.ewma_rate_bps == Approx(12e6));
  CHECK(m.last_end_s == 2.51);
}

TEST_CASE("scheduler port: in flight, a link shows the transfer sending the longest, the first on a tie") {
  Port p;
  const Route& route = *p.topology.route_or_null(0, 0, 1);
  std::vector<MeasuredLink> links(1);
  SchedulerPort::add_in_flight(links, {&route, 1e6, 1e5, 0.5});
  SchedulerPort::add_in_flight(links, {&route, 2e6, 3e5, 0.8});
  SchedulerPort::add_in_flight(links, {&route, 4e6, 0.0, 0.8});
  CHECK(links[0].in_flight == 3);
  CHECK(links[0].oldest_bytes == 2e6);
  CHECK(links[0].oldest_delivered_bytes == 3e5);
  CHECK(links[0].oldest_latency_s == 0.01);
  // 8 * 3e5 bytes over 0.8 - 0.01 s.
  CHECK(links[0].in_flight_rate_bps() == Approx(8 * 3e5 / 0.79));
}

TEST_CASE("scheduler port: a variant out of range is an error naming the scheduler") {
  Port p;
  SchedulerPort port = p.port();
  p.scheduler.decision = {1, false};
  CHECK(port.on_frame(port.view({})).variant == std::optional<std::size_t>{1});
  p.scheduler.decision = {2, false};
  CHECK_THROWS_WITH(port.on_frame(port.view({})), "scheduler 'fake' chose variant 2 of 2");
}

TEST_CASE("scheduler port: stalls come as device indices") {
  Port p;
  SchedulerPort port = p.port();
  p.scheduler.stalls = {{"b", 0.25}};
  CHECK(port.take_stalls() == std::vector<std::pair<std::size_t, double>>{{1, 0.25}});
}

TEST_CASE("scheduler port: a stall of an unknown device is an error") {
  Port p;
  SchedulerPort port = p.port();
  p.scheduler.stalls = {{"z", 0.25}};
  CHECK_THROWS_WITH(port.take_stalls(), "scheduler 'fake' stalled device 'z' for 0.25 s");
}

TEST_CASE("scheduler port: a probe gets its route and the pair's channel") {
  Port p;
  SchedulerPort port = p.port();
  p.scheduler.probes = {{"w", "b", "a", 1000.0}};
  const auto probes = port.take_probes(port.view({}));
  REQUIRE(probes.size() == 1);
  CHECK(probes[0].route == p.topology.route_or_null(0, 1, 0));
  CHECK(probes[0].channel == pair_channel("a", "b"));
  CHECK(probes[0].bytes == 1000.0);
}

TEST_CASE("scheduler port: a probe with no route is an error") {
  Port p;
  SchedulerPort port = p.port();
  p.scheduler.probes = {{"w", "a", "z", 1000.0}};
  CHECK_THROWS_WITH(
      port.take_probes(port.view({})),
      "scheduler 'fake' asked for a probe of 1000 bytes from 'a' to 'z' over 'w': no such route");
}

TEST_CASE("scheduler port: a frame is held once until released") {
  Port p;
  SchedulerPort port = p.port();
  CHECK_FALSE(port.holds_any());
  CHECK(port.hold(2));
  CHECK_FALSE(port.hold(2));  // held already: no second expiry
  CHECK(port.is_held(2));
  port.expect_held(2);
  port.release(2);
  CHECK_FALSE(port.holds_any());
  CHECK_THROWS_WITH(port.expect_held(2), "scheduler 'fake' decided on frame 2, which is not held");
}

TEST_CASE("scheduler port: holding a frame needs a deadline to end the wait") {
  Port p(stream_workload(10.0, 3, DropPolicy::Queue));
  SchedulerPort port = p.port();
  CHECK_THROWS_WITH(port.hold(0),
                    "scheduler 'fake' held frame 0, but the workload has no deadline to end the wait");
}

TEST_CASE("scheduler port: a continuation sets this frame's transfer sizes by task id") {
  Port p;
  SchedulerPort port = p.port();
  // Variant 1's tasks: x (transfer), s (compute): x gets 500 bytes, s keeps NaN (the plan's).
  const auto bytes = port.continuation_bytes(0, Continuation::run(1, {{"x", 500.0}}));
  REQUIRE(bytes.size() == 2);
  CHECK(bytes[0] == 500.0);
  CHECK(std::isnan(bytes[1]));
  CHECK(port.continuation_bytes(0, Continuation::run(1)).empty());
  CHECK_THROWS_WITH(port.continuation_bytes(0, Continuation::run(1, {{"s", 500.0}})),
                    "scheduler 'fake' set 500 bytes for 's', which is no transfer of variant 1");
  CHECK_THROWS_WITH(port.continuation_bytes(4, Continuation::run(2)),
                    "scheduler 'fake' continued frame 4 with variant 2 of 2");
}

TEST_CASE("scheduler port: scores are kept per frame once the scheduler gives one") {
  Port p;
  SchedulerPort port = p.port();
  const double none = std::numeric_limits<double>::quiet_NaN();
  p.scheduler.scores = {none, 1.0, 0.0};
  port.record_score(0);
  CHECK(p.out.frame_scores.empty());  // no score yet: none kept
  port.record_score(1);
  port.record_score(2);
  REQUIRE(p.out.frame_scores.size() == 3);
  CHECK(std::isnan(p.out.frame_scores[0]));
  CHECK(p.out.frame_scores[1] == 1.0);
  CHECK(p.out.frame_scores[2] == 0.0);
}
