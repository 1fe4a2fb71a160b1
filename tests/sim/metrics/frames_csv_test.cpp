// frames.csv of small simulated streams against files derived by hand (times chosen as binary
// fractions so that every number is exact).
#include <catch2/catch.hpp>

#include "sim/metrics/metrics.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

// a computes 0.375 s (the first stage), sends 125000 B over an 8 Mbps wired link without latency
// (8 * 125000 / 8e6 = 0.125 s), b computes 0.125 s: a frame alone takes 0.625 s.
Platform pair() {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 8e6, 0.0)});
}

const Plan kPipeline{"pipe",
                     "",
                     {compute_task("ca", "a", 0.375, {}), transfer_task("x", "a", "b", 125000, {"ca"}),
                      compute_task("cb", "b", 0.125, {"x"})}};

}  // namespace

TEST_CASE("frames.csv of a queued stream: waits, missed deadlines and a late drop") {
  // 4 fps: frame k is released at 0.25 k and starts when a frees, at 0.375 k (it waits 0.125 k);
  // it ends at 0.375 k + 0.625, a latency of 625 + 125 k ms. Deadline 0.7 s: frame 0 meets it
  // (625 ms), frames 1-5 start in time but miss it; frame 6 would start at 2.25 > 1.5 + 0.7: late.
  const auto r = simulate_in_child(pair(), {kPipeline}, stream_workload(4.0, 7, DropPolicy::Queue, 0.7), {});
  CHECK(frames_csv(r) ==
        "frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met\n"
        "0,0,0,0,0.625,625,0,,1\n"
        "1,0,0.25,0.375,1,750,0,,0\n"
        "2,0,0.5,0.75,1.375,875,0,,0\n"
        "3,0,0.75,1.125,1.75,1000,0,,0\n"
        "4,0,1,1.5,2.125,1125,0,,0\n"
        "5,0,1.25,1.875,2.5,1250,0,,0\n"
        "6,0,1.5,,,,1,late,0\n");
}

TEST_CASE("frames.csv of a dropping stream: busy drops leave blank times") {
  // 4 fps, policy drop: a is busy for 0.375 s from each admitted frame, so every odd frame finds
  // it busy; even frames run alone (625 ms, no deadline: met).
  const auto r = simulate_in_child(pair(), {kPipeline}, stream_workload(4.0, 4), {});
  CHECK(frames_csv(r) ==
        "frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met\n"
        "0,0,0,0,0.625,625,0,,1\n"
        "1,0,0.25,,,,1,busy,0\n"
        "2,0,0.5,0.5,1.125,625,0,,1\n"
        "3,0,0.75,,,,1,busy,0\n");
}
