// Key paths for --set and sweep axes.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/scenario/key_path.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

TEST_CASE("a key path splits into keys and indices") {
  const auto steps = parse_key_path("platform.networks[1].rate_mbps");
  REQUIRE(steps.size() == 4);
  CHECK(std::get<std::string>(steps[0]) == "platform");
  CHECK(std::get<std::size_t>(steps[2]) == 1);
  CHECK(std::get<std::string>(steps[3]) == "rate_mbps");
}

TEST_CASE("malformed key paths are rejected") {
  CHECK_THROWS_AS(parse_key_path(""), InputError);
  CHECK_THROWS_AS(parse_key_path("a..b"), InputError);
  CHECK_THROWS_AS(parse_key_path("a[x]"), InputError);
  CHECK_THROWS_AS(parse_key_path("a."), InputError);
}

TEST_CASE("set_at_path creates missing objects") {
  Json doc = Json::object();
  set_at_path(doc, "partitioner.params.workers", 4);
  CHECK(doc["partitioner"]["params"]["workers"] == 4);
}

TEST_CASE("set_at_path replaces an array element") {
  Json doc = Json::parse(R"({"nets": [{"rate": 1}, {"rate": 2}]})");
  set_at_path(doc, "nets[1].rate", 5);
  CHECK(doc["nets"][1]["rate"] == 5);
  CHECK(doc["nets"][0]["rate"] == 1);
}

TEST_CASE("set_at_path refuses an index past the end") {
  Json doc = Json::parse(R"({"nets": [1]})");
  CHECK_THROWS_WITH(set_at_path(doc, "nets[3]", 5), Contains("nets[3]") && Contains("no element [3]"));
}

TEST_CASE("an override parses its value as YAML") {
  Json doc = Json::object();
  apply_override(doc, "workload.rate_fps=30");
  apply_override(doc, "partitioner.name=bodp");
  apply_override(doc, "axes=[1, 2]");
  CHECK(doc["workload"]["rate_fps"] == 30);
  CHECK(doc["partitioner"]["name"] == "bodp");
  CHECK(doc["axes"] == Json::array({1, 2}));
  CHECK(find_at_path(doc, "workload.rate_fps") != nullptr);
  CHECK(find_at_path(doc, "workload.nope") == nullptr);
}

TEST_CASE("an override without '=' is rejected") {
  Json doc = Json::object();
  CHECK_THROWS_WITH(apply_override(doc, "seed"), Contains("expected key=value"));
}
