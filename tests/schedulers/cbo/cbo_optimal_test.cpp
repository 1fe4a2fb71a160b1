// cbo-optimal (Tan & Cao sec. IV-C): hand-derived cases and exhaustive search on random instances.
#include "schedulers/cbo/cbo_optimal.hpp"

#include <random>

#include <catch2/catch.hpp>

#include "schedulers/cbo/register.hpp"
#include "sim/core/error.hpp"
#include "tests/schedulers/cbo/cbo_test_support.hpp"

using coinfer::InputError;
using coinfer::Json;
namespace cbo = coinfer::cbo;

using coinfer::cbo::testing::base_problem;
using coinfer::cbo::testing::frame;

TEST_CASE("cbo-optimal: offloads the frame with the larger gain when only one fits", "[cbo]") {
  // Frame 0 (arrival 0, 1 s upload) ends at 1 <= 0 + 1. Frame 1 (arrival 0.5, 0.75 s) alone ends
  // at 1.25 <= 1.5, but after frame 0 it ends at 1.75 > 1.5: only one of them can go.
  // Gains: frame 0 1 - 0.5 = 0.5, frame 1 1 - 0.25 = 0.75, so offload frame 1:
  // accuracy (0.5 + 1.0) / 2 = 0.75.
  auto j = base_problem();
  j["frames"] = {frame(0, 0.5, 0.5, {1}), frame(0.5, 0.5, 0.25, {0.75})};
  const auto s = cbo::solve_optimal(cbo::parse_problem(j));
  CHECK(s.decisions == std::vector<int>{-1, 0});
  CHECK(s.accuracy == 0.75);
}

TEST_CASE("cbo-optimal: drops to a lower resolution to meet the deadline", "[cbo]") {
  // Server accuracy [0.75, 1.0], sizes [0.5, 2], T^o = L = 0.25, deadline 1:
  // low ends at 0.5, 0.5 + 0.5 = 1 <= 1 (on time with equality); high: 2 + 0.5 > 1.
  // Accuracy max(0.25 local, 0.75 low) = 0.75.
  auto j = base_problem();
  j["server_accuracy"] = {0.75, 1.0};
  j["server_time"] = 0.25;
  j["latency"] = 0.25;
  j["frames"] = Json::array({frame(0, 0.1, 0.25, {0.5, 2})});  // not {x}: clang reads that as a copy of x
  auto s = cbo::solve_optimal(cbo::parse_problem(j));
  CHECK(s.decisions == std::vector<int>{0});
  CHECK(s.accuracy == 0.75);

  // With the uplink busy until 0.25 the low upload ends at 0.75 and 0.75 + 0.5 > 1: stay local.
  j["uplink_free_at"] = 0.25;
  s = cbo::solve_optimal(cbo::parse_problem(j));
  CHECK(s.decisions == std::vector<int>{-1});
  CHECK(s.accuracy == 0.25);
}

TEST_CASE("cbo-optimal: mixes resolutions across frames", "[cbo]") {
  // Two frames at 0, sizes [0.25, 0.5], server accuracy [0.5, 1], local 0, deadline 0.75.
  // high+high: second ends at 1.0 > 0.75. high+low or low+high: ends 0.75, total 1.5.
  // low+low: 1.0; one high alone: 1.0. Optimum mean 1.5 / 2 = 0.75 with different resolutions.
  auto j = base_problem();
  j["server_accuracy"] = {0.5, 1.0};
  j["deadline"] = 0.75;
  j["frames"] = {frame(0, 0.5, 0, {0.25, 0.5}), frame(0, 0.5, 0, {0.25, 0.5})};
  const auto p = cbo::parse_problem(j);
  const auto s = cbo::solve_optimal(p);
  CHECK(s.accuracy == 0.75);
  CHECK(s.decisions[0] + s.decisions[1] == 1);  // {0, 1} or {1, 0}
  CHECK(cbo::evaluate(p, s.decisions).feasible);
}

TEST_CASE("cbo-optimal: keeps frames local when the server is no better", "[cbo]") {
  // Server accuracy 0.5 < local 0.75 for both frames: offloading only loses; mean 0.75.
  auto j = base_problem();
  j["server_accuracy"] = {0.5};
  j["frames"] = {frame(0, 0.5, 0.75, {0.125}), frame(0.125, 0.5, 0.75, {0.125})};
  const auto s = cbo::solve_optimal(cbo::parse_problem(j));
  CHECK(s.decisions == std::vector<int>{-1, -1});
  CHECK(s.accuracy == 0.75);
}

TEST_CASE("cbo-optimal: rejects frames out of arrival order", "[cbo]") {
  auto j = base_problem();
  j["frames"] = {frame(0.5, 0.5, 0.5, {1}), frame(0.25, 0.5, 0.5, {1})};
  try {
    cbo::solve_optimal_json(j);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "frames[1].arrival");
  }
}

TEST_CASE("cbo-optimal: equals exhaustive search on random instances", "[cbo]") {
  // For every instance: the reported mean accuracy equals the best over all (R+1)^n decision
  // vectors that meet every deadline, and the reported decisions are feasible and achieve it.
  std::mt19937_64 rng(20240611);
  int offloading_optima = 0;
  for (int instance = 0; instance < 600; ++instance) {
    const auto p = cbo::testing::random_problem(rng, 8, instance % 2 == 0 ? 2 : 3);
    const double best_total = cbo::testing::exhaustive_best_total_accuracy(p);
    const double n = static_cast<double>(p.frames.size());
    const auto s = cbo::solve_optimal(p);
    INFO("instance " << instance);
    REQUIRE(s.decisions.size() == p.frames.size());
    CHECK(s.accuracy == Approx(best_total / n).margin(1e-12));
    const auto order = cbo::testing::identity_order(p.frames.size());
    CHECK(cbo::testing::feasible(p, s.decisions, order));
    const auto e = cbo::evaluate(p, s.decisions);
    CHECK(e.feasible);
    CHECK(e.total_accuracy / n == Approx(s.accuracy).margin(1e-12));
    for (const int d : s.decisions) offloading_optima += d >= 0 ? 1 : 0;
  }
  CHECK(offloading_optima > 300);  // the instances exercise offloading, not only "all local"
}

TEST_CASE("cbo-optimal: reachable through the solver registry", "[cbo]") {
  coinfer::SolverRegistry registry("solver");
  coinfer::register_cbo_solvers(registry);
  auto j = base_problem();
  j["frames"] = {frame(0, 0.5, 0.5, {1}), frame(0.5, 0.5, 0.25, {0.75})};
  const auto out = registry.create("cbo-optimal", Json::object())->solve(j);
  CHECK(out["decisions"] == Json{-1, 0});
  CHECK(out["accuracy"].get<double>() == 0.75);
}
