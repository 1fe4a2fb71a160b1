// split-dp (Hu & Krishnamachari eq. 2): hand-derived cases, brute force over every composition on
// seeded random instances, and malformed problems.
#include "partitioners/split_dp/split_dp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "partitioners/split_dp/register.hpp"
#include "sim/core/error.hpp"

using coinfer::InputError;
using coinfer::Json;
using coinfer::SplitDpProblem;

namespace {

/// Best min_i C_i / ops(stage i) over every way to cut m layers into n non-empty consecutive stages
/// (C(m-1, n-1) compositions); 0 when n > m.
double brute_force_throughput(const SplitDpProblem& p) {
  const std::size_t m = p.layer_ops.size(), n = p.device_speeds.size();
  if (n > m) return 0.0;
  double best = 0.0;
  std::vector<std::size_t> splits;
  std::function<void(std::size_t)> place = [&](std::size_t previous) {
    if (splits.size() + 1 == n) {
      const auto stages = coinfer::split_stage_throughputs(p, splits);
      best = std::max(best, *std::min_element(stages.begin(), stages.end()));
      return;
    }
    const std::size_t devices_left = n - splits.size() - 1;  // after this cut
    for (std::size_t s = previous + 1; s + devices_left <= m; ++s) {
      splits.push_back(s);
      place(s);
      splits.pop_back();
    }
  };
  place(0);
  return best;
}

Json solve(const Json& problem) {
  return coinfer::testing::solve_with(coinfer::register_split_dp_solvers, "split-dp", problem);
}

std::string error_path(const Json& problem) {
  return coinfer::testing::input_error_path([&] { solve(problem); });
}

}  // namespace

TEST_CASE("split-dp: two equal devices take the most balanced cut", "[split_dp]") {
  // ops 1 2 3 4, speeds 1 1. Cuts: s=1 -> 1 | 9 ops (1/9), s=2 -> 3 | 7 (1/7), s=3 -> 6 | 4 (1/6).
  // Best s = 3: stages 1/6 and 1/4 frames per second.
  const auto s = coinfer::solve_split_dp({{1, 2, 3, 4}, {1, 1}});
  REQUIRE(s.feasible);
  CHECK(s.splits == std::vector<std::size_t>{3});
  CHECK(s.throughput_fps == Approx(1.0 / 6.0));
  CHECK(s.stage_throughputs == std::vector<double>{1.0 / 6.0, 0.25});
}

TEST_CASE("split-dp: device order matters in a linear pipeline", "[split_dp]") {
  // ops 4 4 4 4. Speeds 3 1: the fast first device takes three layers, 3/12 = 1/12 * 3 = 0.25 and
  // 1/4 = 0.25 (s = 3). Speeds 1 3: the slow first device takes one layer, 1/4 and 3/12 (s = 1).
  const auto fast_first = coinfer::solve_split_dp({{4, 4, 4, 4}, {3, 1}});
  CHECK(fast_first.splits == std::vector<std::size_t>{3});
  CHECK(fast_first.throughput_fps == 0.25);
  const auto slow_first = coinfer::solve_split_dp({{4, 4, 4, 4}, {1, 3}});
  CHECK(slow_first.splits == std::vector<std::size_t>{1});
  CHECK(slow_first.throughput_fps == 0.25);
}

TEST_CASE("split-dp: equal layers on equal devices reach the eq. 1 bound", "[split_dp]") {
  // 12 unit layers on 4 unit devices: 3 layers each, T = 1/3 = sum C / sum ops (eq. 1, second bound).
  const auto s = coinfer::solve_split_dp({std::vector<double>(12, 1.0), std::vector<double>(4, 1.0)});
  CHECK(s.splits == std::vector<std::size_t>{3, 6, 9});
  CHECK(s.throughput_fps == Approx(4.0 / 12.0));
}

TEST_CASE("split-dp: as many devices as layers gives one layer each", "[split_dp]") {
  // n = m = 3: the only composition is 1 | 1 | 1; stage throughputs 2/1, 3/5, 4/2, min 0.6.
  const auto s = coinfer::solve_split_dp({{1, 5, 2}, {2, 3, 4}});
  CHECK(s.splits == std::vector<std::size_t>{1, 2});
  CHECK(s.stage_throughputs == std::vector<double>{2.0, 0.6, 2.0});
  CHECK(s.throughput_fps == 0.6);
}

TEST_CASE("split-dp: one device runs everything", "[split_dp]") {
  // n = 1: no cut; T = 10 / (1 + 2 + 2) = 2.
  const auto s = coinfer::solve_split_dp({{1, 2, 2}, {10}});
  CHECK(s.feasible);
  CHECK(s.splits.empty());
  CHECK(s.throughput_fps == 2.0);
}

TEST_CASE("split-dp: more devices than layers is infeasible with a null throughput", "[split_dp]") {
  const Json out = solve({{"layer_ops", {1, 2}}, {"device_speeds", {1, 1, 1}}});
  CHECK(out["feasible"] == false);
  CHECK(out["splits"] == Json::array());
  CHECK(out["stage_throughputs"] == Json::array());
  CHECK(out["throughput"].is_null());
}

TEST_CASE("split-dp: the JSON solution names every field", "[split_dp]") {
  const Json out = solve({{"layer_ops", {1, 2, 3, 4}}, {"device_speeds", {1, 1}}});
  CHECK(out["feasible"] == true);
  CHECK(out["splits"] == Json::array({3}));
  CHECK(out["throughput"].get<double>() == Approx(1.0 / 6.0));
  CHECK(out["stage_throughputs"].size() == 2);
}

TEST_CASE("split-dp: agrees with brute force on 600 seeded random instances", "[split_dp]") {
  std::mt19937_64 rng(20240602);
  std::uniform_int_distribution<int> layers(1, 10), small_int(1, 9);
  std::uniform_real_distribution<double> real(0.05, 20.0);
  int feasible = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const std::size_t m = static_cast<std::size_t>(layers(rng));
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, m + 1)(rng);
    const bool integer = trial % 2 == 0;  // integer ops make many exact ties
    SplitDpProblem p;
    for (std::size_t j = 0; j < m; ++j) p.layer_ops.push_back(integer ? small_int(rng) : real(rng));
    for (std::size_t i = 0; i < n; ++i) p.device_speeds.push_back(integer ? small_int(rng) : real(rng));
    const auto s = coinfer::solve_split_dp(p);
    INFO("trial " << trial << ", m = " << m << ", n = " << n);
    REQUIRE(s.feasible == (n <= m));
    if (!s.feasible) continue;
    ++feasible;
    // A valid composition: n-1 strictly increasing cuts in [1, m-1].
    REQUIRE(s.splits.size() == n - 1);
    for (std::size_t k = 0; k < s.splits.size(); ++k) {
      CHECK(s.splits[k] >= 1);
      CHECK(s.splits[k] <= m - 1);
      if (k > 0) CHECK(s.splits[k] > s.splits[k - 1]);
    }
    // The reported throughput is the reported split's bottleneck and equals the optimum.
    const auto stages = coinfer::split_stage_throughputs(p, s.splits);
    CHECK(s.stage_throughputs == stages);
    CHECK(s.throughput_fps == *std::min_element(stages.begin(), stages.end()));
    CHECK(s.throughput_fps == Approx(brute_force_throughput(p)).epsilon(1e-12));
  }
  CHECK(feasible > 400);  // the draw above mostly makes feasible instances
}

TEST_CASE("split-dp: malformed problems name the JSON path", "[split_dp]") {
  const Json good = {{"layer_ops", {1, 2, 3}}, {"device_speeds", {1, 2}}};
  auto with = [&](const char* key, Json value) {
    Json j = good;
    j[key] = std::move(value);
    return j;
  };
  Json missing = good;
  missing.erase("device_speeds");
  CHECK(error_path(missing) == "device_speeds");
  CHECK(error_path(with("layer_ops", "many")) == "layer_ops");
  CHECK(error_path(with("layer_ops", Json::array())) == "layer_ops");
  CHECK(error_path(with("device_speeds", Json::array())) == "device_speeds");
  CHECK(error_path(with("device_speeds", {1, -2})) == "device_speeds[1]");
  CHECK(error_path(with("layer_ops", {1, 1e-40, 3})) == "layer_ops[1]");  // neither 0 nor >= 1e-30
  CHECK(error_path(with("layer_ops", {0, 0, 0})) == "layer_ops");         // no layer carries work
  CHECK(error_path(with("device_speeds", {1, 0})) == "device_speeds[1]");
  CHECK(error_path(with("layer_ops", {1, "x"})) == "layer_ops[1]");
  CHECK(error_path(with("layers", 3)) == "layers");  // unknown key (typo)
  CHECK(error_path(Json::array({1, 2})) == "");      // not an object
  CHECK_THROWS_WITH(solve(with("device_speeds", {1, -2})), Catch::Contains("device_speeds[1]"));
}

TEST_CASE("split-dp: 1e308 ops are out of range, not a feasible split of throughput 0", "[split_dp]") {
  // 1 / 1e308 underflowed, and 1e308 + 1e308 overflowed; every op count is 0 or in [1e-30, 1e30]
  CHECK_THROWS_WITH(solve({{"layer_ops", {1, 1e308, 3}}, {"device_speeds", {1, 2}}}),
                    Catch::Contains("layer_ops[1]: expected 0 or a number in [1e-30, 1e+30], got 1e+308"));
  CHECK(error_path({{"layer_ops", {1, 2}}, {"device_speeds", {1e-300}}}) == "device_speeds[0]");
}

TEST_CASE("split-dp: the value bounds keep every throughput finite and positive", "[split_dp]") {
  // 4096 layers of 1e30 ops on one device of speed 1e-30: 1e-30 / 4.096e33 = 2.4e-64 > 0
  const Json out = solve({{"layer_ops", std::vector<double>(4096, 1e30)}, {"device_speeds", {1e-30}}});
  CHECK(out["throughput"].get<double>() == Approx(1e-30 / 4.096e33));
  CHECK(error_path({{"layer_ops", std::vector<double>(4097, 1.0)}, {"device_speeds", {1}}}) == "layer_ops");
}

TEST_CASE("split-dp: layers with 0 ops agree with brute force on 600 seeded instances", "[split_dp]") {
  // Pooling, activations and adds have no MACs: entries of 0 make stages of unbounded throughput
  // and many exact ties; the split must still be a valid composition and optimal.
  std::mt19937_64 rng(20261122);
  std::uniform_int_distribution<int> layers(1, 10), small_int(0, 6);
  for (int trial = 0; trial < 600; ++trial) {
    const std::size_t m = static_cast<std::size_t>(layers(rng));
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, m)(rng);
    SplitDpProblem p;
    for (std::size_t j = 0; j < m; ++j) p.layer_ops.push_back(small_int(rng) % 3 == 0 ? 0.0 : small_int(rng));
    p.layer_ops[std::uniform_int_distribution<std::size_t>(0, m - 1)(rng)] = 1.0 + small_int(rng);
    for (std::size_t i = 0; i < n; ++i) p.device_speeds.push_back(1.0 + small_int(rng));
    const auto s = coinfer::solve_split_dp(p);
    INFO("trial " << trial << ", m = " << m << ", n = " << n);
    REQUIRE(s.feasible);
    REQUIRE(s.splits.size() == n - 1);
    for (std::size_t k = 0; k < s.splits.size(); ++k) {
      CHECK(s.splits[k] >= 1);
      CHECK(s.splits[k] <= m - 1);
      if (k > 0) CHECK(s.splits[k] > s.splits[k - 1]);
    }
    CHECK(std::isfinite(s.throughput_fps));
    CHECK(s.throughput_fps == Approx(brute_force_throughput(p)).epsilon(1e-12));
  }
}

TEST_CASE("split-dp: a stage of 0-op layers is unbounded, null in JSON", "[split_dp]") {
  // ops 4 0 | 0 on speeds 1 1: cut s = 1 gives 1/4 and 1/0 = inf; s = 2 gives 1/4 and inf too
  // (tie, the smallest cut wins): splits {1}, throughput 0.25, the second stage unbounded.
  const Json out = solve({{"layer_ops", {4, 0, 0}}, {"device_speeds", {1, 1}}});
  CHECK(out["splits"] == Json::array({1}));
  CHECK(out["throughput"].get<double>() == 0.25);
  CHECK(out["stage_throughputs"][0].get<double>() == 0.25);
  CHECK(out["stage_throughputs"][1].is_null());
}
