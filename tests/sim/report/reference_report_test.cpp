// The scenario `report:` block: ours next to a paper's value.
#include "sim/report/reference_report.hpp"

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

const Json kResults = Json::parse(R"({"latency_ms": {"mean": 5000.0}, "stages": {"fc6": {"bytes": 600.0}}})");
const Json kBase = Json::parse(R"({"latency_ms": {"mean": 10000.0}, "stages": {"fc6": {"bytes": 1000.0}}})");

}  // namespace

TEST_CASE("report: a value row prints ours, the paper's and the gap", "[report]") {
  const Json report = Json::parse(
      R"({"title": "T", "rows": [{"name": "exec", "run": "a", "metric": "latency_ms.mean", "paper": 4000}]})");
  check_report(report, {"a"});
  const auto text = render_report(report, {{"a", kResults}});
  // (5000 - 4000) / 4000 = +25%.
  CHECK_THAT(text, Contains("5000") && Contains("4000") && Contains("+25.0%"));
}

TEST_CASE("report: the JSON form holds ours, the paper's value and the gap per row", "[report]") {
  const Json report = Json::parse(R"({"title": "T", "source": "S", "rows": [
      {"name": "exec", "run": "a", "metric": "latency_ms.mean", "paper": 4000},
      {"name": "bound", "run": "a", "metric": "latency_ms.mean", "paper": "<= 6000"},
      {"name": "ours only", "run": "a", "metric": "latency_ms.mean"}]})");
  check_report(report, {"a"});
  const Json j = report_json(report, {{"a", kResults}});
  CHECK(j["title"] == "T");
  CHECK(j["source"] == "S");
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["rows"][0] == Json::parse(R"({"name": "exec", "run": "a", "ours": 5000.0, "paper": 4000,
                                        "gap_pct": 25.0})"));
  CHECK(j["rows"][1]["paper"] == "<= 6000");
  CHECK(j["rows"][1]["gap_pct"].is_null());
  CHECK(j["rows"][2]["paper"].is_null());
}

TEST_CASE("report: reduction_pct is 100 (1 - ours / baseline)", "[report]") {
  const Json report = Json::parse(R"({"rows": [{"name": "r", "run": "a", "baseline": "b",
      "metric": "stages.fc6.bytes", "as": "reduction_pct", "paper": ">= 22.6"}]})");
  check_report(report, {"a", "b"});
  // 1 - 600 / 1000 = 40%.
  CHECK_THAT(render_report(report, {{"a", kResults}, {"b", kBase}}),
             Contains("40.00") && Contains(">= 22.6"));
}

TEST_CASE("report: an unknown run is named with the compare labels", "[report]") {
  const Json report = Json::parse(R"({"rows": [{"name": "x", "run": "zz", "metric": "m"}]})");
  CHECK_THROWS_WITH(check_report(report, {"a", "b"}), Contains("report.rows[0].run") && Contains("a, b"));
}

TEST_CASE("report: a missing metric names the row and the run", "[report]") {
  const Json report = Json::parse(R"({"rows": [{"name": "x", "run": "a", "metric": "nope.x"}]})");
  CHECK_THROWS_WITH(render_report(report, {{"a", kResults}}), Contains("report.rows[0].metric"));
}

TEST_CASE("report: a reduction without a baseline is refused", "[report]") {
  const Json report = Json::parse(R"({"rows": [{"name": "x", "run": "a", "metric": "m", "as": "ratio"}]})");
  CHECK_THROWS_AS(check_report(report, {"a"}), InputError);
}

TEST_CASE("report: remainder_pct is 100 (1 - ours x scale / of), of read from the same run", "[report]") {
  const Json report = Json::parse(R"({"rows": [{"name": "r", "run": "a", "metric": "stages.fc6.bytes",
      "scale": 2, "of": "latency_ms.mean", "as": "remainder_pct"},
      {"name": "s", "run": "a", "metric": "stages.fc6.bytes", "scale": 2, "of": "latency_ms.mean", "as": "share_pct"}]})");
  check_report(report, {"a"});
  // 600 x 2 / 5000 = 24%: the share 24, the remainder 76.
  const Json j = report_json(report, {{"a", kResults}});
  CHECK(j["rows"][0]["ours"].get<double>() == Approx(76.0));
  CHECK(j["rows"][1]["ours"].get<double>() == Approx(24.0));
}

TEST_CASE("report: a share without 'of', or with a baseline run, is refused with its key path", "[report]") {
  const Json no_of =
      Json::parse(R"({"rows": [{"name": "x", "run": "a", "metric": "m", "as": "share_pct"}]})");
  CHECK_THROWS_WITH(check_report(no_of, {"a"}), Contains("report.rows[0].of"));
  const Json with_base = Json::parse(R"({"rows": [{"name": "x", "run": "a", "baseline": "a", "metric": "m",
      "of": "n", "as": "share_pct"}]})");
  CHECK_THROWS_WITH(check_report(with_base, {"a"}), Contains("report.rows[0].baseline"));
  const Json stray_of = Json::parse(R"({"rows": [{"name": "x", "run": "a", "metric": "m", "of": "n"}]})");
  CHECK_THROWS_WITH(check_report(stray_of, {"a"}), Contains("report.rows[0].of"));
}

TEST_CASE("report: a metric path reaches keys that hold dots, the longest key first") {
  const Json results = Json::parse(R"({"stages": {"features.4.project_bn": {"transfer_ms": 52.4},
                                                 "features.4": {"project_bn": {"transfer_ms": 1.0}}}})");
  REQUIRE(metric_at(results, "stages.features.4.project_bn.transfer_ms") != nullptr);
  CHECK(metric_at(results, "stages.features.4.project_bn.transfer_ms")->get<double>() == Approx(52.4));
  CHECK(metric_at(results, "stages.features.4.nope") == nullptr);
  CHECK(metric_at(kResults, "latency_ms.mean")->get<double>() == Approx(5000.0));
  CHECK(metric_at(kResults, "latency_ms") == nullptr);  // an object, not a number
}
