// `jointdnn-ilp`: the sec. 2.4 ILP solved with GLPK, against hand derivations, brute force and the
// other exact solvers.
#include "partitioners/jointdnn/ilp.hpp"

#include <catch2/catch.hpp>

#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using coinfer::jointdnn::testing::one_layer;

TEST_CASE("ilp: energy objective picks the cloud, QoS deadline forces the mobile") {
  auto j = one_layer();
  CHECK(solve_ilp(parse_problem(j)).groups == std::vector<Group>{{1, 1, Side::cloud}});
  j["max_latency"] = 2.2;  // cloud 2.5 s is too slow
  const Solution s = solve_ilp(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::mobile}});
  CHECK(s.cost.energy_j == Approx(4.0));
}

TEST_CASE("ilp: cloud budget and battery budget") {
  auto j = one_layer();
  j["max_cloud_time"] = 0.4;  // cloud group needs 0.5 s of cloud
  CHECK(solve_ilp(parse_problem(j)).groups == std::vector<Group>{{1, 1, Side::mobile}});
  j = one_layer();
  j["objective"] = "latency";
  j["max_energy"] = 3.0;  // the mobile's 4 J is over budget
  CHECK(solve_ilp(parse_problem(j)).groups == std::vector<Group>{{1, 1, Side::cloud}});
}

TEST_CASE("ilp: infeasible maxima give an infeasible solution") {
  auto j = one_layer();
  j["max_latency"] = 1.9;
  const Solution s = solve_ilp(parse_problem(j));
  CHECK_FALSE(s.feasible);
  CHECK(s.groups.empty());
}

TEST_CASE("ilp: a skip from the input pays one upload, shared with layer 1") {
  // Three layers; skip [0, 2]. Offloading layers 1..2 as one cloud group pays up(0) once (not
  // twice for its two consumers): up(0) 1 + C[1..2] 0.8 + down(2) 1 + M[3] 1 = 3.8, better than
  // C[1] C[2] M[3] (4.0), all mobile (at least 7), or anything crossing at layer 1 (down/up 5).
  const Json j = Json::parse(R"({"layers": 3, "mobile_time": [[3, 6, 9], [3, 6], [1]],
    "cloud_time": [[0.5, 0.8, 100], [0.5, 100], [100]], "upload_time": [1, 5, 5, 5],
    "download_time": [5, 5, 1, 5], "skips": [[0, 2]], "objective": "latency"})");
  const Solution s = solve_ilp(parse_problem(j));
  CHECK(s.cost.latency_s == Approx(3.8));
  CHECK(s.groups == std::vector<Group>{{1, 2, Side::cloud}, {3, 3, Side::mobile}});
}

TEST_CASE("ilp equals brute force, labels and jointdnn on 400 random instances") {
  std::mt19937_64 rng(8001);
  for (int t = 0; t < 400; ++t) {
    const Json j = testing::random_problem(rng);
    const Problem p = parse_problem(j);
    const auto ref = testing::brute_force(p);
    INFO("instance " << t << ": " << j.dump());
    const Solution ilp = solve_ilp(p);
    REQUIRE(testing::agrees(p, ilp, ref));
    const Solution labels = solve_labels(p);
    REQUIRE(ilp.feasible == labels.feasible);
    if (ilp.feasible) REQUIRE(testing::close(objective_value(p, ilp.cost), objective_value(p, labels.cost)));
    if (!p.has_limits())
      REQUIRE(testing::close(objective_value(p, ilp.cost), objective_value(p, solve_shortest_path(p).cost)));
  }
}
