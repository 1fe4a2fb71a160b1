// pipeline-thresholds (Hu & Krishnamachari eq. 3): hand-derived thresholds, the crossing property
// checked on a bandwidth grid for seeded random instances, and malformed problems.
#include "schedulers/pipeline/thresholds.hpp"

#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "schedulers/pipeline/register.hpp"
#include "sim/core/error.hpp"

using coinfer::InputError;
using coinfer::Json;
using coinfer::ThresholdProblem;

namespace {

Json solve(const Json& problem) {
  return coinfer::testing::solve_with(coinfer::register_pipeline_solvers, "pipeline-thresholds", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve(problem); });
}

// Accuracies of MobileNet-v2 on CIFAR-10 for gamma = 8, 4, 2 and the uncompressed model (gamma 1):
// [HuK Table II] (87.7, 88.5, 89.2, 90.2 %). Tp = 10 fps, D = 1 Mbit per frame.
ThresholdProblem cifar10_problem() { return {10.0, 1.0, {8, 4, 2, 1}, {0.877, 0.885, 0.892, 0.902}}; }

double f(const ThresholdProblem& p, std::size_t k, double b) {
  return coinfer::effective_throughput(p.compute_throughput_fps, p.stage_data, p.ratios[k], p.accuracies[k],
                                       b);
}

}  // namespace

TEST_CASE("pipeline-thresholds: eq. 3 on the Table II accuracies", "[pipeline]") {
  // theta_k = Tp * D * nu_k / (gamma_{k+1} * nu_{k+1}):
  //   8 -> 4: 10 * 0.877 / (4 * 0.885) = 8.77 / 3.54  = 2.47740...
  //   4 -> 2: 10 * 0.885 / (2 * 0.892) = 8.85 / 1.784 = 4.96076...
  //   2 -> 1: 10 * 0.892 / (1 * 0.902) = 8.92 / 0.902 = 9.88914...
  // Each lies between the saturation points Tp D / gamma_k and Tp D / gamma_{k+1} (1.25..2.5 etc.).
  const auto s = coinfer::solve_thresholds(cifar10_problem());
  REQUIRE(s.thresholds.size() == 3);
  CHECK(*s.thresholds[0] == Approx(8.77 / 3.54));
  CHECK(*s.thresholds[1] == Approx(8.85 / 1.784));
  CHECK(*s.thresholds[2] == Approx(8.92 / 0.902));
}

TEST_CASE("pipeline-thresholds: both ratios classify equally many frames at the threshold", "[pipeline]") {
  // At theta the saturated gamma = 8 model gives 10 * 0.877 = 8.77 correct frames per second and the
  // gamma = 4 model gives 0.885 * theta * 4 / 1 = 8.77 as well; 0.1 % either side the order flips.
  const auto p = cifar10_problem();
  const double theta = *coinfer::solve_thresholds(p).thresholds[0];
  CHECK(f(p, 0, theta) == Approx(8.77));
  CHECK(f(p, 1, theta) == Approx(8.77));
  CHECK(f(p, 0, theta * 0.999) > f(p, 1, theta * 0.999));
  CHECK(f(p, 1, theta * 1.001) > f(p, 0, theta * 1.001));
}

TEST_CASE("pipeline-thresholds: a less compressed model that is no more accurate is never chosen",
          "[pipeline]") {
  // nu_right = nu_left: the right model never classifies more frames, so the threshold is infinite (null).
  CHECK_FALSE(coinfer::ratio_threshold(10, 1, 4, 0.9, 2, 0.9).has_value());
  const Json out =
      solve({{"compute_throughput", 10}, {"stage_data", 1}, {"ratios", {4, 2}}, {"accuracies", {0.9, 0.8}}});
  CHECK(out["thresholds"] == Json::array({nullptr}));
}

TEST_CASE("pipeline-thresholds: a much more accurate model wins at every bandwidth", "[pipeline]") {
  // gamma 2 -> 1 with nu 0.4 -> 0.9: nu_l gamma_l = 0.8 < 0.9 = nu_r gamma_r, so even unsaturated the
  // right model classifies 0.9 b / D > 0.8 b / D: threshold 0 (eq. 3 alone would give 10*0.4/0.9 = 4.44,
  // a point where the left model is not saturated, outside the paper's assumption).
  CHECK(coinfer::ratio_threshold(10, 1, 2, 0.4, 1, 0.9) == 0.0);
}

TEST_CASE("pipeline-thresholds: the single-crossing property holds on 500 seeded instances", "[pipeline]") {
  // Brute force: on a grid of bandwidths, left must be at least as good below each threshold and
  // right strictly better above it; with monotone thresholds, the ratio picked by region classifies
  // as many frames as the best ratio (select_ratio_index).
  std::mt19937_64 rng(6002);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int finite = 0, zero = 0, never = 0;
  for (int trial = 0; trial < 500; ++trial) {
    ThresholdProblem p;
    p.compute_throughput_fps = 0.5 + 20 * unit(rng);
    p.stage_data = 0.1 + 5 * unit(rng);
    const int count = std::uniform_int_distribution<int>(1, 5)(rng);
    double gamma = 1.0 + 0.5 * unit(rng);
    for (int k = 0; k < count; ++k, gamma *= 1.1 + 2 * unit(rng)) p.ratios.insert(p.ratios.begin(), gamma);
    for (int k = 0; k < count; ++k)
      p.accuracies.push_back(trial % 5 == 0 ? unit(rng) : 0.5 + 0.5 * unit(rng));
    std::sort(p.accuracies.begin(),
              p.accuracies.end());  // mostly the paper's case: less compression, more accurate
    if (trial % 3 == 0) std::shuffle(p.accuracies.begin(), p.accuracies.end(), rng);
    const auto s = coinfer::solve_thresholds(p);
    REQUIRE(s.thresholds.size() + 1 == p.ratios.size());
    const double top = 2.0 * p.compute_throughput_fps * p.stage_data;  // beyond gamma >= 1 saturation
    bool monotone = true;
    for (std::size_t k = 0; k + 1 < p.ratios.size(); ++k) {
      const auto t = s.thresholds[k];
      INFO("trial " << trial << " pair " << k);
      if (!t)
        ++never;
      else if (*t == 0.0)
        ++zero;
      else
        ++finite;
      for (int g = 1; g <= 400; ++g) {
        const double b = top * g / 400.0;
        const double left = f(p, k, b), right = f(p, k + 1, b);
        if (!t || b <= *t * (1 - 1e-9)) CHECK(left >= right * (1 - 1e-12));
        if (t && b >= *t * (1 + 1e-9)) CHECK(right > left);
      }
      if (k > 0 && (!s.thresholds[k - 1] || (t && *t < *s.thresholds[k - 1]))) monotone = false;
    }
    if (!monotone) continue;
    for (int g = 0; g <= 200; ++g) {
      const double b = top * g / 200.0;
      std::size_t region = 0;  // number of thresholds below b (null = +infinity)
      while (region < s.thresholds.size() && s.thresholds[region] && *s.thresholds[region] < b) ++region;
      CHECK(f(p, region, b) == Approx(f(p, coinfer::select_ratio_index(p, b), b)).epsilon(1e-12));
    }
  }
  CHECK(finite > 100);  // every branch of ratio_threshold was exercised
  CHECK(zero > 5);
  CHECK(never > 5);
}

TEST_CASE("pipeline-thresholds: one ratio has no threshold", "[pipeline]") {
  CHECK(solve({{"compute_throughput", 10},
               {"stage_data", 1},
               {"ratios", {2}},
               {"accuracies", {0.9}}})["thresholds"] == Json::array());
}

TEST_CASE("pipeline-thresholds: malformed problems name the JSON path", "[pipeline]") {
  const Json good = {
      {"compute_throughput", 10}, {"stage_data", 1}, {"ratios", {8, 4}}, {"accuracies", {0.8, 0.9}}};
  auto with = [&](const char* key, Json value) {
    Json j = good;
    j[key] = std::move(value);
    return j;
  };
  Json missing = good;
  missing.erase("stage_data");
  CHECK(error_path(missing) == "stage_data");
  CHECK(error_path(with("compute_throughput", 0)) == "compute_throughput");
  CHECK(error_path(with("compute_throughput", "fast")) == "compute_throughput");
  CHECK(error_path(with("stage_data", -1)) == "stage_data");
  CHECK(error_path(with("ratios", Json::array())) == "ratios");
  CHECK(error_path(with("ratios", {4, 8})) == "ratios[1]");      // ascending
  CHECK(error_path(with("ratios", {4, 4})) == "ratios[1]");      // not strictly descending
  CHECK(error_path(with("ratios", {1, 0.5})) == "ratios[1]");    // a fraction: gamma >= 1
  CHECK(error_path(with("accuracies", {0.9})) == "accuracies");  // length mismatch
  CHECK(error_path(with("accuracies", {0.9, 1.5})) == "accuracies[1]");
  CHECK(error_path(with("ratio", 2)) == "ratio");  // unknown key
  CHECK_THROWS_WITH(solve(with("ratios", {4, 8})), Catch::Contains("strictly descending"));
}
