// pipeline-expected-adaptive (Hu & Krishnamachari sec. V-f): one ratio equals eq. 4-7, a
// deterministic bandwidth picks one region, a seeded Monte Carlo estimate, malformed problems.
#include "schedulers/pipeline/expected_adaptive.hpp"

#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "schedulers/pipeline/register.hpp"
#include "schedulers/pipeline/thresholds.hpp"
#include "sim/core/error.hpp"
#include "tests/solve/solve_test_support.hpp"

using coinfer::AdaptiveExpectationProblem;
using coinfer::Json;

namespace {

// Tp = 46 fps, split 1 sends 0.262 Mbit (MobileNet-v2's 32,768 B), split 2 0.197 Mbit; the Table II
// CIFAR-10 accuracies for gamma 8, 4, 2, 1.
AdaptiveExpectationProblem paper_like(double mu, double sigma) {
  AdaptiveExpectationProblem p;
  p.pipeline.compute_throughput_fps = 46.0;
  p.pipeline.stage_data = {0.262144, 0.196608};
  p.pipeline.bandwidth = {{mu, sigma}, {mu, sigma}};
  p.stage = 0;
  p.ratios = {8, 4, 2, 1};
  p.accuracies = {0.877, 0.885, 0.892, 0.902};
  return p;
}

Json solve(const Json& problem) {
  return coinfer::testing::solve_with(coinfer::register_pipeline_solvers, "pipeline-expected-adaptive",
                                      problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve(problem); });
}

}  // namespace

TEST_CASE("adaptive expectation: a single ratio is eq. 4-7 with D_s / gamma", "[pipeline]") {
  auto p = paper_like(5.0, 2.0);
  p.ratios = {4};
  p.accuracies = {0.885};
  const auto a = coinfer::solve_adaptive_expectation(p);
  auto fixed = p.pipeline;
  fixed.stage_data[0] /= 4;
  const double t = coinfer::solve_expected_throughput(fixed).expected_throughput_fps;
  CHECK(a.expected_throughput_fps == Approx(t).epsilon(1e-8));
  CHECK(a.expected_accurate_throughput_fps == Approx(0.885 * t).epsilon(1e-8));
  REQUIRE(a.regions.size() == 1);
}

TEST_CASE("adaptive expectation: a deterministic bandwidth uses the ratio Algorithm 2 picks", "[pipeline]") {
  // b = 5 Mbps on both hops. Algorithm 2 sees hop 1 only (eq. 3's one-bottleneck simplification):
  // nu * min(46, 5 gamma / 0.262) is 0.877 * 46, 0.885 * 46, 0.892 * 38.1, 0.902 * 19.1: gamma 4.
  // The pipeline then runs at min(46, 152.6, 5 / 0.197 = 25.4) = 25.4 fps (hop 2 is the bottleneck,
  // where gamma 2's 0.892 * 25.4 would have been better: the simplification's cost).
  const auto p = paper_like(5.0, 0.0);
  const auto a = coinfer::solve_adaptive_expectation(p);
  const double t = 5.0 / 0.196608;
  CHECK(a.expected_throughput_fps == Approx(t).epsilon(1e-9));
  CHECK(a.expected_accurate_throughput_fps == Approx(0.885 * t).epsilon(1e-9));
}

TEST_CASE("adaptive expectation: at least as good as every fixed ratio, equal to Monte Carlo", "[pipeline]") {
  // E[nu T] with the ratio chosen per draw of B_1 (hop 2 does not enter the choice, as in the
  // paper's one-bottleneck thresholds), against 4e5 seeded draws.
  const auto p = paper_like(5.0, 2.0);
  const auto a = coinfer::solve_adaptive_expectation(p);
  for (std::size_t k = 0; k < p.ratios.size(); ++k) {
    auto fixed = p.pipeline;
    fixed.stage_data[0] /= p.ratios[k];
    CHECK(a.expected_accurate_throughput_fps >=
          p.accuracies[k] * coinfer::solve_expected_throughput(fixed).expected_throughput_fps - 1e-9);
  }
  const coinfer::ThresholdProblem t{46.0, 0.262144, p.ratios, p.accuracies};
  std::mt19937_64 rng(11);
  std::normal_distribution<double> b(5.0, 2.0);
  double sum = 0.0;
  const int n = 400000;
  for (int i = 0; i < n; ++i) {
    const double b1 = std::max(0.0, b(rng)), b2 = std::max(0.0, b(rng));
    const auto k = coinfer::select_ratio_index(t, b1);
    sum += p.accuracies[k] * std::min({46.0, b1 * p.ratios[k] / 0.262144, b2 / 0.196608});
  }
  CHECK(a.expected_accurate_throughput_fps == Approx(sum / n).epsilon(0.005));
}

TEST_CASE("adaptive expectation: regions follow eq. 3's thresholds", "[pipeline]") {
  const Json out = solve(
      {{"compute_throughput", 46},
       {"stage_data", {0.262144}},
       {"bandwidth", {{{"mean", 5}, {"stddev", 2}}}},
       {"adaptive", {{"stage", 0}, {"ratios", {8, 4, 2, 1}}, {"accuracies", {0.877, 0.885, 0.892, 0.902}}}}});
  const auto& regions = out["regions"];
  REQUIRE(regions.size() == 4);
  // Most compressed first; the boundary between gamma 8 and 4 is eq. 3: Tp D nu_8 / (4 nu_4).
  CHECK(regions[0]["ratio"] == 8.0);
  CHECK(regions[0]["to"].get<double>() == Approx(46 * 0.262144 * 0.877 / (4 * 0.885)));
  CHECK(regions[3]["ratio"] == 1.0);
  CHECK(regions[3]["to"].is_null());
}

TEST_CASE("adaptive expectation: malformed problems name the JSON path", "[pipeline]") {
  const Json good = {{"compute_throughput", 46},
                     {"stage_data", {0.26, 0.2}},
                     {"bandwidth", {{{"mean", 5}, {"stddev", 2}}, {{"mean", 5}, {"stddev", 2}}}},
                     {"adaptive", {{"stage", 0}, {"ratios", {8, 4}}, {"accuracies", {0.87, 0.88}}}}};
  CHECK_NOTHROW(solve(good));
  auto with = [&](const char* key, Json value) {
    Json j = good;
    j["adaptive"][key] = std::move(value);
    return j;
  };
  CHECK(error_path(with("ratios", {4, 8})) == "adaptive.ratios[1]");
  CHECK(error_path(with("accuracies", {0.87, 1.5})) == "adaptive.accuracies[1]");
  CHECK(error_path(with("stage", 2)) == "adaptive.stage");
  CHECK(error_path(with("thresholds", 1)) == "adaptive.thresholds");
  Json untruncated = good;
  untruncated["bandwidth_model"] = "untruncated";
  CHECK(error_path(untruncated) == "bandwidth_model");
  Json missing = good;
  missing.erase("adaptive");
  CHECK(error_path(missing) == "adaptive");
}
