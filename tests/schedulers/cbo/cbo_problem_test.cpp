// Parsing, validation and the timing evaluator of the CBO problem ([CBO §IV-B] with the timing rule
// of cbo_problem.hpp).
#include "schedulers/cbo/cbo_problem.hpp"

#include <cmath>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "tests/solve/solve_test_support.hpp"

#include "sim/core/error.hpp"
#include "tests/schedulers/cbo/cbo_test_support.hpp"

using coinfer::InputError;
using coinfer::Json;
namespace cbo = coinfer::cbo;

namespace {

// Two frames, two resolutions; every number is a multiple of 1/8 so sums are exact.
Json valid_problem() {
  return Json::parse(R"({
    "frames": [
      {"arrival": 0.0,  "confidence": 0.75, "local_accuracy": 0.5,  "sizes": [2, 4]},
      {"arrival": 0.25, "confidence": 0.25, "local_accuracy": 0.25, "sizes": [1, 3]}
    ],
    "server_accuracy": [0.625, 0.875],
    "bandwidth": 8, "server_time": 0.125, "latency": 0.125, "deadline": 1.0
  })");
}

std::string error_path(const Json& json) {
  return coinfer::testing::input_error_path([&] { cbo::parse_problem(json); });
}

}  // namespace

TEST_CASE("cbo problem: a bandwidth of 1e-300 bps or times past 1e9 s are out of range", "[cbo]") {
  // an upload of 1e15 bits at 1 bps takes 1e15 s: still finite; at 1e-300 bps it was not
  auto j = valid_problem();
  j["bandwidth"] = 1e-300;
  CHECK(error_path(j) == "bandwidth");
  j = valid_problem();
  j["deadline"] = 1e10;
  CHECK(error_path(j) == "deadline");
  j = valid_problem();
  j["frames"][1]["sizes"][0] = 1e300;
  CHECK(error_path(j) == "frames[1].sizes[0]");
}

TEST_CASE("cbo problem: a valid problem is parsed field by field", "[cbo]") {
  const auto p = cbo::parse_problem(valid_problem());
  REQUIRE(p.frames.size() == 2);
  REQUIRE(p.resolutions() == 2);
  CHECK(p.frames[1].arrival_s == 0.25);
  CHECK(p.frames[0].confidence == 0.75);
  CHECK(p.frames[1].sizes_bits == std::vector<double>{1, 3});
  CHECK(p.bandwidth_bps == 8);
  CHECK(p.deadline_s == 1.0);
  CHECK(p.uplink_free_at_s == 0.0);  // optional, defaults to 0 (the paper's l_0 = {(0, 0)})
}

TEST_CASE("cbo problem: malformed problems name the JSON path", "[cbo]") {
  auto j = valid_problem();
  SECTION("missing frames") {
    j.erase("frames");
    CHECK(error_path(j) == "frames");
  }
  SECTION("empty frames") {
    j["frames"] = Json::array();
    CHECK(error_path(j) == "frames");
  }
  SECTION("a frame with one size per resolution missing") {
    j["frames"][1]["sizes"] = {1};
    CHECK(error_path(j) == "frames[1].sizes");
  }
  SECTION("a confidence above 1") {
    j["frames"][0]["confidence"] = 1.5;
    CHECK(error_path(j) == "frames[0].confidence");
  }
  SECTION("a local accuracy that is not a number") {
    j["frames"][0]["local_accuracy"] = "high";
    CHECK(error_path(j) == "frames[0].local_accuracy");
  }
  SECTION("a negative size") {
    j["frames"][1]["sizes"][0] = -1;
    CHECK(error_path(j) == "frames[1].sizes[0]");
  }
  SECTION("a negative arrival") {
    j["frames"][0]["arrival"] = -0.5;
    CHECK(error_path(j) == "frames[0].arrival");
  }
  SECTION("zero bandwidth") {
    j["bandwidth"] = 0;
    CHECK(error_path(j) == "bandwidth");
  }
  SECTION("no resolutions") {
    j["server_accuracy"] = Json::array();
    CHECK(error_path(j) == "server_accuracy");
  }
  SECTION("a server accuracy above 1") {
    j["server_accuracy"][1] = 1.25;
    CHECK(error_path(j) == "server_accuracy[1]");
  }
  SECTION("a negative deadline") {
    j["deadline"] = -1;
    CHECK(error_path(j) == "deadline");
  }
  SECTION("a negative uplink_free_at") {
    j["uplink_free_at"] = -0.1;
    CHECK(error_path(j) == "uplink_free_at");
  }
  SECTION("a misspelt key") {
    j["bandwith"] = 8;
    CHECK(error_path(j) == "bandwith");
  }
  SECTION("an unknown frame key") {
    j["frames"][0]["size"] = 3;
    CHECK(error_path(j) == "frames[0].size");
  }
  SECTION("a frame that is not an object") {
    j["frames"][1] = 3;
    CHECK(error_path(j) == "frames[1]");
  }
  SECTION("a problem that is not an object") { CHECK(error_path(Json::array()) == ""); }
}

TEST_CASE("cbo problem: arrival order is checked on request, naming the frame", "[cbo]") {
  auto j = valid_problem();
  j["frames"][1]["arrival"] = 0.0;  // equal arrivals are in order
  CHECK_NOTHROW(cbo::require_arrival_order(cbo::parse_problem(j)));
  j["frames"][0]["arrival"] = 0.5;  // 0.0 after 0.5
  const auto p = cbo::parse_problem(j);
  try {
    cbo::require_arrival_order(p);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.path() == "frames[1].arrival");
  }
}

TEST_CASE("cbo evaluate: uploads are serialised over one uplink", "[cbo]") {
  // bandwidth 8 bit/s: frame 0 at resolution 1 (4 bits) uploads during [0, 0.5];
  // frame 1 (arrival 0.25) at resolution 0 (1 bit) waits for the uplink: [0.5, 0.625].
  // On time: 0.5 + 0.25 <= 0 + 1 and 0.625 + 0.25 <= 0.25 + 1.
  // Accuracy 0.875 + 0.625 = 1.5; gain (0.875 - 0.5) + (0.625 - 0.25) = 0.75.
  const auto p = cbo::parse_problem(valid_problem());
  const auto e = cbo::evaluate(p, {1, 0});
  CHECK(e.feasible);
  CHECK(e.upload_end_s[0] == 0.5);
  CHECK(e.upload_end_s[1] == 0.625);
  CHECK(e.total_accuracy == 1.5);
  CHECK(e.gain == 0.75);
}

TEST_CASE("cbo evaluate: a frame whose result comes back after its deadline is late", "[cbo]") {
  // Frame 0 at resolution 1 ends at 0.5; frame 1 at resolution 1 (3 bits = 0.375 s) starts at
  // 0.5 and ends at 0.875; 0.875 + 0.25 = 1.125 <= 1.25 is on time. With the uplink busy until
  // 0.25, frame 0 ends at 0.75 (0.75 + 0.25 <= 1, still on time) and frame 1 at 1.125:
  // 1.125 + 0.25 = 1.375 > 1.25, late.
  auto j = valid_problem();
  CHECK(cbo::evaluate(cbo::parse_problem(j), {1, 1}).feasible);
  j["uplink_free_at"] = 0.25;
  const auto e = cbo::evaluate(cbo::parse_problem(j), {1, 1});
  CHECK_FALSE(e.feasible);
  CHECK(e.first_late_frame == 1);
  CHECK(e.upload_end_s[0] == 0.75);
}

TEST_CASE("cbo evaluate: the deadline is met with equality", "[cbo]") {
  // One frame, 2 bits at 8 bit/s = 0.25 s; 0.25 + 0.125 + 0.125 = 0.5 == 0 + deadline 0.5.
  auto j = valid_problem();
  j["frames"].erase(1);
  j["deadline"] = 0.5;
  const auto p = cbo::parse_problem(j);
  CHECK(cbo::evaluate(p, {0}).feasible);
  CHECK_FALSE(cbo::evaluate(p, {1}).feasible);  // 0.5 + 0.25 > 0.5
  CHECK(cbo::evaluate(p, {-1}).feasible);       // local frames never miss
}

TEST_CASE("cbo evaluate: the processing order decides who waits", "[cbo]") {
  // Order {1, 0}: frame 1 (arrival 0.25, 1 bit) uploads [0.25, 0.375], then frame 0 (4 bits)
  // [0.375, 0.875]: 0.875 + 0.25 = 1.125 > 0 + 1, late; in input order both are on time.
  const auto p = cbo::parse_problem(valid_problem());
  CHECK(cbo::evaluate(p, {1, 0}).feasible);
  const auto e = cbo::evaluate(p, {1, 0}, {1, 0});
  CHECK_FALSE(e.feasible);
  CHECK(e.first_late_frame == 0);
  CHECK(e.upload_end_s[1] == 0.375);
}

TEST_CASE("cbo evaluate: agrees with an independent replay on random vectors", "[cbo]") {
  std::mt19937_64 rng(0xCB0E7A1);
  for (int instance = 0; instance < 300; ++instance) {
    const auto p = cbo::testing::random_problem(rng, 6, 3);
    const auto order = cbo::testing::by_descending_confidence(p);
    std::uniform_int_distribution<int> pick(-1, static_cast<int>(p.resolutions()) - 1);
    std::vector<int> d(p.frames.size());
    for (auto& x : d) x = pick(rng);
    CHECK(cbo::evaluate(p, d, order).feasible == cbo::testing::feasible(p, d, order));
  }
}

TEST_CASE("cbo evaluate: mismatched decision vectors are programming errors", "[cbo]") {
  const auto p = cbo::parse_problem(valid_problem());
  CHECK_THROWS_AS(cbo::evaluate(p, {0}), std::invalid_argument);
  CHECK_THROWS_AS(cbo::evaluate(p, {0, 2}), std::invalid_argument);
  CHECK_THROWS_AS(cbo::evaluate(p, {0, 0}, {0, 0}), std::invalid_argument);
}
