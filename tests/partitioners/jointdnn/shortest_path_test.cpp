// `jointdnn`: shortest path on the (transformed) JointDNN graph, against hand derivations and brute force.
#include "partitioners/jointdnn/shortest_path.hpp"

#include "partitioners/jointdnn/jointdnn_graph.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using Catch::Matchers::Contains;
using coinfer::jointdnn::testing::three_layers;

TEST_CASE("jointdnn offloads the one expensive middle layer") {
  // Candidates: all mobile M[1..3] = 6.5; M[1] C[2] M[3] = 1 + 0.5 + 0.5 + 0.5 + 1 = 3.5;
  // anything with layer 1 or 3 on the cloud pays an upload(0) or download(3) of 10. Optimum 3.5.
  const Problem p = parse_problem(three_layers());
  const Solution s = solve_shortest_path(p);
  REQUIRE(s.feasible);
  CHECK(s.cost.latency_s == Approx(3.5));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::mobile}, {2, 2, Side::cloud}, {3, 3, Side::mobile}});
}

TEST_CASE("jointdnn: a skip from the input to layer 2 makes offloading layer 2 pay the input upload") {
  // With skip [0, 2], layer 2 on the cloud also needs the input there: + upload(0) = 10, so
  // M[1] C[2] M[3] costs 13.5; all on the mobile in one group costs 6.5 (M[1..2] + M[3] = 6.8,
  // M[1] + M[2..3] = 7, three groups 7). Optimum: one mobile group, 6.5.
  auto j = three_layers();
  j["skips"] = {{0, 2}};
  const Solution s = solve_shortest_path(parse_problem(j));
  CHECK(s.cost.latency_s == Approx(6.5));
  CHECK(s.groups == std::vector<Group>{{1, 3, Side::mobile}});
}

TEST_CASE("jointdnn splits a run of same-side layers when separate groups are cheaper") {
  // Two layers on the mobile: as one group 3, separately 1 + 1 = 2; the cloud is out of reach
  // (upload 100). Optimum: two mobile groups, 2.
  const Json j = Json::parse(R"({"layers": 2, "mobile_time": [[1, 3], [1]], "cloud_time": [[0, 0], [0]],
    "upload_time": [100, 100, 100], "download_time": [100, 100, 100], "objective": "latency"})");
  const Solution s = solve_shortest_path(parse_problem(j));
  CHECK(s.cost.latency_s == Approx(2.0));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::mobile}, {2, 2, Side::mobile}});
}

TEST_CASE("jointdnn minimises energy when asked") {
  // One layer. Mobile: 2 s, 4 J. Cloud: up(0) 1 s / 1 J + 0.5 s + down(1) 1 s / 0.5 J = 2.5 s, 1.5 J.
  // Latency picks the mobile (2 < 2.5); energy picks the cloud (1.5 < 4).
  Json j = Json::parse(R"({"layers": 1, "mobile_time": [[2]], "cloud_time": [[0.5]],
    "upload_time": [1, 0], "download_time": [0, 1], "mobile_energy": [[4]], "upload_energy": [1, 0],
    "download_energy": [0, 0.5], "objective": "latency"})");
  CHECK(solve_shortest_path(parse_problem(j)).groups == std::vector<Group>{{1, 1, Side::mobile}});
  j["objective"] = "energy";
  const Solution s = solve_shortest_path(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::cloud}});
  CHECK(s.cost.energy_j == Approx(1.5));
  CHECK(s.cost.latency_s == Approx(2.5));
}

TEST_CASE("jointdnn rejects maxima and names the solvers that take them") {
  auto j = three_layers();
  j["max_cloud_time"] = 1.0;
  try {
    solve_shortest_path(parse_problem(j));
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "max_cloud_time");
    CHECK_THAT(e.message(), Contains("jointdnn-labels") && Contains("jointdnn-ilp"));
  }
}

TEST_CASE("jointdnn equals brute force on 600 random unconstrained instances") {
  std::mt19937_64 rng(6001);
  int with_skips = 0;
  for (int t = 0; t < 600; ++t) {
    const Json j = testing::without_maxima(testing::random_problem(rng));
    const Problem p = parse_problem(j);
    with_skips += !p.skips.empty();
    const Solution s = solve_shortest_path(p);
    const auto ref = testing::brute_force(p);
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(testing::agrees(p, s, ref));
  }
  CHECK(with_skips > 100);
}

TEST_CASE("jointdnn handles nested and overlapping skips exactly") {
  // Dense skips on 7-8 layers: several sources open at once, so the node codes need many digits.
  std::mt19937_64 rng(6002);
  for (int t = 0; t < 60; ++t) {
    Json j = testing::without_maxima(testing::random_problem(rng, {8, false, true, true, false}));
    const int n = j["layers"];
    Json skips = Json::array();
    for (int a = 0; a <= n - 2; ++a)
      for (int b = a + 2; b <= n; ++b)
        if (std::bernoulli_distribution(0.6)(rng)) skips.push_back({a, b});
    j["skips"] = skips;
    const Problem p = parse_problem(j);
    INFO(j.dump());
    REQUIRE(testing::agrees(p, solve_shortest_path(p), testing::brute_force(p)));
  }
}

namespace {

// 14 skips [a, 15] from a = 0..13 are all open after layer 13: 3^14 states per node.
Json overlapping_skips() {
  Json j;
  const int n = 15;
  j["layers"] = n;
  Json tri = Json::array();
  for (int i = 0; i < n; ++i) tri.push_back(std::vector<double>(n - i, 1.0));
  j["mobile_time"] = tri;
  j["cloud_time"] = tri;
  j["upload_time"] = std::vector<double>(n + 1, 1.0);
  j["download_time"] = std::vector<double>(n + 1, 1.0);
  j["objective"] = "latency";
  Json skips = Json::array();
  for (int a = 0; a <= 13; ++a) skips.push_back({a, n});
  j["skips"] = skips;
  return j;
}

}  // namespace

TEST_CASE("jointdnn refuses a graph with too many overlapping skips") {
  const Problem p = parse_problem(overlapping_skips());
  CHECK(most_open_skips(p) == 14);  // > kMaxOpenSkips: solver auto runs the ILP (solve_automatic)
  CHECK(most_open_skips(p) > kMaxOpenSkips);
  CHECK_THROWS_WITH(solve_shortest_path(p),
                    Contains("13 skip sources are open after layer 13") && Contains("solver ilp"));
}
