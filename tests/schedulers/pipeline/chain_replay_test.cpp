// The three-device chain of chain_replay.hpp, and its throughput on its own.
#include "tests/schedulers/pipeline/chain_replay.hpp"

#include <catch2/catch.hpp>

#include "sim/metrics/effective_accuracy.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

namespace coinfer::test {
namespace {

Platform chain() {
  return make_platform({test_device("d1"), test_device("d2"), test_device("d3")},
                       {shared_network("h1", NetworkKind::Wired, {"d1", "d2"}, 8e6, 0.0),
                        shared_network("h2", NetworkKind::Wired, {"d2", "d3"}, 8e6, 0.0)});
}

Plan pipeline(double hop1_bytes) {
  Plan p{"chain",
         "",
         {compute_task("s1", "d1", 0.040, {}), transfer_task("l1", "d1", "d2", hop1_bytes, {"s1"}),
          compute_task("s2", "d2", 0.030, {"l1"}), transfer_task("l2", "d2", "d3", 20e3, {"s2"}),
          compute_task("s3", "d3", 0.020, {"l2"})}};
  p.facts = std::make_shared<const PlanFileFacts>(std::map<std::string, double>{{"accuracy", 0.9}});
  return p;
}

SimulationResult replay(double hop1_bytes, std::size_t frames) {
  Workload w = stream_workload(25.0, frames, DropPolicy::Queue);
  w.max_in_flight = 5;
  w.queue_capacity = 1;
  return simulate_in_child(chain(), {pipeline(hop1_bytes)}, w, {});
}

}  // namespace

double chain_effective_accuracy(double hop1_bytes, std::size_t frames) {
  const auto r = replay(hop1_bytes, frames);
  return effective_accuracy(r.frames, {0.9}, 0.0).effective_accuracy;
}

}  // namespace coinfer::test

TEST_CASE("pipeline chain: a slow hop sets the throughput, the entry drops the rest", "[pipeline]") {
  // Hop 1 at 60 kB takes 60 ms: 16.7 fps < T_p = 25 fps. Over 1000 frames (40 s) about
  // 40 / 0.06 = 667 complete, up to the 6 frames the pipeline and its queue hold at the ends.
  const auto r = coinfer::test::replay(60e3, 1000);
  CHECK(r.completed_frames() >= 667 - 6);
  CHECK(r.completed_frames() <= 667 + 6);
  CHECK(r.completed_frames() + r.dropped_frames() == 1000);
}
