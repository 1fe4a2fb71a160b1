// Result checks: metric patterns expanded over the results, compared at their tolerance.
#include <catch2/catch.hpp>

#include "sim/check/result_compare.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

namespace {

Check result_check(std::vector<std::string> patterns, Tolerance tolerance = {}) {
  ResultCheck r;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    r.metrics.push_back({patterns[i], tolerance, "checks[0].metrics[" + std::to_string(i) + "]"});
  Check c;
  c.name = "t";
  c.path = "checks[0]";
  c.body = r;
  return c;
}

RunResults variants() {
  return {{{"local", Json{{"latency_ms", {{"mean", 100.0}, {"p95", 120.0}}}, {"bytes", {{"wlan", 0.0}}}}},
           {"remote", Json{{"latency_ms", {{"mean", 50.0}, {"p95", 60.0}}},
                           {"bytes", {{"wlan/phone/up", 4096.0}, {"wlan/phone/down", 40.0}}}}}},
          false};
}

BaselineFile baseline_of(const std::vector<std::pair<std::string, Json>>& metrics) {
  BaselineFile b;
  b.check = "t";
  b.metrics = metrics;
  return b;
}

}  // namespace

TEST_CASE("a star label expands over every compare variant in run order") {
  const auto found = expand_metric({"*/latency_ms.mean", {}, "m"}, variants());
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "local/latency_ms.mean");
  CHECK(found[1].name == "remote/latency_ms.mean");
  CHECK(found[1].value == 50.0);
}

TEST_CASE("a star key expands over an object, and link names may hold slashes") {
  const auto found = expand_metric({"remote/bytes.*", {}, "m"}, variants());
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "remote/bytes.wlan/phone/down");
  CHECK(found[1].name == "remote/bytes.wlan/phone/up");
}

TEST_CASE("a single run's metrics have no label") {
  const RunResults single{{{"", Json{{"bytes", {{"wlan/phone/up", 7.0}}}}}}, false};
  const auto found = expand_metric({"bytes.wlan/phone/up", {}, "m"}, single);
  REQUIRE(found.size() == 1);
  CHECK(found[0].value == 7.0);
  CHECK_THROWS_WITH(expand_metric({"local/bytes.x", {}, "checks[0].metrics[0]"}, single),
                    Contains("checks[0].metrics[0]") && Contains("no compare variants"));
}

TEST_CASE("a sweep's metric is a run and a whole column name") {
  const RunResults sweep{{{"0", Json{{"latency_ms.mean", 1.0}}}, {"1", Json{{"latency_ms.mean", 2.0}}}},
                         true};
  const auto all = expand_metric({"*/latency_ms.mean", {}, "m"}, sweep);
  REQUIRE(all.size() == 2);
  CHECK(all[1].name == "1/latency_ms.mean");
  CHECK(expand_metric({"1/latency_ms.mean", {}, "m"}, sweep)[0].value == 2.0);
  CHECK_THROWS_WITH(expand_metric({"1/latency", {}, "m"}, sweep), Contains("no column 'latency'"));
  CHECK_THROWS_WITH(expand_metric({"7/latency_ms.mean", {}, "m"}, sweep), Contains("no run '7'"));
}

TEST_CASE("unknown labels, keys and objects are errors at the metric's key path") {
  const auto r = variants();
  CHECK_THROWS_WITH(
      expand_metric({"edge/latency_ms.mean", {}, "checks[0].metrics[2]"}, r),
      Contains("checks[0].metrics[2]") && Contains("no compare variant 'edge'") && Contains("local, remote"));
  CHECK_THROWS_WITH(expand_metric({"local/latency_ms.meen", {}, "m"}, r),
                    Contains("no 'latency_ms.meen'") && Contains("mean, p95"));
  CHECK_THROWS_WITH(expand_metric({"local/latency_ms", {}, "m"}, r), Contains("is an object"));
  CHECK_THROWS_WITH(expand_metric({"latency_ms.mean", {}, "m"}, r), Contains("name a compare variant first"));
}

TEST_CASE("results within the relative tolerance pass and beyond it regress") {
  // Baseline 100 ms, tolerance 1e-9 relative: 1e-7 ms allowed. 100.00000001 passes, 101 does not.
  const auto check = result_check({"local/latency_ms.mean"});
  auto r = variants();
  r.runs[0].second["latency_ms"]["mean"] = 100.00000001;
  const auto base = baseline_of({{"local/latency_ms.mean", 100.0}});
  CHECK(compare_results(check, r, &base).rows[0].verdict == Verdict::Ok);
  r.runs[0].second["latency_ms"]["mean"] = 101.0;
  const auto row = compare_results(check, r, &base).rows[0];
  CHECK(row.verdict == Verdict::Regression);
  CHECK(row.change == "+1.00%");
  CHECK(row.detail == "off by 1, tolerance 1e-07");
}

TEST_CASE("an absolute tolerance covers values near zero") {
  const auto check = result_check({"local/bytes.wlan"}, Tolerance{0.0, 0.5});
  const auto base = baseline_of({{"local/bytes.wlan", 0.4}});
  CHECK(compare_results(check, variants(), &base).rows[0].verdict == Verdict::Ok);
}

TEST_CASE("a metric without a baseline value is new, and every value found is kept for --update") {
  const auto cmp = compare_results(result_check({"*/latency_ms.p95"}), variants(), nullptr);
  REQUIRE(cmp.rows.size() == 2);
  CHECK(cmp.rows[0].verdict == Verdict::New);
  CHECK(cmp.values == std::vector<std::pair<std::string, Json>>{{"local/latency_ms.p95", 120.0},
                                                                {"remote/latency_ms.p95", 60.0}});
}

TEST_CASE("a baseline metric gone from the results is a regression") {
  const auto base = baseline_of({{"local/latency_ms.p99", 1.0}, {"edge/latency_ms.mean", 3.0}});
  const auto cmp =
      compare_results(result_check({"local/latency_ms.p99", "*/latency_ms.mean"}), variants(), &base);
  REQUIRE(cmp.rows.size() == 4);
  CHECK(cmp.rows[0].now == "missing");
  CHECK(cmp.rows[0].verdict == Verdict::Regression);
  CHECK(cmp.rows[3].metric == "edge/latency_ms.mean");  // the variant went away
  CHECK(cmp.rows[3].verdict == Verdict::Regression);
}

TEST_CASE("a non-number metric must be equal") {
  RunResults r{{{"", Json{{"partitioner", "plan"}}}}, false};
  const auto base = baseline_of({{"partitioner", "local"}});
  const auto row = compare_results(result_check({"partitioner"}), r, &base).rows[0];
  CHECK(row.verdict == Verdict::Regression);
  CHECK(row.now == "plan");
}

TEST_CASE("a baseline string where the results hold a number is bad input naming the file and key") {
  // A hand-edited baseline ("100" quoted): not a moved result, so not a regression (exit 1) but an
  // InputError (exit 2) naming the baseline file and the metric's key.
  auto b = baseline_of({{"local/latency_ms.mean", "100"}});
  b.path = "baselines/t.json";
  try {
    (void)compare_results(result_check({"local/latency_ms.mean"}), variants(), &b);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "baselines/t.json");
    CHECK_THAT(std::string(e.what()),
               Contains("baselines/t.json: metrics.local/latency_ms.mean: expected a number (the results "
                        "hold 100), got the string '100'"));
  }
}

TEST_CASE("metric names match patterns segment by segment") {
  CHECK(metric_matches("*/latency_ms.mean", "a/latency_ms.mean", true, false));
  CHECK(metric_matches("a/bytes.*", "a/bytes.wlan/phone/up", true, false));
  CHECK_FALSE(metric_matches("a/bytes.*", "b/bytes.wlan", true, false));
  CHECK_FALSE(metric_matches("*/latency_ms.mean", "a/latency_ms.p95", true, false));
  CHECK(metric_matches("*/latency_ms.mean", "3/latency_ms.mean", true, true));
}
