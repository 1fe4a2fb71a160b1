// Transfers in flight (Scheduler::sees_in_flight, MeasuredLink::in_flight...): what a sender knows
// of its transfers still travelling, each against a closed form.
#include <cstdio>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// Two devices on one 8 Mbps (1 MB/s) WiFi cell with 10 ms latency.
Platform wifi_pair() {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
}

// Frame 0 runs variant 1 (the transfers under test), frame 1 (released at 0.5 s, 2 fps) variant 0
// (0.1 s on a) and writes down what link 0 shows of the transfers in flight.
class Watcher final : public Scheduler {
 public:
  explicit Watcher(bool sees) : sees_(sees) {}
  std::string name() const override { return "watcher"; }
  bool sees_in_flight() const override { return sees_; }
  FrameDecision on_frame(const SchedulerView& view) override {
    if (view.frame == 1) {
      const MeasuredLink& m = view.measured_links.at(0);
      log = fmt::format("{} {} {} {} {} {}", m.in_flight, m.oldest_bytes, m.oldest_delivered_bytes,
                        m.oldest_elapsed_s, m.oldest_latency_s, m.in_flight_rate_bps());
    }
    return {view.frame == 0 ? 1u : 0u, false};
  }
  std::string log;

 private:
  bool sees_;
};

struct InFlight {
  int count = 0;
  double bytes = 0, delivered = 0, elapsed = 0, latency = 0, rate = 0;
};

InFlight watch(const Platform& p, std::vector<Task> tasks, bool sees = true) {
  const std::vector<Plan> plans{{"local", "", {compute_task("c", "a", 0.1, {})}},
                                {"up", "", std::move(tasks)}};
  const auto text = run_in_child_process([&] {
    Watcher s(sees);
    simulate(p, plans, stream_workload(2.0, 2, DropPolicy::Queue), {}, &s);
    return s.log;
  });
  InFlight f;
  REQUIRE(std::sscanf(text.c_str(), "%d %lf %lf %lf %lf %lf", &f.count, &f.bytes, &f.delivered, &f.elapsed,
                      &f.latency, &f.rate) == 6);
  return f;
}

}  // namespace

TEST_CASE("in flight: one transfer at rate R shows R * (t - L) / 8 bytes delivered and rate R") {
  // 1e6 B from 0 at 1 MB/s after 10 ms: at 0.5 s, 0.49 s sent = 490000 B, rate 8 Mbps.
  const auto f = watch(wifi_pair(), {transfer_task("x", "a", "b", 1e6, {})});
  CHECK(f.count == 1);
  CHECK(f.bytes == 1e6);
  CHECK(f.delivered == Approx(490000).epsilon(1e-6));
  CHECK(f.elapsed == Approx(0.5).epsilon(1e-9));
  CHECK(f.latency == Approx(0.01).epsilon(1e-9));
  CHECK(f.rate == Approx(8e6).epsilon(1e-6));
}

TEST_CASE("in flight: two transfers started together share the link, R / 2 each") {
  const auto f =
      watch(wifi_pair(), {transfer_task("x", "a", "b", 1e6, {}), transfer_task("y", "a", "b", 1e6, {})});
  CHECK(f.count == 2);
  CHECK(f.delivered == Approx(245000).epsilon(1e-6));
  CHECK(f.rate == Approx(4e6).epsilon(1e-6));
}

TEST_CASE("in flight: the oldest of two transfers is shown, alone and then sharing") {
  // x sends alone from 0.01 to 0.21 s (y starts after 0.2 s on a, pays 10 ms), then at half rate:
  // 0.2 * 1e6 + 0.29 * 5e5 = 345000 B in 0.49 s.
  const auto f = watch(wifi_pair(), {transfer_task("x", "a", "b", 1e6, {}), compute_task("c", "a", 0.2, {}),
                                     transfer_task("y", "a", "b", 1e6, {"c"})});
  CHECK(f.count == 2);
  CHECK(f.elapsed == Approx(0.5).epsilon(1e-9));
  CHECK(f.delivered == Approx(345000).epsilon(1e-6));
  CHECK(f.rate == Approx(8.0 * 345000 / 0.49).epsilon(1e-6));
}

TEST_CASE("in flight: a rate change mid-transfer counts the bytes at each rate") {
  // 8 Mbps until 0.3 s, then 4 Mbps: 0.29 * 1e6 + 0.2 * 5e5 = 390000 B by 0.5 s.
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {0.3, 4e6}};
  const auto f = watch(p, {transfer_task("x", "a", "b", 1e6, {})});
  CHECK(f.count == 1);
  CHECK(f.delivered == Approx(390000).epsilon(1e-6));
  CHECK(f.rate == Approx(8.0 * 390000 / 0.49).epsilon(1e-6));
}

TEST_CASE("in flight: a scheduler that does not ask sees nothing in flight") {
  const auto f = watch(wifi_pair(), {transfer_task("x", "a", "b", 1e6, {})}, false);
  CHECK(f.count == 0);
  CHECK(f.delivered == 0.0);
  CHECK(f.rate == 0.0);
}
