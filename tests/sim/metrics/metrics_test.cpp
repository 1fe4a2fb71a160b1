// Run metrics from hand-built simulation results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include "sim/metrics/metrics.hpp"

using namespace coinfer;

namespace {

FrameRecord frame(double release, double end, bool dropped = false) {
  FrameRecord f;
  f.release_s = release;
  f.start_s = release;
  f.end_s = dropped ? std::nan("") : end;
  f.drop_reason = dropped ? DropReason::Busy : DropReason::None;
  f.deadline_met = !dropped;
  return f;
}

// The definition results.json always had: sort a copy, take the ceil(p/100 * n)-th smallest.
double sorted_nearest_rank(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
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

namespace {

// Negative values, -0 / +0, subnormals, ties and values sharing their high 48 bits (1 and its next
// doubles), `copies` times each.
std::vector<double> awkward_values(int copies) {
  const std::vector<double> one = {3.5,
                                   -2.0,
                                   0.0,
                                   1.0,
                                   std::nextafter(1.0, 2.0),
                                   std::nextafter(1.0, 0.0),
                                   1.0,
                                   -1e300,
                                   1e300,
                                   4.9e-324,
                                   -4.9e-324,
                                   7.0,
                                   7.0,
                                   7.0,
                                   -0.5};
  std::vector<double> v;
  for (int c = 0; c < copies; ++c) v.insert(v.end(), one.begin(), one.end());
  return v;
}

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// The ranks of `v` on both sides of every change of value in its sorted order (the ranks where a
// selection that lands one off shows), the first and last, and every 61st; each alone is the
// sorted vector's element, and three together too. (Every rank of 4,110 values is 4,110 selections
// with a megabyte of histograms each: half a minute under the sanitizers, for no rank kind more.)
void check_every_rank(const std::vector<double>& v) {
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  const auto each = [&](auto&& visit) {
    for (double x : v) visit(x);
  };
  std::vector<std::size_t> ranks;
  for (std::size_t rank = 1; rank <= v.size(); ++rank) {
    const bool first_of_value = rank == 1 || !same_bits(sorted[rank - 1], sorted[rank - 2]);
    const bool last_of_value = rank == v.size() || !same_bits(sorted[rank - 1], sorted[rank]);
    if (first_of_value || last_of_value || rank % 61 == 0) ranks.push_back(rank);
  }
  for (std::size_t rank : ranks) {
    INFO("rank " << rank);
    CHECK(kth_smallest(each, rank) == sorted[rank - 1]);
  }
  const auto [lowest, third, highest] = kth_smallest(each, std::array<std::size_t, 3>{1, 3, v.size()});
  CHECK(lowest == sorted.front());
  CHECK(third == sorted[2]);
  CHECK(highest == sorted.back());
}

}  // namespace

TEST_CASE("selection among a few values finds what a sort finds, sign, ties and exponents included") {
  check_every_rank(awkward_values(1));    // 15 values: the sorted copy
  check_every_rank(awkward_values(273));  // 4095 values: the most that are copied
}

TEST_CASE("radix selection finds what a sort finds, sign, ties and exponents included") {
  check_every_rank(awkward_values(274));  // 4110 values: the radix passes
  // 10^4 random latencies: every percentile from 1 to 100 as the sort-based definition.
  std::mt19937_64 rng(5);
  std::lognormal_distribution<double> latency_ms(4.0, 1.0);
  std::vector<double> many(10000);
  for (auto& x : many) x = latency_ms(rng);
  for (int p = 1; p <= 100; ++p) CHECK(percentile_nearest_rank(many, p) == sorted_nearest_rank(many, p));
}

TEST_CASE("percentiles of the compact records equal the previous definition") {
  // 7 completed frames, latencies (end - release) 30, 10, 70, 50, 20, 60, 40 ms, and 2 dropped
  // frames that must not count. Sorted: 10 20 30 40 50 60 70. p50: rank ceil(3.5) = 4 -> 40 ms;
  // p95: rank ceil(6.65) = 7 -> 70 ms; mean 40 ms. The sort-based definition over the latencies
  // gives the same numbers, bit for bit.
  SimulationResult r;
  const std::vector<double> latencies_ms = {30, 10, 70, 50, 20, 60, 40};
  for (std::size_t k = 0; k < latencies_ms.size(); ++k) {
    const double release = 0.1 * static_cast<double>(k);
    r.frames.push_back(frame(release, release + latencies_ms[k] / 1e3));
    if (k == 2 || k == 5) r.frames.push_back(frame(release + 0.05, 0, true));
  }
  std::vector<double> previous;  // latency_s() * 1e3 of completed frames, as run_metrics computed them
  for (const auto& f : r.frames)
    if (f.completed()) previous.push_back(f.latency_s() * 1e3);
  const Json m = run_metrics("p", r);
  CHECK(m["completed"] == 7);
  CHECK(m["latency_ms"]["p50"].get<double>() == sorted_nearest_rank(previous, 50));
  CHECK(m["latency_ms"]["p95"].get<double>() == sorted_nearest_rank(previous, 95));
  CHECK(m["latency_ms"]["p50"].get<double>() == Approx(40));
  CHECK(m["latency_ms"]["p95"].get<double>() == Approx(70));
  CHECK(m["latency_ms"]["max"].get<double>() == Approx(70));
  CHECK(m["latency_ms"]["mean"].get<double>() == Approx(40));
}

TEST_CASE("latency, throughput and drops of a small stream") {
  // frames released at 0, 0.1, 0.2; latencies 50, 70 ms and frame 2 dropped.
  // throughput = 2 completed / (last end 0.17 - first release 0) = 11.7647 fps
  SimulationResult r;
  r.seed = 9;
  r.frames = {frame(0.0, 0.05), frame(0.1, 0.17), frame(0.2, 0, true)};
  r.analytic_latency_s = {0.05};
  DeviceStats d;
  d.device = "phone";
  d.energy_j = 1.5;
  d.active_energy_j = 1.25;
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
  CHECK(m["active_energy_j"]["phone"] == 1.25);
  CHECK(m["busy_s"]["phone"] == 0.12);
  CHECK(m["analytic_latency_ms"].get<double>() == Approx(50));
}

TEST_CASE("a run where every frame was dropped has null latencies") {
  SimulationResult r;
  r.frames = {frame(0.0, 0, true)};
  const Json m = run_metrics("x", r);
  CHECK(m["latency_ms"]["p95"].is_null());
  CHECK(m["throughput_fps"].is_null());
}

TEST_CASE("the frames CSV has one row per frame and blanks for a dropped frame") {
  SimulationResult r;
  r.frames = {frame(0.0, 0.05), frame(0.1, 0, true)};
  const auto csv = frames_csv(r);
  CHECK(csv.find("0,0,0,0,0.05,50,0,,1\n") != std::string::npos);
  CHECK(csv.find("1,0,0.1,0.1,,,1,busy,0\n") != std::string::npos);
}
