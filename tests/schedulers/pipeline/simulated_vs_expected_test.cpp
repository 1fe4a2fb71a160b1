// Simulation against eq. 4-7 (`pipeline-expected`) on constant bandwidth: the replay's effective
// accuracy must equal E[T] * nu / T_gen up to the frames the pipeline holds when the stream starts
// and ends.
#include <cmath>

#include <catch2/catch.hpp>

#include "schedulers/pipeline/expected_throughput.hpp"
#include "tests/schedulers/pipeline/chain_replay.hpp"

TEST_CASE("pipeline: simulated nu_eff equals eq. 4-7 on constant bandwidth", "[pipeline]") {
  // The chain of chain_replay.hpp: T_gen = T_p = 25 fps, hop 2 at 50 fps. With 50 kB at hop 1 the
  // link is the bottleneck: E[T] = min(25, 20, 50) = 20 fps, E[nu_eff] = 20 * 0.9 / 25 = 0.72.
  // With 20 kB the computation is: E[T] = 25, E[nu_eff] = 0.9. The replay holds at most 5 frames in
  // flight plus 1 waiting, so over N frames its count differs from the steady state by at most 6:
  // |nu_eff(sim) - E[nu_eff]| <= 6 * 0.9 / N.
  const std::size_t n = 2000;
  for (const double hop1 : {50e3, 20e3}) {
    INFO("hop 1 bytes " << hop1);
    // eq. 4-7 with sigma = 0 (point masses); bandwidth and data in bytes.
    coinfer::ExpectedThroughputProblem problem;
    problem.compute_throughput_fps = 25.0;
    problem.stage_data = {hop1, 20e3};
    problem.bandwidth = {{1e6, 0.0}, {1e6, 0.0}};
    const double expected = coinfer::solve_expected_throughput(problem).expected_throughput_fps * 0.9 / 25.0;
    CHECK(expected == Approx(hop1 == 50e3 ? 0.72 : 0.9));
    const double simulated = coinfer::test::chain_effective_accuracy(hop1, n);
    CHECK(std::abs(simulated - expected) <= 6 * 0.9 / n);
  }
}
