// cbo-online (Tan & Cao Algorithm 1): hand-derived cases and exhaustive search on random instances.
#include "schedulers/cbo/cbo_online.hpp"

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

TEST_CASE("cbo-online: processes frames by descending confidence", "[cbo]") {
  // Confidences 0.875, 0.25, 0.5 -> order {0, 2, 1}. All arrive at 0 with 0.5 s uploads and a
  // 1 s deadline: two uploads fit (ends 0.5, 1.0). Gains: 0.125, 0.75, 0.5. Best: frames 2 and 1,
  // gain 1.25, uploaded in order {2, 1}; threshold = p of frame 2 = 0.5, resolution 0.
  auto j = base_problem();
  j["frames"] = {frame(0, 0.875, 0.875, {0.5}), frame(0, 0.25, 0.25, {0.5}), frame(0, 0.5, 0.5, {0.5})};
  CHECK(cbo::confidence_order(cbo::parse_problem(j)) == std::vector<std::size_t>{0, 2, 1});
  const auto s = cbo::solve_online(cbo::parse_problem(j));
  CHECK(s.improvement == 1.25);
  CHECK(s.offload == std::vector<std::size_t>{2, 1});
  CHECK(s.offload_resolutions == std::vector<int>{0, 0});
  CHECK(s.threshold == 0.5);
  CHECK(s.resolution == 0);
}

TEST_CASE("cbo-online: a frame below the threshold may be kept when it cannot make it", "[cbo]") {
  // Order A (p 0.625), B (p 0.375), C (p 0.125). B's 2 s upload can never meet the 1 s deadline.
  // Offload A (ends 0.5) and C (ends 1.0): gain (1 - 0.5) + (1 - 0.25) = 1.25; threshold 0.625,
  // although B (p 0.375 <= 0.625) stays local.
  auto j = base_problem();
  j["frames"] = {frame(0, 0.625, 0.5, {0.5}), frame(0, 0.375, 0.375, {2}), frame(0, 0.125, 0.25, {0.5})};
  const auto s = cbo::solve_online(cbo::parse_problem(j));
  CHECK(s.improvement == 1.25);
  CHECK(s.offload == std::vector<std::size_t>{0, 2});
  CHECK(s.threshold == 0.625);
}

TEST_CASE("cbo-online: the DP gives offloaded frames their own resolutions", "[cbo]") {
  // X (p 0.75, sizes [0.25, 1]) then Y (p 0.125, sizes [0.25, 0.5]); both arrive at 0, local 0,
  // server [0.5, 1], deadline 0.75. X high ends at 1 > 0.75. X low (0.25) + Y high (0.75):
  // gain 1.5; X low + Y low: 1.0; Y high alone: 1.0. Algorithm 1 returns theta = 0.75 and
  // r^o = 0 (X's resolution, the last one set while backtracking).
  auto j = base_problem();
  j["server_accuracy"] = {0.5, 1.0};
  j["deadline"] = 0.75;
  j["frames"] = {frame(0, 0.75, 0, {0.25, 1}), frame(0, 0.125, 0, {0.25, 0.5})};
  const auto p = cbo::parse_problem(j);
  const auto s = cbo::solve_online(p);
  CHECK(s.improvement == 1.5);
  CHECK(s.offload == std::vector<std::size_t>{0, 1});
  CHECK(s.offload_resolutions == std::vector<int>{0, 1});
  CHECK(s.threshold == 0.75);
  CHECK(s.resolution == 0);

  // One resolution for all: r = 0 gives 1.0 (both low), r = 1 gives 1.0 (Y alone); the tie goes
  // to the lower index, which offloads both frames.
  const auto u = cbo::solve_online(p, cbo::ResolutionPolicy::kUniform);
  CHECK(u.improvement == 1.0);
  CHECK(u.resolution == 0);
  CHECK(u.offload == std::vector<std::size_t>{0, 1});
  CHECK(u.offload_resolutions == std::vector<int>{0, 0});
}

TEST_CASE("cbo-online: nothing worth offloading gives threshold -1", "[cbo]") {
  // Server accuracy 0.5 below every local accuracy: every offload loses accuracy.
  auto j = base_problem();
  j["server_accuracy"] = {0.5};
  j["frames"] = {frame(0, 0.25, 0.75, {0.125}), frame(0, 0.125, 0.625, {0.125})};
  const auto s = cbo::solve_online(cbo::parse_problem(j));
  CHECK(s.improvement == 0);
  CHECK(s.offload.empty());
  CHECK(s.threshold == -1);
  CHECK(s.resolution == -1);
}

TEST_CASE("cbo-online: accepts frames in any arrival order, uploads wait for the arrival", "[cbo]") {
  // Frame 0 arrives at 0.5 (p 0.75), frame 1 at 0 (p 0.25); order {0, 1}. Frame 0 uploads
  // [0.5, 1.0]; frame 1 would then end at 1.5 > 0 + 1 (late). Alone, frame 1 ends at 0.5.
  // Gains: frame 0 1 - 0.75 = 0.25, frame 1 1 - 0 = 1: offload only frame 1, threshold 0.25.
  auto j = base_problem();
  j["frames"] = {frame(0.5, 0.75, 0.75, {0.5}), frame(0, 0.25, 0, {0.5})};
  const auto s = cbo::solve_online(cbo::parse_problem(j));
  CHECK(s.improvement == 1.0);
  CHECK(s.offload == std::vector<std::size_t>{1});
  CHECK(s.threshold == 0.25);
}

namespace {

// Checks one Algorithm 1 result against exhaustive search and against its own claims.
void check_against_exhaustive(const cbo::Problem& p, const cbo::OnlineSolution& s, int only_resolution) {
  CHECK(s.improvement == Approx(cbo::testing::exhaustive_best_gain(p, only_resolution)).margin(1e-12));
  REQUIRE(s.offload.size() == s.offload_resolutions.size());
  std::vector<int> d(p.frames.size(), -1);
  for (std::size_t k = 0; k < s.offload.size(); ++k) d[s.offload[k]] = s.offload_resolutions[k];
  const auto order = cbo::testing::by_descending_confidence(p);
  CHECK(cbo::testing::feasible(p, d, order));
  const auto e = cbo::evaluate(p, d, order);
  CHECK(e.feasible);
  CHECK(e.gain == Approx(s.improvement).margin(1e-12));
  if (s.offload.empty()) {
    CHECK(s.threshold == -1);
    CHECK(s.resolution == -1);
    return;
  }
  // theta is the confidence of the first (most confident) offloaded frame; r^o its resolution.
  CHECK(s.threshold == p.frames[s.offload.front()].confidence);
  CHECK(s.resolution == s.offload_resolutions.front());
  for (const std::size_t i : s.offload) CHECK(p.frames[i].confidence <= s.threshold);
  if (only_resolution >= 0)
    for (const int r : s.offload_resolutions) CHECK(r == only_resolution);
}

}  // namespace

TEST_CASE("cbo-online: improvement equals exhaustive search in confidence order", "[cbo]") {
  std::mt19937_64 rng(0x0A1B2C3D);
  int offloads = 0;
  for (int instance = 0; instance < 600; ++instance) {
    auto p = cbo::testing::random_problem(rng, 8, instance % 2 == 0 ? 2 : 3);
    if (instance % 3 != 0) p = cbo::testing::shuffled(p, rng);  // arrivals out of order
    INFO("instance " << instance);
    const auto s = cbo::solve_online(p);
    check_against_exhaustive(p, s, -1);
    offloads += static_cast<int>(s.offload.size());
  }
  CHECK(offloads > 300);
}

TEST_CASE("cbo-online: uniform policy equals the best single-resolution exhaustive search", "[cbo]") {
  std::mt19937_64 rng(0x5EED);
  for (int instance = 0; instance < 300; ++instance) {
    const auto p = cbo::testing::shuffled(cbo::testing::random_problem(rng, 8, 3), rng);
    INFO("instance " << instance);
    const auto u = cbo::solve_online(p, cbo::ResolutionPolicy::kUniform);
    double best = 0;
    for (std::size_t r = 0; r < p.resolutions(); ++r)
      best = std::max(best, cbo::testing::exhaustive_best_gain(p, static_cast<int>(r)));
    CHECK(u.improvement == Approx(best).margin(1e-12));
    if (!u.offload.empty()) check_against_exhaustive(p, u, u.resolution);
    // Per-frame resolutions can only do better.
    CHECK(cbo::solve_online(p).improvement >= u.improvement - 1e-12);
  }
}

TEST_CASE("cbo-online: JSON round trip and policy errors", "[cbo]") {
  coinfer::SolverRegistry registry("solver");
  coinfer::register_cbo_solvers(registry);
  const auto solver = registry.create("cbo-online", Json::object());
  auto j = base_problem();
  j["frames"] = {frame(0, 0.875, 0.875, {0.5}), frame(0, 0.25, 0.25, {0.5}), frame(0, 0.5, 0.5, {0.5})};
  const auto out = solver->solve(j);
  CHECK(out["threshold"].get<double>() == 0.5);
  CHECK(out["resolution"] == 0);
  CHECK(out["improvement"].get<double>() == 1.25);
  CHECK(out["offload"] == Json{2, 1});
  CHECK(out["resolutions"] == Json{0, 0});

  j["resolution_policy"] = "uniform";
  CHECK(solver->solve(j)["improvement"].get<double>() == 1.25);
  j["resolution_policy"] = "best";
  try {
    solver->solve(j);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "resolution_policy");
  }
  // cbo-optimal has no such key.
  try {
    registry.create("cbo-optimal", Json::object())->solve(j);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "resolution_policy");
  }
}
