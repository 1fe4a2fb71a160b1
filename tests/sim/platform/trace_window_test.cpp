#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/platform/trace_window.hpp"

using namespace coinfer;

namespace {

// Rates 1, 2, 3 Mbit/s from 0, 1 and 2 s; period 3 s.
TraceSchedule three_steps() { return {{{0.0, 1e6}, {1.0, 2e6}, {2.0, 3e6}}, 3.0}; }

}  // namespace

TEST_CASE("trace window: looping from start_s rotates the trace and keeps its period") {
  // Trace time 1.5 is in [1, 2): 2e6 from 0; trace 2 -> 0.5 s: 3e6; trace 3 = 0 -> 1.5 s: 1e6;
  // trace 1 -> 2.5 s: 2e6.
  const auto w = apply_trace_window(three_steps(), {1.5, 1.0, true});
  CHECK(w.points == std::vector<std::pair<double, double>>{{0.0, 2e6}, {0.5, 3e6}, {1.5, 1e6}, {2.5, 2e6}});
  CHECK(w.period_s == 3.0);
}

TEST_CASE("trace window: a start beyond the period wraps around when looping") {
  // 4.5 mod 3 = 1.5: the same schedule as starting at 1.5.
  CHECK(apply_trace_window(three_steps(), {4.5, 1.0, true}).points ==
        apply_trace_window(three_steps(), {1.5, 1.0, true}).points);
}

TEST_CASE("trace window: without loop, points before start_s are dropped and nothing repeats") {
  // The rate in force at 1.5 (2e6) from 0, then trace 2 -> 0.5 s: 3e6.
  const auto w = apply_trace_window(three_steps(), {1.5, 1.0, false});
  CHECK(w.points == std::vector<std::pair<double, double>>{{0.0, 2e6}, {0.5, 3e6}});
  CHECK(w.period_s == 0.0);
}

TEST_CASE("trace window: scale multiplies every rate, holding at least 1 bit/s") {
  TraceSchedule s = three_steps();
  s.points[0].second = 1.0;
  // 1 * 0.5 -> 0.5, held at 1; 2e6 * 0.5 = 1e6; 3e6 * 0.5 = 1.5e6.
  const auto w = apply_trace_window(s, {0.0, 0.5, true});
  CHECK(w.points == std::vector<std::pair<double, double>>{{0.0, 1.0}, {1.0, 1e6}, {2.0, 1.5e6}});
}

TEST_CASE("trace window: looping a trace without a period is an error") {
  CHECK_THROWS_WITH(apply_trace_window({{{0.0, 1e6}}, 0.0}, {0.0, 1.0, true}), Catch::Contains("no period"));
}

TEST_CASE("trace stats: time-weighted mean and quantiles") {
  // Period 4: weights 1, 1, 2 s. Mean (1 + 2 + 2 * 3) / 4 = 2.25 Mbit/s. Sorted cumulative
  // weights 1, 2, 4 of 4: p5 (0.2) -> 1e6, p50 (2) -> 2e6, p95 (3.8) -> 3e6.
  TraceSchedule s = three_steps();
  s.period_s = 4.0;
  const auto st = trace_stats(s);
  CHECK(st.duration_s == 4.0);
  CHECK(st.mean_bps == Approx(2.25e6));
  CHECK(st.min_bps == 1e6);
  CHECK(st.p5_bps == 1e6);
  CHECK(st.p50_bps == 2e6);
  CHECK(st.p95_bps == 3e6);
  CHECK(st.max_bps == 3e6);
  CHECK(st.points == 3);
}
