// The replay's timeline fed by hand, without SimGrid: what reaches a TraceWriter and what is kept
// of frame 0.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/replay/dispatcher_common.hpp"
#include "sim/replay/trace_recorder.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::replay;
using test::test_device;

namespace {

// Writes every call as one line, so a test compares what the writer heard, in order.
class LineWriter final : public TraceWriter {
 public:
  std::vector<std::string> lines;
  void add_track(std::size_t id, TraceGroup, std::string_view name) override {
    lines.push_back(fmt::format("track {} {}", id, name));
  }
  void add_counter(std::size_t id, TraceGroup, std::string_view name, std::string_view series) override {
    lines.push_back(fmt::format("counter {} {} ({})", id, name, series));
  }
  void slice(const TraceSlice& s) override {
    lines.push_back(fmt::format("slice {} {} {} {}-{} frame {}", s.track, s.category, s.name, s.start_s,
                                s.end_s, s.frame));
  }
  void sample(std::size_t id, double time_s, double value) override {
    lines.push_back(fmt::format("sample {} {}={}", id, time_s, value));
  }
  void finish() override { lines.push_back("finish"); }
  void publish(const std::string&) override {}
  /// The lines that start with `prefix`.
  std::vector<std::string> starting_with(const std::string& prefix) const {
    std::vector<std::string> found;
    for (const auto& l : lines)
      if (l.rfind(prefix, 0) == 0) found.push_back(l);
    return found;
  }
  /// The lines from the first that starts with `prefix` on.
  std::vector<std::string> from(const std::string& prefix) const {
    auto it = lines.begin();
    while (it != lines.end() && it->rfind(prefix, 0) != 0) ++it;
    return {it, lines.end()};
  }
};

// a and b on one 8 Mbps WiFi cell "w" whose radios wake in 0.1 s after 0.5 s idle.
Platform wifi_pair() {
  Platform p = test::make_platform({test_device("a"), test_device("b")},
                                   {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].power_save_timeout_s = 0.5;
  return p;
}

std::vector<BandwidthSeries> series_of(const Topology& topology) {
  std::vector<BandwidthSeries> series;
  for (const auto& l : topology.links()) series.emplace_back(*l.spec, link_seed(1, l.name()));
  return series;
}

// A writer and a recorder over `platform`, radios asleep at the start.
struct Recorded {
  explicit Recorded(const Platform& platform, bool record_frame0 = false)
      : topology(platform),
        series(series_of(topology)),
        recorder(topology, series, -kInf, &writer, record_frame0, out) {}
  Topology topology;
  std::vector<BandwidthSeries> series;
  LineWriter writer;
  SimulationResult out;
  TraceRecorder recorder;
};

}  // namespace

TEST_CASE("trace recorder: tracks are the devices, the links, then a radio when it first wakes") {
  const Platform p = wifi_pair();
  Recorded r(p);
  REQUIRE(r.topology.links().size() == 1);
  const std::string link = r.topology.links()[0].name();
  CHECK(r.out.trace_tracks == std::vector<std::string>{"a", "b", link});
  // Radio b@w is radio 1 (radio_of(0, 1)); its track is the next one (3), made by its first
  // wake-up only.
  REQUIRE(r.topology.radio_of(0, 1) == 1);
  r.recorder.wake_up(1, 1.0, 1.1, 4, "");
  r.recorder.wake_up(1, 2.0, 2.1, 5, "");
  CHECK(r.out.trace_tracks == std::vector<std::string>{"a", "b", link, "radio b@w"});
  CHECK(r.writer.from("track 3") == std::vector<std::string>{"track 3 radio b@w",
                                                             "slice 3 wake-up wake-up 1-1.1 frame 4",
                                                             "slice 3 wake-up wake-up 2-2.1 frame 5"});
}

TEST_CASE("trace recorder: counters are declared and sampled at t = 0") {
  const Platform p = wifi_pair();
  Recorded r(p);
  // Counter ids: the link's rate (0, 8 Mbps), queues of a and b (1, 2), admission (3), then the
  // radios of the waking network (4, 5), asleep at the start (state 0).
  const std::string link = r.topology.links()[0].name();
  CHECK(r.writer.from("counter") ==
        std::vector<std::string>{
            "counter 0 " + link + " rate (mbps)", "sample 0 0=8", "counter 1 a queue (tasks)", "sample 1 0=0",
            "counter 2 b queue (tasks)", "sample 2 0=0", "counter 3 admission queue (frames)", "sample 3 0=0",
            "counter 4 radio a@w (state)", "sample 4 0=0", "counter 5 radio b@w (state)", "sample 5 0=0"});
}

TEST_CASE("trace recorder: frame 0's slices are kept, every frame's streamed") {
  const Platform p = wifi_pair();
  Recorded r(p, true);
  r.recorder.compute(0, "c", 0.0, 0.5, 0, "conv");
  r.recorder.compute(0, "c", 0.5, 1.0, 1, "conv");
  const std::vector<std::uint32_t> link0{0};
  r.recorder.transfer(link0, "x", 1.0, 2.0, 0, "");
  r.recorder.probe(link0, 2.0, 2.5);
  // Kept: the two of frame 0 (the transfer on the link's track, 2); a probe belongs to no frame.
  REQUIRE(r.out.trace.size() == 2);
  CHECK(r.out.trace[0].track == 0);
  CHECK(r.out.trace[0].label == "conv");
  CHECK(r.out.trace[1].track == 2);
  CHECK(r.out.trace[1].category == "transfer");
  CHECK(r.writer.from("slice").size() == 4);
}

TEST_CASE("trace recorder: nothing is traced without a writer or frame 0 kept") {
  const Platform p = wifi_pair();
  Topology topology(p);
  auto series = series_of(topology);
  SimulationResult out;
  TraceRecorder recorder(topology, series, -kInf, nullptr, false, out);
  CHECK_FALSE(recorder.tracing());
  recorder.compute(0, "c", 0.0, 0.5, 0, "");
  recorder.wake_up(1, 1.0, 1.1, 0, "");
  recorder.finish(2.0);
  CHECK(out.trace_tracks.empty());
  CHECK(out.trace.empty());
}

TEST_CASE("trace recorder: a queue counter is sampled only when its length changes") {
  const Platform p = wifi_pair();
  Recorded r(p);
  // Queue of b (counter 2): 2 at 1.0, still 2 at 1.5 (no sample), empty at 2.0.
  r.recorder.queue(1, 1.0, 2);
  r.recorder.queue(1, 1.5, 2);
  r.recorder.queue(1, 2.0, 0);
  r.recorder.admission(2.5, 0);  // unchanged from t = 0: no sample
  CHECK(r.writer.from("sample 2 1") == std::vector<std::string>{"sample 2 1=2", "sample 2 2=0"});
}

TEST_CASE("trace recorder: a radio falling asleep is sampled at the time it happened") {
  const Platform p = wifi_pair();
  Recorded r(p);
  // Radio a@w (radio 0, counter 4), timeout 0.5 s: waking at 1.0, on at 1.1 and idle from then,
  // so asleep from 1.6; that shows only when it wakes again at 3.0 (sampled 0 at 1.6, then 1).
  r.recorder.radio(0, 1.0, {true, 0, -kInf});
  r.recorder.radio(0, 1.1, {false, 0, 1.1});
  r.recorder.radio(0, 3.0, {true, 0, 1.1});
  // On again at 3.1 and idle: the end of the run at 4.0 shows it asleep since 3.6.
  r.recorder.radio(0, 3.1, {false, 0, 3.1});
  r.recorder.finish(4.0);
  CHECK(r.writer.from("sample 4 1") ==
        std::vector<std::string>{"sample 4 1=1", "sample 4 1.1=2", "sample 4 1.6=0", "sample 4 3=1",
                                 "sample 4 3.1=2", "sample 4 3.6=0", "finish"});
}

TEST_CASE("trace recorder: a link's rate counter samples each change of its trace, a repeated rate not") {
  Platform p = wifi_pair();
  // 8 Mbps from 0, again 8 Mbps from 1 s (no change), 4 Mbps from 2 s.
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {1.0, 8e6}, {2.0, 4e6}};
  Recorded r(p);
  r.recorder.rates(1.5);
  r.recorder.rates(3.0);
  // Samples of counter 0: 8 Mbps at 0, then the change at 2 s only.
  CHECK(r.writer.starting_with("sample 0 ") == std::vector<std::string>{"sample 0 0=8", "sample 0 2=4"});
}

TEST_CASE("trace recorder: a background job is a `background` slice on its device's track, of no frame") {
  const Platform p = wifi_pair();
  Recorded r(p, true);
  r.recorder.background(1, "featnet", 0.5, 1.5);
  // Streamed on b's track (1) under its label; never kept among frame 0's slices.
  CHECK(r.writer.starting_with("slice") ==
        std::vector<std::string>{fmt::format("slice 1 background featnet 0.5-1.5 frame {}", kNoFrame)});
  CHECK(r.out.trace.empty());
}

TEST_CASE("trace recorder: a batching device has a batch counter after the radios, sampled when it changes") {
  Platform p = wifi_pair();
  p.devices[1].batching = Batching{4, 0.0, {1.0, 1.5, 2.0, 2.5}};
  Recorded r(p);
  // Counters: rate 0, queues 1-2, admission 3, radios 4-5, then b's batch size (6).
  CHECK(r.writer.from("counter 6") == std::vector<std::string>{"counter 6 b batch (tasks)", "sample 6 0=0"});
  r.recorder.batch(1, 1.0, 3);
  r.recorder.batch(1, 1.2, 3);  // unchanged: no sample
  r.recorder.batch(1, 1.5, 1);
  r.recorder.batch(0, 1.5, 2);  // a does not batch: no counter
  CHECK(r.writer.from("sample 6 1") == std::vector<std::string>{"sample 6 1=3", "sample 6 1.5=1"});
}
