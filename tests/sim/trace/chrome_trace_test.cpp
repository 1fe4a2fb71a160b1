// Traces streamed by simulations (each in its own child process): tracks, slices and the counter
// tracks (link rates, queues, radio states), with times derived by hand.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "sim/core/error.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/trace/chrome_trace_writer.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// Simulates in a child with a writer publishing to a temp file; returns the parsed trace.
Json traced(const Platform& p, const std::vector<Plan>& plans, const Workload& w, SimOptions options = {},
            Scheduler* scheduler = nullptr) {
  const test::TempDir dir;
  const auto path = dir.path() + "/trace.json";
  options.trace_writer = std::make_shared<ChromeTraceWriter>(path);
  simulate_in_child(p, plans, w, options, scheduler);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

// (ts in us, value) of every sample of the counter named `name`, in file order.
std::vector<std::pair<double, double>> samples(const Json& trace, const std::string& name) {
  std::vector<std::pair<double, double>> out;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "C" && e["name"] == name)
      out.emplace_back(e["ts"].get<double>(), e["args"].begin()->get<double>());
  return out;
}

Platform wifi_pair() {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
}

}  // namespace

TEST_CASE("trace: one track per device and link, one slice per task") {
  const Plan plan{"p",
                  "",
                  {compute_task("ca", "a", 0.5, {}, "conv1"), transfer_task("x", "a", "b", 1e6, {"ca"}),
                   compute_task("cb", "b", 0.25, {"x"})}};
  const Json trace = traced(wifi_pair(), {plan}, single_workload());
  std::set<std::string> threads, slices;
  double x_dur_us = 0.0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") {
      slices.insert(e["name"].get<std::string>());
      CHECK(e["args"]["frame"] == 0);
      if (e["name"] == "x") x_dur_us = e["dur"].get<double>();
      if (e["name"] == "ca") CHECK(e["args"]["label"] == "conv1");
    }
  }
  // Devices a, b and the link w (radios start asleep, but no wake-up is configured).
  CHECK(threads == std::set<std::string>{"a", "b", "w"});
  CHECK(slices == std::set<std::string>{"ca", "x", "cb"});
  CHECK(x_dur_us == Approx(1.01e6));  // L + 8S/R in microseconds
  CHECK(trace["displayTimeUnit"] == "ms");
  // Counters: the constant link's rate once, the queues at 0 (nothing ever waits); no radio state
  // without a wake-up.
  CHECK(samples(trace, "w rate") == std::vector<std::pair<double, double>>{{0.0, 8.0}});
  CHECK(samples(trace, "a queue") == std::vector<std::pair<double, double>>{{0.0, 0.0}});
  CHECK(samples(trace, "admission queue") == std::vector<std::pair<double, double>>{{0.0, 0.0}});
  CHECK(samples(trace, "radio a@w").empty());
}

TEST_CASE("trace: every frame of a stream is in the file") {
  // 4 frames at 1 fps, each computes 0.1 s: 4 compute slices, frames 0-3.
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {})}};
  const Json trace = traced(wifi_pair(), {plan}, stream_workload(1.0, 4));
  std::set<std::size_t> frames;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X") frames.insert(e["args"]["frame"].get<std::size_t>());
  CHECK(frames == std::set<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("trace: a link's rate is sampled when its bandwidth changes") {
  // A bandwidth trace: 8 Mbps, 16 Mbps from 0.51 s, 4 Mbps from 0.9 s, 4 Mbps again at 1.2 s (no
  // change: no sample). 2 MB from a to b after 10 ms of latency: 0.5 MB by 0.51, 0.39 s x 2 MB/s
  // = 0.78 MB more by 0.9, the last 0.72 MB at 0.5 MB/s by 2.34 s, when the run ends.
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {0.51, 16e6}, {0.9, 4e6}, {1.2, 4e6}};
  const Json trace = traced(p, {{"p", "", {transfer_task("x", "a", "b", 2e6, {})}}}, single_workload());
  double x_end_us = 0.0;
  for (const auto& e : trace["traceEvents"])
    if (e["name"] == "x") x_end_us = e["ts"].get<double>() + e["dur"].get<double>();
  CHECK(x_end_us == Approx(2.34e6));
  const auto rate = samples(trace, "w rate");
  REQUIRE(rate.size() == 3);
  CHECK(rate[0] == std::pair<double, double>{0.0, 8.0});
  CHECK(rate[1].first == Approx(510000.0));
  CHECK(rate[1].second == 16.0);
  CHECK(rate[2].first == Approx(900000.0));
  CHECK(rate[2].second == 4.0);
}

TEST_CASE("trace: a radio's state goes asleep, waking, on and back to sleep") {
  // Wake-up 0.1 s after 0.5 s idle; radios asleep at start. Frames at 0 and 4 s: a computes 0.1 s
  // then sends 1 MB to b (1.01 s). Frame 0: a's radio wakes [0.1, 0.2], sends [0.2, 1.21], idles
  // and is asleep from 1.71. Frame 1: wakes [4.1, 4.2], sends [4.2, 5.21]; the run ends at 5.21,
  // before a falls asleep again. b's radio never wakes up (the sender pays): on while receiving.
  Platform p = wifi_pair();
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].power_save_timeout_s = 0.5;
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {}), transfer_task("x", "a", "b", 1e6, {"c"})}};
  const Json trace = traced(p, {plan}, stream_workload(0.25, 2));
  const auto a = samples(trace, "radio a@w");
  const std::vector<std::pair<double, double>> a_expected = {{0.0, 0},    {1e5, 1},   {2e5, 2},
                                                             {1.71e6, 0}, {4.1e6, 1}, {4.2e6, 2}};
  REQUIRE(a.size() == a_expected.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("sample " << i);
    CHECK(a[i].first == Approx(a_expected[i].first));
    CHECK(a[i].second == a_expected[i].second);
  }
  const auto b = samples(trace, "radio b@w");
  const std::vector<std::pair<double, double>> b_expected = {{0.0, 0}, {2e5, 2}, {1.71e6, 0}, {4.2e6, 2}};
  REQUIRE(b.size() == b_expected.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    INFO("sample " << i);
    CHECK(b[i].first == Approx(b_expected[i].first));
    CHECK(b[i].second == b_expected[i].second);
  }
  // The wake-up slices sit on the radio's own track.
  std::size_t wake_ups = 0;
  for (const auto& e : trace["traceEvents"]) wake_ups += e["ph"] == "X" && e["cat"] == "wake-up";
  CHECK(wake_ups == 2);
}

TEST_CASE("trace: queue lengths count what waits") {
  // Two tasks of one frame ready on a at once: one runs [0, 0.25], the other waits (a's queue is 1
  // over [0, 0.25]). A queued stream whose first stage (0.5 s) is slower than its releases (every
  // 0.25 s): frame 1 waits for admission over [0.25, 0.5], frame 2 over [0.5, 1.0] (frame 1 holds
  // the first stage [0.5, 1.0]); frame 3 is released at 0.75: two wait over [0.75, 1.0].
  const Plan two{"p", "", {compute_task("c1", "a", 0.25, {}), compute_task("c2", "a", 0.25, {})}};
  const auto queue = samples(traced(wifi_pair(), {two}, single_workload()), "a queue");
  CHECK(queue == std::vector<std::pair<double, double>>{{0.0, 0.0}, {0.0, 1.0}, {250000.0, 0.0}});

  const Plan slow{"p", "", {compute_task("c", "a", 0.5, {})}};
  const auto admission =
      samples(traced(wifi_pair(), {slow}, stream_workload(4.0, 4, DropPolicy::Queue)), "admission queue");
  const std::vector<std::pair<double, double>> expected = {{0, 0},     {2.5e5, 1}, {5e5, 0},  {5e5, 1},
                                                           {7.5e5, 2}, {1e6, 1},   {1.5e6, 0}};
  REQUIRE(admission.size() == expected.size());
  for (std::size_t i = 0; i < admission.size(); ++i) {
    INFO("sample " << i);
    CHECK(admission[i].first == Approx(expected[i].first));
    CHECK(admission[i].second == expected[i].second);
  }
}

TEST_CASE("trace: a failed simulation leaves no trace file") {
  // The scheduler picks a variant that does not exist: the replay throws, the writer is never
  // finished, and nothing appears at the path.
  class Bad : public Scheduler {
   public:
    std::string name() const override { return "bad"; }
    FrameDecision on_frame(const SchedulerView&) override { return {7, false}; }
  };
  Bad bad;
  const test::TempDir dir;
  const auto path = dir.path() + "/trace.json";
  SimOptions options;
  options.trace_writer = std::make_shared<ChromeTraceWriter>(path);
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {})}};
  CHECK_THROWS_AS(simulate_in_child(wifi_pair(), {plan}, stream_workload(1.0, 3), options, &bad), Error);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("trace: frame 0's slices are kept in memory only when asked, and only frame 0's") {
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {})}};
  SimOptions options;
  options.record_trace = true;
  const auto r = simulate_in_child(wifi_pair(), {plan}, stream_workload(1.0, 5), options);
  REQUIRE(r.trace.size() == 1);
  CHECK(r.trace[0].frame == 0);
  CHECK(r.trace_tracks == std::vector<std::string>{"a", "b", "w"});
  CHECK(simulate_in_child(wifi_pair(), {plan}, stream_workload(1.0, 5), {}).trace.empty());
}
