// Parsing, validation, schedule cost and solution JSON of the JointDNN problem.
#include "partitioners/jointdnn/jointdnn_problem.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "tests/partitioners/jointdnn/jointdnn_test_support.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using Catch::Matchers::Contains;
using coinfer::jointdnn::testing::three_layers;

namespace {

Json with_energy(Json j) {
  j["mobile_energy"] = Json::parse("[[2, 9, 10], [8, 9], [2]]");
  j["upload_energy"] = Json::parse("[3, 1, 3, 3]");
  j["download_energy"] = Json::parse("[2, 2, 0.5, 2]");
  return j;
}

// Parses `j` and expects an InputError at `path` whose message contains `text`.
void expect_error(const Json& j, const std::string& path, const std::string& text) {
  try {
    parse_problem(j);
    FAIL("expected InputError at " << path);
  } catch (const InputError& e) {
    CHECK(e.path() == path);
    CHECK_THAT(e.message(), Contains(text));
  }
}

}  // namespace

TEST_CASE("a well-formed problem parses with defaults for the optional arrays") {
  const Problem p = parse_problem(three_layers());
  CHECK(p.layers == 3);
  CHECK(p.mobile_time_s[1][1] == 6.0);
  CHECK(p.weight_download_time_s == std::vector<double>{0, 0, 0});
  CHECK_FALSE(p.has_energy());
  CHECK_FALSE(p.has_limits());
  CHECK(p.group_time_s(2, 3, Side::mobile) == 6.0);
}

TEST_CASE("a triangle row of the wrong length names the row") {
  auto j = three_layers();
  j["mobile_time"][1] = {5};
  expect_error(j, "mobile_time[1]", "expected 2 entries, got 1");
}

TEST_CASE("a triangle with the wrong number of rows is rejected") {
  auto j = three_layers();
  j["cloud_time"].erase(2);
  expect_error(j, "cloud_time", "expected 3 rows");
}

TEST_CASE("upload_time needs N + 1 entries") {
  auto j = three_layers();
  j["upload_time"] = {1, 2, 3};
  expect_error(j, "upload_time", "expected 4 entries, got 3");
}

TEST_CASE("negative or non-numeric costs name the element") {
  auto j = three_layers();
  j["cloud_time"][0][1] = -1;
  expect_error(j, "cloud_time[0][1]", "got -1");
  j = three_layers();
  j["download_time"][2] = "fast";
  expect_error(j, "download_time[2]", "expected a number");
}

TEST_CASE("layers must be a positive integer") {
  auto j = three_layers();
  j["layers"] = 0;
  expect_error(j, "layers", "expected an integer");
  j["layers"] = 2.5;
  expect_error(j, "layers", "expected an integer");
}

TEST_CASE("a skip must jump over at least one layer and stay inside the model") {
  auto j = three_layers();
  j["skips"] = {{1, 2}};  // b = a + 1 is the chain itself
  expect_error(j, "skips[0]", "a + 2 <= b");
  j["skips"] = {{0, 2}, {0, 4}};
  expect_error(j, "skips[1][1]", "in [0, 3]");
  j["skips"] = {{3, 5}};
  expect_error(j, "skips[0][0]", "in [0, 2]");
  j["skips"] = {{0, 2}, {0, 2}};
  expect_error(j, "skips[1]", "duplicate");
  j["skips"] = {{0}};
  expect_error(j, "skips[0]", "pair");
}

TEST_CASE("the objective is latency or energy, and energy needs the energy arrays") {
  auto j = three_layers();
  j["objective"] = "speed";
  expect_error(j, "objective", "expected one of latency, energy");
  j["objective"] = "energy";
  expect_error(j, "objective", "needs mobile_energy");
  j.erase("objective");
  expect_error(j, "objective", "missing key");
}

TEST_CASE("energy arrays come together") {
  auto j = three_layers();
  j["upload_energy"] = {1, 1, 1, 1};
  expect_error(j, "mobile_energy", "come together");
  j = three_layers();
  j["weight_download_energy"] = {1, 1, 1};
  expect_error(j, "weight_download_energy", "needs mobile_energy");
}

TEST_CASE("maxima must be non-negative and max_energy needs energy data") {
  auto j = three_layers();
  j["max_latency"] = -1;
  expect_error(j, "max_latency", "expected a number in [0, 1e+18]");
  j = three_layers();
  j["max_energy"] = 3;
  expect_error(j, "max_energy", "needs mobile_energy");
}

TEST_CASE("unknown keys and non-object problems are rejected") {
  auto j = three_layers();
  j["layer_count"] = 3;
  expect_error(j, "layer_count", "unknown key");
  expect_error(Json::array(), "", "expected an object");
}

TEST_CASE("times beyond 1e9 s, or non-zero below a picosecond, are out of range") {
  // a schedule sums up to 3 * 10^6 of them: with 1e300 (or LARAC's lambda over 1e-300) they overflowed
  auto j = three_layers();
  j["upload_time"][1] = 1e300;
  expect_error(j, "upload_time[1]", "expected a number in [0, 1000000000]");
  j = three_layers();
  j["mobile_time"][1][0] = 1e-300;
  expect_error(j, "mobile_time[1][0]", "expected 0 or a number in [1e-12, 1000000000]");
  j = three_layers();
  j["max_latency"] = 1e300;
  expect_error(j, "max_latency", "expected a number in [0, 1e+18]");
}

TEST_CASE("weight_download_time needs N entries") {
  auto j = three_layers();
  j["weight_download_time"] = {1, 2};
  expect_error(j, "weight_download_time", "expected 3 entries, got 2");
}

TEST_CASE("schedule cost: a mobile/cloud/mobile schedule pays group times and two crossings") {
  const Problem p = parse_problem(three_layers());
  // M[1] + up(1) + C[2] + down(2) + M[3] = 1 + 0.5 + 0.5 + 0.5 + 1 = 3.5; cloud time 0.5.
  const Cost c = evaluate_schedule(p, {{1, 1, Side::mobile}, {2, 2, Side::cloud}, {3, 3, Side::mobile}});
  CHECK(c.latency_s == Approx(3.5));
  CHECK(c.cloud_time_s == Approx(0.5));
  CHECK(c.energy_j == 0.0);
}

TEST_CASE("schedule cost: grouped execution reads the triangle, split groups add up") {
  const Problem p = parse_problem(three_layers());
  // One group M[1..3] = 6.5; M[1..2] + M[3] = 5.8 + 1 = 6.8 with no crossing between them.
  CHECK(evaluate_schedule(p, {{1, 3, Side::mobile}}).latency_s == Approx(6.5));
  CHECK(evaluate_schedule(p, {{1, 2, Side::mobile}, {3, 3, Side::mobile}}).latency_s == Approx(6.8));
}

TEST_CASE("schedule cost: all on the cloud uploads the input and downloads the result") {
  auto j = with_energy(three_layers());
  j["weight_download_time"] = {0.1, 0.2, 0.3};
  j["weight_download_energy"] = {1, 1, 1};
  const Problem p = parse_problem(j);
  // latency: up(0) 10 + C[1..3] 1.5 + weights 0.6 + down(3) 10 = 22.1
  // energy:  up(0) 3 + weights 3 + down(3) 2 = 8; cloud time 1.5.
  const Cost c = evaluate_schedule(p, {{1, 3, Side::cloud}});
  CHECK(c.latency_s == Approx(22.1));
  CHECK(c.energy_j == Approx(8.0));
  CHECK(c.cloud_time_s == Approx(1.5));
}

TEST_CASE("schedule cost: an output needed twice on the far side crosses once") {
  auto j = with_energy(three_layers());
  j["skips"] = {{1, 3}};
  const Problem p = parse_problem(j);
  // M[1], C[2..3]: layer 1's output feeds layers 2 and 3, both on the cloud: one upload(1) = 0.5.
  // latency = 1 + 0.5 + C[2..3] 1 + down(3) 10 = 12.5; energy = 2 + 1 + 2 = 5.
  const Cost c = evaluate_schedule(p, {{1, 1, Side::mobile}, {2, 3, Side::cloud}});
  CHECK(c.latency_s == Approx(12.5));
  CHECK(c.energy_j == Approx(5.0));
}

TEST_CASE("schedule cost: a skip to the other side pays its own crossing") {
  auto j = three_layers();
  j["skips"] = {{0, 3}};
  const Problem p = parse_problem(j);
  // C[1..2], M[3]: the input goes up for layer 1 (10); layer 3 reads the input on the mobile where
  // it already is (0); layer 2's output comes down (0.5). 10 + 1 + 0.5 + 1 = 12.5.
  CHECK(evaluate_schedule(p, {{1, 2, Side::cloud}, {3, 3, Side::mobile}}).latency_s == Approx(12.5));
  // M[1..2], C[3]: layer 3 needs the input (up 10) and layer 2's output (up 10), result down 10:
  // 5.8 + 10 + 10 + 0.5 + 10 = 36.3.
  CHECK(evaluate_schedule(p, {{1, 2, Side::mobile}, {3, 3, Side::cloud}}).latency_s == Approx(36.3));
}

TEST_CASE("schedule cost rejects groups that do not cover the layers") {
  const Problem p = parse_problem(three_layers());
  CHECK_THROWS_AS(evaluate_schedule(p, {{1, 2, Side::mobile}}), Error);
  CHECK_THROWS_AS(evaluate_schedule(p, {{2, 3, Side::mobile}}), Error);
  CHECK_THROWS_AS(evaluate_schedule(p, {{1, 1, Side::mobile}, {3, 3, Side::mobile}}), Error);
}

TEST_CASE("schedule cost equals the reference cost on random schedules") {
  std::mt19937_64 rng(20240601);
  int checked = 0;
  for (int t = 0; t < 200; ++t) {
    const Problem p = parse_problem(testing::random_problem(rng));
    for (const auto& groups : testing::all_schedules(p.layers)) {
      const Cost a = evaluate_schedule(p, groups);
      const Cost b = testing::reference_cost(p, groups);
      REQUIRE(testing::close(a.latency_s, b.latency_s));
      REQUIRE(testing::close(a.energy_j, b.energy_j));
      REQUIRE(testing::close(a.cloud_time_s, b.cloud_time_s));
      ++checked;
    }
  }
  CHECK(checked > 10000);
}

TEST_CASE("solution JSON has exactly the documented keys, energy is null without energy data") {
  const Problem p = parse_problem(three_layers());
  const Solution s = make_solution(p, {{1, 1, Side::mobile}, {2, 3, Side::cloud}});
  const Json j = solution_to_json(p, s);
  CHECK(j.size() == 5);
  CHECK(j["feasible"] == true);
  CHECK(j["groups"] == Json::parse(R"([{"first": 1, "last": 1, "on": "mobile"},
                                      {"first": 2, "last": 3, "on": "cloud"}])"));
  CHECK(j["latency"].get<double>() == Approx(1 + 0.5 + 1 + 10));
  CHECK(j["energy"].is_null());
  CHECK(j["cloud_time"].get<double>() == Approx(1.0));
}

TEST_CASE("an infeasible solution has no groups and null numbers") {
  const Problem p = parse_problem(three_layers());
  const Json j = solution_to_json(p, Solution{});
  CHECK(j == Json::parse(R"({"feasible": false, "groups": [], "latency": null, "energy": null,
                             "cloud_time": null})"));
}

TEST_CASE("maxima are met up to a relative 1e-9") {
  CHECK(within_limit(1.0, 1.0));
  CHECK(within_limit(1.0 + 1e-12, 1.0));
  CHECK_FALSE(within_limit(1.0 + 1e-6, 1.0));
}
