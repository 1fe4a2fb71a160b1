// Layers that do not read their predecessor (`detached`: DAG branches in topological order, e.g.
// an Inception branch or a ResNet projection shortcut): every solver against brute force.
#include <catch2/catch.hpp>

#include <set>
#include <utility>

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;

namespace {

/// A random DAG problem: each layer k >= 2 is detached with probability 0.4; it then reads an
/// earlier layer through a skip, and layer k-1's output is read by a later layer (a skip) unless
/// k-1 = N-1, so branches fork and join as in Inception. All draws come from `rng`.
Json random_dag(std::mt19937_64& rng, bool maxima) {
  Json j = testing::random_problem(rng, {6, false, true, true, maxima});
  const int n = j["layers"];
  Json skips = Json::array();
  Json detached = Json::array();
  std::bernoulli_distribution coin(0.4);
  std::set<std::pair<int, int>> seen;
  const auto add = [&](int a, int b) {
    if (b >= a + 2 && seen.insert({a, b}).second) skips.push_back({a, b});
  };
  for (int k = 2; k <= n; ++k) {
    if (!coin(rng)) continue;
    detached.push_back(k);
    add(std::uniform_int_distribution<int>(0, k - 2)(rng), k);                 // k reads an earlier layer
    if (k < n) add(k - 1, std::uniform_int_distribution<int>(k + 1, n)(rng));  // k-1 read later
  }
  j["skips"] = skips;
  j["detached"] = detached;
  return j;
}

}  // namespace

TEST_CASE("a detached layer pays no crossing for its predecessor's output") {
  // Two layers; layer 2 is detached and reads the input (skip [0, 2]): a branch beside layer 1.
  // Schedule: layer 1 on the cloud (0.1 s), layer 2 on the mobile (1 s). Crossings: the input goes
  // up for layer 1 (0.5 s); layer 1's output is read by nobody on the mobile, so no download;
  // layer 2's output (the result) is already on the mobile. Latency 0.1 + 1 + 0.5 = 1.6 s.
  Json j = Json::parse(R"({"layers": 2, "mobile_time": [[1, 2], [1]], "cloud_time": [[0.1, 0.2], [0.1]],
    "upload_time": [0.5, 0.5, 0.5], "download_time": [0.25, 0.25, 0.25], "objective": "latency",
    "skips": [[0, 2]], "detached": [2]})");
  const std::vector<Group> schedule = {{1, 1, Side::cloud}, {2, 2, Side::mobile}};
  CHECK(evaluate_schedule(parse_problem(j), schedule).latency_s == Approx(1.6));
  // Not detached, layer 2 would read layer 1 and pay its download (0.25 s) too.
  j.erase("detached");
  CHECK(evaluate_schedule(parse_problem(j), schedule).latency_s == Approx(1.85));
}

TEST_CASE("on DAGs, shortest path and neurosurgeon equal brute force without maxima") {
  std::mt19937_64 rng(9101);
  int detached = 0;
  for (int t = 0; t < 400; ++t) {
    const Json j = random_dag(rng, false);
    const Problem p = parse_problem(j);
    detached += !p.detached.empty();
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(testing::agrees(p, solve_shortest_path(p), testing::brute_force(p)));
    REQUIRE(testing::agrees(p, solve_neurosurgeon(p), testing::brute_force(p, true)));
  }
  CHECK(detached > 150);
}

TEST_CASE("on DAGs with maxima, labels and the ILP equal brute force") {
  std::mt19937_64 rng(9102);
  for (int t = 0; t < 250; ++t) {
    const Json j = random_dag(rng, true);
    const Problem p = parse_problem(j);
    const auto ref = testing::brute_force(p);
    INFO("instance " << t << ": " << j.dump());
    REQUIRE(testing::agrees(p, solve_labels(p), ref));
    REQUIRE(testing::agrees(p, solve_ilp(p), ref));
  }
}
