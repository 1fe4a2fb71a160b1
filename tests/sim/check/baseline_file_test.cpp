// Baseline files: one metric per line for review, read back exactly.
#include <catch2/catch.hpp>

#include "sim/check/baseline_file.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

TEST_CASE("a result baseline has one metric per line and reads back exactly") {
  test::TempDir dir;
  BaselineFile b;
  b.check = "quickstart";
  b.metrics = {
      {"local/latency_ms.mean", 15808.693828082403}, {"remote/completed", 39}, {"x/partitioner", "plan"}};
  const auto text = baseline_text(b);
  CHECK(text ==
        "{\n  \"format\": \"coinfer-check-baseline/1\",\n  \"check\": \"quickstart\",\n  \"metrics\": {\n"
        "    \"local/latency_ms.mean\": 15808.693828082403,\n    \"remote/completed\": 39,\n"
        "    \"x/partitioner\": \"plan\"\n  }\n}\n");
  const auto path = dir.path() + "/b.json";
  write_file_atomic(path, text);
  const auto back = read_baseline(path, "quickstart");
  REQUIRE(back.metric("local/latency_ms.mean") != nullptr);
  CHECK(back.metric("local/latency_ms.mean")->get<double>() == 15808.693828082403);
  CHECK(back.metric("nope") == nullptr);
}

TEST_CASE("a timing baseline keeps its samples to 6 digits and its setup") {
  test::TempDir dir;
  BaselineFile b;
  b.check = "speed";
  b.ratios = {{"a/b", {1.0000001, 2.5, 0.5}}};
  b.setup = Json{{"measure", "wall"}, {"a", "sleep 1"}, {"b", "sleep 1"}};
  b.recorded_on = "a CPU (2 CPUs)";
  const auto text = baseline_text(b);
  CHECK_THAT(text, Contains("    \"a/b\": {\"median\": 1, \"samples\": [1, 2.5, 0.5]}\n"));
  const auto path = dir.path() + "/b.json";
  write_file_atomic(path, text);
  const auto back = read_baseline(path, "speed");
  CHECK(*back.ratio("a/b") == std::vector<double>{1, 2.5, 0.5});
  CHECK(back.setup == b.setup);
}

TEST_CASE("a baseline of another check or a bad one is refused with its key path") {
  test::TempDir dir;
  const auto path =
      dir.write("b.json", R"({"format": "coinfer-check-baseline/1", "check": "a", "metrics": {}})");
  CHECK_THROWS_WITH(read_baseline(path, "b"),
                    Contains("b.json: check: the baseline of check 'a', not of 'b'"));
  const auto bad =
      dir.write("c.json", R"({"format": "coinfer-check-baseline/1", "check": "a", "metrics": {"x": [1]}})");
  CHECK_THROWS_WITH(read_baseline(bad, "a"), Contains("c.json: metrics.x: expected a number"));
  CHECK_THROWS_WITH(read_baseline(dir.path() + "/none.json", "a"), Contains("baseline not found"));
}
