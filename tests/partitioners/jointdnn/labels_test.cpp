// `jointdnn-labels`: exact constrained shortest path by Pareto label setting.
#include "partitioners/jointdnn/labels.hpp"

#include <catch2/catch.hpp>

#include "partitioners/jointdnn/shortest_path.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using coinfer::jointdnn::testing::one_layer;

TEST_CASE("labels: without maxima the cheapest-energy schedule wins") {
  const Solution s = solve_labels(parse_problem(one_layer()));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::cloud}});
  CHECK(s.cost.energy_j == Approx(1.5));
}

TEST_CASE("labels: a QoS deadline below the cloud latency forces the mobile (eq. 20)") {
  // max_latency 2.2: the cloud (2.5 s) misses it, the mobile (2 s) meets it at 4 J.
  auto j = one_layer();
  j["max_latency"] = 2.2;
  const Solution s = solve_labels(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::mobile}});
  CHECK(s.cost.energy_j == Approx(4.0));
}

TEST_CASE("labels: a cloud-time budget below the cloud group forces the mobile (eq. 19)") {
  auto j = one_layer();
  j["max_cloud_time"] = 0.4;  // cloud group needs 0.5
  CHECK(solve_labels(parse_problem(j)).groups == std::vector<Group>{{1, 1, Side::mobile}});
}

TEST_CASE("labels: a battery budget with a latency objective (eq. 18)") {
  // Latency prefers the mobile (2 s, 4 J); max_energy 3 J leaves the cloud (2.5 s, 1.5 J).
  auto j = one_layer();
  j["objective"] = "latency";
  j["max_energy"] = 3.0;
  const Solution s = solve_labels(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::cloud}});
  CHECK(s.cost.latency_s == Approx(2.5));
}

TEST_CASE("labels: maxima nobody meets give an infeasible solution") {
  auto j = one_layer();
  j["max_latency"] = 1.9;  // mobile 2, cloud 2.5
  const Solution s = solve_labels(parse_problem(j));
  CHECK_FALSE(s.feasible);
  CHECK(s.groups.empty());
}

TEST_CASE("labels: a maximum exactly at a schedule's value is met") {
  auto j = one_layer();
  j["max_latency"] = 2.0;  // the mobile takes exactly 2
  CHECK(solve_labels(parse_problem(j)).feasible);
}

TEST_CASE("labels equal brute force on 600 random constrained instances") {
  std::mt19937_64 rng(7001);
  int constrained = 0, infeasible = 0, binding = 0;
  for (int t = 0; t < 600; ++t) {
    const Json j = testing::random_problem(rng);
    const Problem p = parse_problem(j);
    const auto ref = testing::brute_force(p);
    constrained += p.has_limits();
    infeasible += !ref.feasible;
    const auto free = testing::brute_force(parse_problem(testing::without_maxima(j)));
    binding += ref.feasible && !testing::close(ref.objective, free.objective);
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(testing::agrees(p, solve_labels(p), ref));
  }
  CHECK(constrained > 150);
  CHECK(infeasible > 10);  // the infeasible answer is exercised
  CHECK(binding > 50);     // and so are maxima that change the optimum
  CHECK(infeasible < 300);
}

TEST_CASE("labels equal jointdnn on unconstrained instances") {
  std::mt19937_64 rng(7002);
  for (int t = 0; t < 200; ++t) {
    const Problem p = parse_problem(testing::without_maxima(testing::random_problem(rng, {9})));
    const Solution a = solve_labels(p), b = solve_shortest_path(p);
    REQUIRE(testing::close(objective_value(p, a.cost), objective_value(p, b.cost)));
  }
}
