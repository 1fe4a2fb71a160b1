// `jointdnn-larac`: Lagrangian relaxation for one maximum; approximate with a certified gap.
#include "partitioners/jointdnn/larac.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using coinfer::jointdnn::testing::one_layer;

namespace {

/// Keeps at most one of the maxima of a random problem.
Json one_maximum(Json j, std::mt19937_64& rng) {
  std::vector<std::string> present;
  for (const char* k : {"max_latency", "max_energy", "max_cloud_time"})
    if (j.contains(k)) present.push_back(k);
  if (present.size() <= 1) return j;
  const auto keep = present[std::uniform_int_distribution<std::size_t>(0, present.size() - 1)(rng)];
  for (const auto& k : present)
    if (k != keep) j.erase(k);
  return j;
}

}  // namespace

TEST_CASE("larac: a QoS deadline moves the one layer to the mobile, the bound shows the duality gap") {
  // Energy objective, max_latency 2.2: only the mobile (2 s, 4 J) meets it. LARAC's multiplier
  // lambda = (4 - 1.5) / (2.5 - 2) = 5 makes both schedules equally long under energy + 5 latency
  // (14 each), so it stops with the bound min(...) - 5 * 2.2 = 14 - 11 = 3: schedule 4 J, gap 1 J
  // (the schedule is optimal; the gap is the Lagrangian duality gap).
  auto j = one_layer();
  j["max_latency"] = 2.2;
  const auto r = solve_larac(parse_problem(j));
  REQUIRE(r.solution.feasible);
  CHECK(r.solution.groups == std::vector<Group>{{1, 1, Side::mobile}});
  CHECK(r.lower_bound == Approx(3.0));
}

TEST_CASE("larac refuses a second maximum") {
  auto j = one_layer();
  j["max_latency"] = 3;
  j["max_cloud_time"] = 1;
  CHECK_THROWS_AS(solve_larac(parse_problem(j)), InputError);
}

TEST_CASE("larac: exact feasibility, objective above and bound below the brute-force optimum") {
  std::mt19937_64 rng(9101);
  int exact = 0, constrained = 0;
  for (int t = 0; t < 500; ++t) {
    const Json j = one_maximum(testing::random_problem(rng), rng);
    const Problem p = parse_problem(j);
    const auto ref = testing::brute_force(p);
    const auto r = solve_larac(p);
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(r.solution.feasible == ref.feasible);
    if (!ref.feasible) continue;
    constrained += p.has_limits();
    const Cost c = testing::reference_cost(p, r.solution.groups);
    REQUIRE(testing::meets(p, c));
    const double v = objective_value(p, c);
    REQUIRE(v >= ref.objective - 1e-9 * std::max(1.0, ref.objective));
    REQUIRE(r.lower_bound <= ref.objective + 1e-9 * std::max(1.0, ref.objective));
    exact += testing::close(v, ref.objective);
  }
  CHECK(constrained > 100);
  CHECK(exact > constrained / 2);  // LARAC is usually optimal on these small instances
}
