// `neurosurgeon`: best single split point, against hand derivations and brute force over splits.
#include "partitioners/jointdnn/neurosurgeon.hpp"

#include <catch2/catch.hpp>

#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using coinfer::jointdnn::testing::three_layers;

TEST_CASE("neurosurgeon keeps everything on the mobile when every split pays a big crossing") {
  // p = 0: up(0) 10 + C[1..3] 1.5 + down(3) 10 = 21.5;  p = 1: M[1] 1 + up(1) 0.5 + C[2..3] 1 + 10 = 12.5;
  // p = 2: M[1..2] 5.8 + up(2) 10 + C[3] 0.5 + 10 = 26.3;  p = 3: M[1..3] = 6.5. Best: p = 3.
  // (JointDNN finds M[1] C[2] M[3] = 3.5, which is not a single split.)
  const Solution s = solve_neurosurgeon(parse_problem(three_layers()));
  CHECK(s.groups == std::vector<Group>{{1, 3, Side::mobile}});
  CHECK(s.cost.latency_s == Approx(6.5));
}

TEST_CASE("neurosurgeon picks a split point when the result is cheap to download") {
  // download(3) = 0.1: p = 1 gives 1 + 0.5 + 1 + 0.1 = 2.6, p = 0 gives 10 + 1.5 + 0.1 = 11.6,
  // p = 2 gives 5.8 + 10 + 0.5 + 0.1 = 16.4, p = 3 gives 6.5. Best: p = 1.
  auto j = three_layers();
  j["download_time"][3] = 0.1;
  const Solution s = solve_neurosurgeon(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 1, Side::mobile}, {2, 3, Side::cloud}});
  CHECK(s.cost.latency_s == Approx(2.6));
}

TEST_CASE("neurosurgeon pays the upload of a skip source crossing the split") {
  // download(3) = 0.1 and skip [0, 3]: p = 1 now also uploads the input for layer 3: 2.6 + 10 = 12.6;
  // p = 0 already uploads it (11.6, paid once); p = 3: 6.5. Best: p = 3.
  auto j = three_layers();
  j["download_time"][3] = 0.1;
  j["skips"] = {{0, 3}};
  const Solution s = solve_neurosurgeon(parse_problem(j));
  CHECK(s.groups == std::vector<Group>{{1, 3, Side::mobile}});
}

TEST_CASE("neurosurgeon honours maxima over its splits") {
  // download(3) = 0.1, max_cloud_time 0.9: p = 1 (cloud 1.0) and p = 0 (1.5) are out; p = 2 (0.5) and
  // p = 3 (0) remain: 16.4 vs 6.5 -> p = 3. With max_latency 6 nothing remains: infeasible.
  auto j = three_layers();
  j["download_time"][3] = 0.1;
  j["max_cloud_time"] = 0.9;
  CHECK(solve_neurosurgeon(parse_problem(j)).groups == std::vector<Group>{{1, 3, Side::mobile}});
  j["max_latency"] = 6.0;
  CHECK_FALSE(solve_neurosurgeon(parse_problem(j)).feasible);
}

TEST_CASE("neurosurgeon equals brute force over single splits on 600 random instances") {
  std::mt19937_64 rng(9001);
  for (int t = 0; t < 600; ++t) {
    const Json j = testing::random_problem(rng, {8});
    const Problem p = parse_problem(j);
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(testing::agrees(p, solve_neurosurgeon(p), testing::brute_force(p, true)));
  }
}
