// Run metrics from hand-built simulation results.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/metrics/metrics.hpp"

using namespace coinfer;

namespace {

FrameRecord frame(std::size_t i, double release, double end, bool dropped = false) {
  FrameRecord f;
  f.index = i;
  f.release_s = release;
  f.start_s = release;
  f.end_s = dropped ? std::nan("") : end;
  f.dropped = dropped;
  f.deadline_met = !dropped;
  return f;
}

}  // namespace

TEST_CASE("nearest-rank percentiles") {
  // n = 20: p95 -> ceil(19) = 19th smallest; p50 -> 10th smallest
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  CHECK(percentile_nearest_rank(v, 95) == 19);
  CHECK(percentile_nearest_rank(v, 50) == 10);
  CHECK(percentile_nearest_rank({7}, 95) == 7);
  CHECK(std::isnan(percentile_nearest_rank({}, 50)));
}

TEST_CASE("latency, throughput and drops of a small stream") {
  // frames released at 0, 0.1, 0.2; latencies 50, 70 ms and frame 2 dropped.
  // throughput = 2 completed / (last end 0.17 - first release 0) = 11.7647 fps
  SimulationResult r;
  r.seed = 9;
  r.frames = {frame(0, 0.0, 0.05), frame(1, 0.1, 0.17), frame(2, 0.2, 0, true)};
  r.analytic_latency_s = {0.05};
  DeviceStats d;
  d.device = "phone";
  d.energy_j = 1.5;
  d.busy_s = 0.12;
  r.devices = {d};
  const Json m = run_metrics("demo", r);
  CHECK(m["scenario"] == "demo");
  CHECK(m["seed"] == 9);
  CHECK(m["frames"] == 3);
  CHECK(m["completed"] == 2);
  CHECK(m["dropped"] == 1);
  CHECK(m["latency_ms"]["mean"].get<double>() == Approx(60));
  CHECK(m["latency_ms"]["max"].get<double>() == Approx(70));
  CHECK(m["throughput_fps"].get<double>() == Approx(2 / 0.17));
  CHECK(m["energy_j"]["phone"] == 1.5);
  CHECK(m["busy_s"]["phone"] == 0.12);
  CHECK(m["analytic_latency_ms"].get<double>() == Approx(50));
}

TEST_CASE("a run where every frame was dropped has null latencies") {
  SimulationResult r;
  r.frames = {frame(0, 0.0, 0, true)};
  const Json m = run_metrics("x", r);
  CHECK(m["latency_ms"]["p95"].is_null());
  CHECK(m["throughput_fps"].is_null());
}

TEST_CASE("the frames CSV has one row per frame and blanks for a dropped frame") {
  SimulationResult r;
  r.frames = {frame(0, 0.0, 0.05), frame(1, 0.1, 0, true)};
  const auto csv = frames_csv(r);
  CHECK(csv.find("0,0,0,0,0.05,50,0,,1\n") != std::string::npos);
  CHECK(csv.find("1,0,0.1,0.1,,,1,,0\n") != std::string::npos);
}
