// Per-stage metrics from a plan and a hand-made trace.
#include "sim/metrics/stage_metrics.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"

using namespace coinfer;

namespace {

// Stage "conv": a map (0.0-0.1 s on the air), computes on a (0.1-0.4) and b (0.1-0.3), a reduce
// (0.45-0.5, after a 0.05 s wake-up). Frame released at 0, done at 0.5.
struct Run {
  Plan plan{"p",
            "",
            {transfer_task("m", "go", "a", 1000, {}, "conv"), compute_task("ca", "a", 0.3, {"m"}, "conv"),
             compute_task("cb", "b", 0.2, {}, "conv"), transfer_task("r", "a", "go", 500, {"ca"}, "conv")}};
  SimulationResult result;
  Run() {
    FrameRecord f;
    f.release_s = 0.0;
    f.start_s = 0.0;
    f.end_s = 0.5;
    result.frames = {f};
    result.trace = {{0, "m", "transfer", 0.0, 0.1, 0, "conv"},
                    {1, "ca", "compute", 0.1, 0.4, 0, "conv"},
                    {2, "cb", "compute", 0.1, 0.3, 0, "conv"},
                    {0, "r", "transfer", 0.45, 0.5, 0, "conv"}};
  }
};

Graph one_conv() {
  GraphBuilder b("g");
  b.conv(b.input("data", {1, 4, 4}), "conv", 1, 3, 1, 1);
  return b.build();
}

}  // namespace

TEST_CASE("stage metrics: compute is the busiest device, transfer the summed air time", "[metrics]") {
  const Run r;
  const Json m = stage_metrics(r.plan, r.result, one_conv(), "go");
  const Json& s = m["stages"]["conv"];
  CHECK(s["compute_ms"].get<double>() == Approx(300.0));   // a's 0.3 s, b ran alongside
  CHECK(s["transfer_ms"].get<double>() == Approx(150.0));  // 0.1 + 0.05, the wake-up excluded
  CHECK(s["bytes"].get<double>() == 1500.0);
  CHECK(m["stage_kinds"]["conv2d"]["mean_bytes"].get<double>() == 1500.0);
}

TEST_CASE("stage metrics: bytes into and out of the source are counted apart", "[metrics]") {
  const Run r;
  const Json m = stage_metrics(r.plan, r.result, one_conv(), "go");
  CHECK(m["bytes_to_source"].get<double>() == 500.0);     // the reduce a -> go
  CHECK(m["bytes_from_source"].get<double>() == 1000.0);  // the map go -> a
  CHECK(m["stages"]["conv"]["bytes_to_source"].get<double>() == 500.0);
  CHECK(m["stages"]["conv"]["bytes_to_source_per_sender"].get<double>() == 500.0);  // one sender, a
  CHECK(m["stages"]["conv"]["transfer_ms_to_source_per_sender"].get<double>() ==
        Approx(50.0));  // r: 0.45-0.5
}

TEST_CASE("stage metrics: exposed delivery is the latency during which no device computes", "[metrics]") {
  const Run r;
  // Computing covers 0.1-0.4 (union of both devices): 0.5 - 0.3 = 0.2 s.
  CHECK(stage_metrics(r.plan, r.result, one_conv(), "go")["exposed_delivery_ms"].get<double>() ==
        Approx(200.0));
}

TEST_CASE("stage metrics: delivery is the time with a wake-up or a transfer under way", "[metrics]") {
  Run r;
  r.result.trace.push_back({3, "wake-up", "wake-up", 0.4, 0.45, 0, ""});
  // Transfers 0-0.1 and 0.45-0.5, the wake-up 0.4-0.45: 0.2 s.
  CHECK(stage_metrics(r.plan, r.result, one_conv(), "go")["delivery_ms"].get<double>() == Approx(200.0));
}

TEST_CASE("stage metrics: a run without a trace is refused", "[metrics]") {
  Run r;
  r.result.trace.clear();
  CHECK_THROWS_AS(stage_metrics(r.plan, r.result, one_conv(), "go"), Error);
}

TEST_CASE("stage metrics: the summary names the slowest stage, the largest, first and last transfer",
          "[metrics]") {
  // A three-stage pipeline: s1 (0.2 s) -> link l1 (0.3 s on the air) -> s2 (0.5 s) -> l2 (0.1 s) -> s3.
  const Plan plan{
      "p",
      "",
      {compute_task("c1", "d1", 0.2, {}, "s1"), transfer_task("t1", "d1", "d2", 900, {"c1"}, "l1"),
       compute_task("c2", "d2", 0.5, {"t1"}, "s2"), transfer_task("t2", "d2", "d3", 300, {"c2"}, "l2"),
       compute_task("c3", "d3", 0.05, {"t2"}, "s3")}};
  SimulationResult result;
  FrameRecord f;
  f.end_s = 1.15;
  result.frames = {f};
  result.trace = {{0, "c1", "compute", 0.0, 0.2, 0, "s1"},
                  {1, "t1", "transfer", 0.2, 0.5, 0, "l1"},
                  {2, "c2", "compute", 0.5, 1.0, 0, "s2"},
                  {3, "t2", "transfer", 1.0, 1.1, 0, "l2"},
                  {4, "c3", "compute", 1.1, 1.15, 0, "s3"}};
  const Json s = stage_metrics(plan, result, one_conv(), "d1")["stage_summary"];
  CHECK(s["max_compute_ms"].get<double>() == Approx(500.0));
  CHECK(s["max_transfer_ms"].get<double>() == Approx(300.0));
  CHECK(s["first_transfer_ms"].get<double>() == Approx(300.0));
  CHECK(s["last_transfer_ms"].get<double>() == Approx(100.0));
}

TEST_CASE("stage metrics: without a transfer the summary's transfer times are 0", "[metrics]") {
  const Plan plan{"p", "", {compute_task("c", "d1", 0.2, {}, "s1")}};
  SimulationResult result;
  FrameRecord f;
  f.end_s = 0.2;
  result.frames = {f};
  result.trace = {{0, "c", "compute", 0.0, 0.2, 0, "s1"}};
  const Json s = stage_metrics(plan, result, one_conv(), "d1")["stage_summary"];
  CHECK(s["max_compute_ms"].get<double>() == Approx(200.0));
  CHECK(s["first_transfer_ms"].get<double>() == 0.0);
  CHECK(s["last_transfer_ms"].get<double>() == 0.0);
  CHECK(s["max_transfer_ms"].get<double>() == 0.0);
}
