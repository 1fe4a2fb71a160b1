// Summaries of results CSVs over seeds (sim/scenario/summarize.hpp), against means, standard
// deviations and Student-t intervals computed by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/scenario/summarize.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

const std::string kCsv =
    "run,variant,seed,latency_ms.mean,completed,point_hash\n"
    "0,local,1,1,10,aa\n"
    "1,remote,1,10,9,bb\n"
    "2,local,2,2,10,cc\n"
    "3,remote,2,10,8,dd\n"
    "4,local,3,3,10,ee\n"
    "5,remote,3,,7,ff\n"
    "6,local,4,4,10,gg\n";

SummaryOptions opts(std::vector<std::string> by, std::vector<std::string> metrics = {}, double ci = 95.0) {
  SummaryOptions o;
  o.by = std::move(by);
  o.metrics = std::move(metrics);
  o.ci_percent = ci;
  return o;
}

}  // namespace

TEST_CASE("summarize: mean, sd and the 95% t interval of 1 2 3 4 by hand") {
  const Summary s = summarize_results(kCsv, "r.csv", opts({"variant"}, {"latency_ms.mean"}));
  REQUIRE(s.rows.size() == 2);
  const SummaryRow& local = s.rows[0];
  CHECK(local.group == std::vector<std::string>{"local"});
  CHECK(local.n == 4);
  CHECK(local.mean == 2.5);
  // sd = sqrt(((1.5^2 + 0.5^2) x 2) / 3) = sqrt(5 / 3); t(0.975, 3) = 3.18244631; half = t sd / 2.
  CHECK(local.sd == Approx(std::sqrt(5.0 / 3.0)).epsilon(1e-12));
  const double half = 3.18244631 * std::sqrt(5.0 / 3.0) / 2.0;
  CHECK(local.ci_low == Approx(2.5 - half).epsilon(1e-8));
  CHECK(local.ci_high == Approx(2.5 + half).epsilon(1e-8));
}

TEST_CASE("summarize: empty cells are left out, and one value has no sd or interval") {
  const Summary s = summarize_results(kCsv, "r.csv", opts({"variant", "seed"}, {"latency_ms.mean"}));
  REQUIRE(s.rows.size() == 7);
  CHECK(s.rows[1].group == std::vector<std::string>{"remote", "1"});
  CHECK(s.rows[1].mean == 10.0);
  CHECK(std::isnan(s.rows[1].sd));
  CHECK(std::isnan(s.rows[1].ci_low));
  CHECK(s.rows[5].group == std::vector<std::string>{"remote", "3"});
  CHECK(s.rows[5].n == 0);
  CHECK(std::isnan(s.rows[5].mean));
}

TEST_CASE("summarize: a 90% interval is narrower, by t(0.95, df) over t(0.975, df)") {
  const auto at = [](double ci) {
    return summarize_results(kCsv, "r.csv", opts({"variant"}, {"latency_ms.mean"}, ci)).rows[0];
  };
  // t(0.95, 3) = 2.35336343.
  CHECK(at(90).ci_high - 2.5 == Approx(2.35336343 * std::sqrt(5.0 / 3.0) / 2.0).epsilon(1e-8));
  CHECK(at(90).ci_high < at(95).ci_high);
}

TEST_CASE("summarize: by default every numeric column but run, seed, point_hash and --by, groups in order") {
  const Summary s = summarize_results(kCsv, "r.csv", opts({"variant"}));
  REQUIRE(s.rows.size() == 4);
  CHECK(s.rows[0].metric == "latency_ms.mean");
  CHECK(s.rows[1].metric == "completed");
  CHECK(s.rows[2].group == std::vector<std::string>{"remote"});
  CHECK(s.rows[3].mean == 8.0);  // completed of remote: 9, 8, 7
  CHECK(s.rows[3].n == 3);
}

TEST_CASE("summarize: without --by every row is one group") {
  const Summary s = summarize_results(kCsv, "r.csv", opts({}, {"completed"}));
  REQUIRE(s.rows.size() == 1);
  CHECK(s.rows[0].group.empty());
  CHECK(s.rows[0].n == 7);
  CHECK(s.rows[0].mean == Approx(64.0 / 7.0).epsilon(1e-12));
}

TEST_CASE("summarize: a column that does not exist, a level outside (0, 100) and a metric also in --by") {
  CHECK_THROWS_WITH(summarize_results(kCsv, "r.csv", opts({"model"})),
                    Contains("r.csv: --by: no column 'model'; the columns are run, variant, seed"));
  CHECK_THROWS_WITH(summarize_results(kCsv, "r.csv", opts({}, {"energy"})),
                    Contains("--metrics: no column 'energy'"));
  CHECK_THROWS_WITH(summarize_results(kCsv, "r.csv", opts({}, {}, 100)),
                    Contains("--ci: expected a level in (0, 100), got 100"));
  CHECK_THROWS_WITH(summarize_results(kCsv, "r.csv", opts({}, {}, -5)), Contains("--ci"));
  CHECK_THROWS_WITH(summarize_results(kCsv, "r.csv", opts({"variant"}, {"variant"})),
                    Contains("'variant' is also a --by column"));
}

TEST_CASE("summarize: a named metric's cell that is not a number names its line and column") {
  CHECK_THROWS_WITH(
      summarize_results(kCsv, "r.csv", opts({}, {"point_hash"})),
      Contains("r.csv: line 2: column 'point_hash': expected a number (a --metrics column), got 'aa'"));
}

TEST_CASE("summarize: the CSV has the --by columns, the statistics and empty cells for NaN") {
  const Summary s = summarize_results(kCsv, "r.csv", opts({"variant", "seed"}, {"completed"}));
  const std::string csv = summary_csv(s);
  CHECK(csv.starts_with("variant,seed,metric,n,mean,sd,ci95_low,ci95_high\nlocal,1,completed,1,10,,,\n"));
}
