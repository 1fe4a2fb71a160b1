// Probe transfers (Scheduler::take_probes): a probe travels, costs and is measured like a frame's
// transfer, shares the link with frames, and belongs to no frame; each against a closed form.
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

// Two devices on one 8 Mbps (1 MB/s) WiFi cell with 10 ms latency; both have a WiFi radio model
// (JointDNN eq. 21: up 100 mW/Mbps + 1000 mW, down 50 mW/Mbps + 500 mW).
Platform wifi_pair() {
  Platform p = test::make_platform({test_device("a"), test_device("b")},
                                   {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
  for (auto& d : p.devices) d.calibration.edit().radio["wifi"] = {100.0, 1000.0, 50.0, 500.0};
  return p;
}

// At frame 0's release asks for probes of `bytes` a -> b (and whatever else it was given); at
// each later release writes down what link 0 measured.
class Prober final : public Scheduler {
 public:
  explicit Prober(std::vector<ProbeRequest> probes) : probes_(std::move(probes)) {}
  std::string name() const override { return "prober"; }
  FrameDecision on_frame(const SchedulerView& view) override {
    if (view.frame > 0) {
      const MeasuredLink& m = view.measured_links.at(0);
      log += fmt::format("{} {} {} {};", m.transfers, m.last_duration_s, m.last_rate_bps, m.last_end_s);
    }
    return {};
  }
  void on_frame_end(const FrameRecord&, const SchedulerView& view) override {
    const MeasuredLink& m = view.measured_links.at(0);
    ends += fmt::format("{} {} {};", m.transfers, m.last_rate_bps, m.ewma_rate_bps);
  }
  std::vector<ProbeRequest> take_probes(const SchedulerView& view) override {
    if (view.frame > 0) return {};
    return probes_;
  }
  std::string log, ends;

 private:
  std::vector<ProbeRequest> probes_;
};

// 0.1 s of compute on a: no transfer at all.
std::vector<Plan> local_only() { return {{"local", "", {compute_task("c", "a", 0.1, {})}}}; }

SimulationResult run_probes(const Platform& p, const std::vector<Plan>& plans, const Workload& w,
                            std::vector<ProbeRequest> probes) {
  return simulation_result_from_json(Json::parse(run_in_child_process([&] {
    Prober s(probes);
    return simulation_result_to_json(simulate(p, plans, w, {}, &s)).dump();
  })));
}

}  // namespace

TEST_CASE("probe: one probe takes latency + 8 bytes / rate, pays eq. 21 and is counted on its link") {
  // 1e5 B at 1 MB/s + 10 ms: 0.11 s, after the frame's 0.1 s, so the run waits for it.
  // Eq. 21 over 0.11 s at 8e5 / 0.11 bit/s: sender (100 * 0.8 + 1000 * 0.11) mJ = 0.19 J,
  // receiver (50 * 0.8 + 500 * 0.11) mJ = 0.095 J.
  const auto r = run_probes(wifi_pair(), local_only(), single_workload(), {{"w", "a", "b", 1e5}});
  REQUIRE(r.frames.size() == 1);
  CHECK(r.frames[0].end_s == Approx(0.1).epsilon(1e-9));
  CHECK(r.end_s == Approx(0.11).epsilon(1e-9));
  CHECK(r.devices[0].radio_energy_j == Approx(0.19).epsilon(1e-9));
  CHECK(r.devices[1].radio_energy_j == Approx(0.095).epsilon(1e-9));
  CHECK(r.devices[0].probe_radio_energy_j == r.devices[0].radio_energy_j);
  CHECK(r.devices[0].bytes_sent == 1e5);
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].probes == 1);
  CHECK(r.links[0].probe_bytes == 1e5);
  CHECK(r.links[0].bytes == 1e5);
  CHECK(r.links[0].messages == 1);
}

TEST_CASE("probe: costs what the same transfer in a frame costs") {
  // The frame's own upload of 1e5 B (variant 1) against a probe of 1e5 B beside a local frame.
  const std::vector<Plan> upload{{"up", "", {transfer_task("x", "a", "b", 1e5, {})}}};
  const auto framed = simulate_in_child(wifi_pair(), upload, single_workload(), {});
  const auto probed = run_probes(wifi_pair(), local_only(), single_workload(), {{"w", "a", "b", 1e5}});
  CHECK(probed.end_s == Approx(framed.frames[0].end_s).epsilon(1e-12));
  CHECK(probed.devices[0].radio_energy_j == Approx(framed.devices[0].radio_energy_j).epsilon(1e-12));
  CHECK(probed.devices[1].radio_energy_j == Approx(framed.devices[1].radio_energy_j).epsilon(1e-12));
  CHECK(framed.devices[0].probe_radio_energy_j == 0.0);
}

TEST_CASE("probe: the devices measure it like any transfer, latency taken out") {
  // Probe at 0: 1e5 B, 0.11 s, measured 0.1 s -> 8 Mbps, ended at 0.11; frame 1 at 1 s sees it.
  std::string log;
  run_in_child_process([&] {
    Prober s({{"w", "a", "b", 1e5}});
    simulate(wifi_pair(), local_only(), stream_workload(1.0, 2, DropPolicy::Queue), {}, &s);
    return s.log;
  }).swap(log);
  int n = 0;
  double d = 0, rate = 0, end = 0;
  REQUIRE(std::sscanf(log.c_str(), "%d %lf %lf %lf;", &n, &d, &rate, &end) == 4);
  CHECK(n == 1);
  CHECK(d == Approx(0.1).epsilon(1e-9));
  CHECK(rate == Approx(8e6).epsilon(1e-9));
  CHECK(end == Approx(0.11).epsilon(1e-9));
}

TEST_CASE("probe: shares the link fairly with a frame's transfer") {
  // Both start at 0 on the 8 Mbps cell: 4 Mbps each. The probe (1e5 B) ends at 0.01 + 0.2 s,
  // measured 4 Mbps; the frame's 1e6 B then has the link alone: 0.01 + 8 * 1.1e6 / 8e6 = 1.11 s,
  // measured 8e6 / 1.1 bit/s. EWMA = 0.5 * 4e6 + 0.5 * 8e6 / 1.1.
  const std::vector<Plan> upload{{"up", "", {transfer_task("x", "a", "b", 1e6, {})}}};
  std::string ends;
  const auto text = run_in_child_process([&] {
    Prober s({{"w", "a", "b", 1e5}});
    const auto r = simulate(wifi_pair(), upload, single_workload(), {}, &s);
    return fmt::format("{} {}|{}", r.frames[0].end_s, r.end_s, s.ends);
  });
  double frame_end = 0, end = 0, last = 0, ewma = 0;
  int n = 0;
  REQUIRE(std::sscanf(text.c_str(), "%lf %lf|%d %lf %lf;", &frame_end, &end, &n, &last, &ewma) == 5);
  CHECK(frame_end == Approx(1.11).epsilon(1e-9));
  CHECK(end == Approx(1.11).epsilon(1e-9));
  CHECK(n == 2);
  CHECK(last == Approx(8e6 / 1.1).epsilon(1e-9));
  CHECK(ewma == Approx(0.5 * 4e6 + 0.5 * 8e6 / 1.1).epsilon(1e-9));
}

TEST_CASE("probe: an unknown device, a missing route or a size not above 0 is refused") {
  for (const ProbeRequest& bad : {ProbeRequest{"w", "a", "nobody", 1e5}, ProbeRequest{"x", "a", "b", 1e5},
                                  ProbeRequest{"w", "a", "b", 0.0}, ProbeRequest{"w", "a", "b", kInf}}) {
    INFO(bad.network << " " << bad.to << " " << bad.bytes);
    CHECK_THROWS_WITH(run_probes(wifi_pair(), local_only(), single_workload(), {bad}),
                      Catch::Contains("scheduler 'prober' asked for a probe"));
  }
}

TEST_CASE("probe: a run with probes on a varying link repeats byte for byte") {
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Normal;
  p.networks[0].link.bandwidth.mean_bps = 8e6;
  p.networks[0].link.bandwidth.stddev_bps = 3e6;
  p.networks[0].link.bandwidth.floor_bps = 1e5;
  p.networks[0].link.bandwidth.period_s = 0.05;
  const std::vector<Plan> upload{{"up", "", {transfer_task("x", "a", "b", 2e5, {})}}};
  const auto once = [&] {
    return run_in_child_process([&] {
      Prober s({{"w", "a", "b", 3e4}, {"w", "b", "a", 2e4}});
      SimOptions o;
      o.seed = 7;
      return simulation_result_to_json(simulate(p, upload, stream_workload(5.0, 6, DropPolicy::Queue), o, &s))
          .dump();
    });
  };
  const auto a = once();
  CHECK(a == once());
  CHECK(Json::parse(a)["links"][0]["probes"] == 2);
}

namespace {

// Phones p1, p2 on an LTE cell to base s: 8 Mbps (1 MB/s) up and down, 50 ms each way.
Platform lte_pair() {
  const LinkSpec link = test::constant_link(8e6, 0.05);
  return test::make_platform({test_device("p1"), test_device("p2"), test_device("s")},
                             {test::access_network("lte", {"p1", "p2"}, "s", link, link)});
}

}  // namespace

TEST_CASE("probe: a probe on a phone's own uplink, kept outside SimGrid, takes latency + 8 bytes / rate") {
  const std::vector<Plan> plans{{"up", "", {transfer_task("x", "p1", "s", 1e5, {})}}};
  const auto r = run_probes(lte_pair(), plans, single_workload(), {{"lte", "p1", "s", 1e5}});
  // The frame's upload and the probe share p1's uplink from 0.05 s: both end at 0.05 + 0.2.
  CHECK(r.frames[0].end_s == Approx(0.25).epsilon(1e-9));
  CHECK(r.end_s == Approx(0.25).epsilon(1e-9));
}

TEST_CASE("probe: a probe up one phone's private link and down another's is refused, naming the link") {
  const std::vector<Plan> plans{{"up", "", {transfer_task("x", "p1", "s", 1e5, {})}}};
  CHECK_THROWS_WITH(run_probes(lte_pair(), plans, single_workload(), {{"lte", "p1", "p2", 1e5}}),
                    Catch::Contains("a probe from 'p1' to 'p2' crosses link 'lte/p1/up'"));
}
