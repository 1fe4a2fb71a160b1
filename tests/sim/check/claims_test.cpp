// The claims ledger: parsing names the file and the key path of every bad entry; evaluation
// against hand-computed values on small report and sweep documents.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/check/claims.hpp"
#include "sim/check/result_runner.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

namespace {

Ledger parse(const std::string& yaml) {
  const std::string file = "/ledgers/claims.yaml";
  return parse_ledger(yaml_to_json(yaml, file), file);
}

// One claim on a scenario: `ours` and the judging keys given as YAML flow maps.
Claim scenario_claim(const std::string& ours, const std::string& judge) {
  return parse("system: S\nclaims:\n  - {id: c, claim: x, source: y, scenario: s.yaml, ours: " + ours + ", " +
               judge + "}\n")
      .claims.at(0);
}

Claim sweep_claim(const std::string& ours, const std::string& judge) {
  return parse("system: S\nclaims:\n  - {id: c, claim: x, source: y, sweep: sw.yaml, ours: " + ours + ", " +
               judge + "}\n")
      .claims.at(0);
}

// A scenario's runs holding only the report pseudo-run with rows name -> ours.
RunResults report(const std::vector<std::pair<std::string, double>>& rows) {
  Json doc{{"rows", Json::array()}};
  for (const auto& [name, v] : rows) doc["rows"].push_back({{"name", name}, {"ours", v}});
  RunResults r;
  r.runs.emplace_back(kReportRun, doc);
  return r;
}

RunResults sweep(const std::vector<Json>& rows) {
  RunResults r;
  r.flat = true;
  for (std::size_t i = 0; i < rows.size(); ++i) r.runs.emplace_back(std::to_string(i), rows[i]);
  return r;
}

// Fig.-11-like rows: accuracy of two variants at three rates.
RunResults two_variants() {
  return sweep({{{"rate", 1}, {"variant", "a"}, {"acc", 0.50}},
                {{"rate", 1}, {"variant", "b"}, {"acc", 0.40}},
                {{"rate", 2}, {"variant", "a"}, {"acc", 0.60}},
                {{"rate", 2}, {"variant", "b"}, {"acc", 0.75}},
                {{"rate", 3}, {"variant", "a"}, {"acc", 0.90}},
                {{"rate", 3}, {"variant", "b"}, {"acc", 0.80}}});
}

}  // namespace

TEST_CASE("a ledger resolves its files against its own folder and takes a 15% tolerance by default") {
  const auto l = parse(
      "system: MoDNN\nclaims:\n  - {id: t1, claim: x, source: '[MoDNN Table 1]', scenario: ../s/t.yaml, "
      "ours: {row: r}, "
      "paper: 10}\n");
  CHECK(l.system == "MoDNN");
  REQUIRE(l.claims.size() == 1);
  CHECK(l.claims[0].files == std::vector<std::string>{"/s/t.yaml"});
  CHECK_FALSE(l.claims[0].sweep);
  CHECK(l.claims[0].holds.tolerance_pct == 15.0);
  CHECK(paper_text(l.claims[0].holds) == "10 +-15%");
  CHECK(l.claims[0].cause.empty());
}

TEST_CASE("a claim keeps the cause its ledger names for it") {
  const auto l = parse(
      "system: S\nclaims:\n  - {id: c, claim: x, source: y, cause: 'the calibration stage', "
      "scenario: s.yaml, ours: {row: r}, paper: 1}\n");
  CHECK(l.claims[0].cause == "the calibration stage");
}

TEST_CASE("a claim without a paper number or a bound is one error naming the file and the claim") {
  CHECK_THROWS_WITH(
      parse("system: S\nclaims:\n  - {id: c, claim: x, source: y, scenario: s.yaml, ours: {row: r}}\n"),
      Contains("/ledgers/claims.yaml: claims[0]: expected paper (a number) or holds (a bound)"));
}

TEST_CASE("an unknown key in a claim's ours is refused with its key path") {
  CHECK_THROWS_WITH(scenario_claim("{row: r, colum: x}", "paper: 1"), Contains("claims[0].ours"));
  CHECK_THROWS_WITH(scenario_claim("{row: r, colum: x}", "paper: 1"), Contains("colum"));
}

TEST_CASE("two claims with one id are refused") {
  CHECK_THROWS_WITH(parse("system: S\nclaims:\n"
                          "  - {id: c, claim: x, source: y, scenario: s.yaml, ours: {row: r}, paper: 1}\n"
                          "  - {id: c, claim: x, source: y, scenario: s.yaml, ours: {row: r}, paper: 1}\n"),
                    Contains("claims[1].id: 'c' is already a claim's id"));
}

TEST_CASE("report rows matched by a glob are reduced over every scenario") {
  const auto c = scenario_claim("{row: '* gain %', reduce: max}", "paper: 60");
  const auto r = evaluate_claim(
      c, {report({{"3g gain %", 10}, {"4g gain %", 55}, {"other", 99}}), report({{"wifi gain %", 52}})},
      "l.yaml");
  CHECK(r.ours == 55);
  CHECK(r.count == 3);
  CHECK(r.held);  // |55 - 60| = 5 <= 15% of 60 = 9
}

TEST_CASE("a paper number is held within its tolerance and fails outside it") {
  const auto tight = scenario_claim("{row: x}", "paper: 60, tolerance_pct: 5");
  CHECK_FALSE(evaluate_claim(tight, {report({{"x", 55}})}, "l.yaml").held);  // 5 > 3
  CHECK(evaluate_claim(tight, {report({{"x", 57}})}, "l.yaml").held);        // 3 <= 3
}

TEST_CASE("several matching rows without a reduction are an error, not the first one") {
  const auto c = scenario_claim("{row: '*'}", "paper: 1");
  CHECK_THROWS_WITH(evaluate_claim(c, {report({{"a", 1}, {"b", 2}})}, "l.yaml"),
                    Contains("2 values matched"));
}

TEST_CASE("a row glob that matches nothing lists the rows there are") {
  const auto c = scenario_claim("{row: nope}", "paper: 1");
  CHECK_THROWS_WITH(evaluate_claim(c, {report({{"a", 1}, {"b", 2}})}, "l.yaml"),
                    Contains("l.yaml: claims[0].ours.row: no report row matches 'nope'; rows: a | b"));
}

TEST_CASE("a subject's gain over the best other row is taken per group, then reduced") {
  const auto c =
      sweep_claim("{metric: acc, better: higher, group_by: [rate], subject: {variant: a}, reduce: min}",
                  "holds: {at_least: 0}");
  const auto r = evaluate_claim(c, {two_variants()}, "l.yaml");
  // rate 1: 100 (0.5 / 0.4 - 1) = 25; rate 2: 100 (0.6 / 0.75 - 1) = -20; rate 3: 12.5
  CHECK(r.ours == Approx(-20.0));
  CHECK(r.count == 3);
  CHECK_FALSE(r.held);
}

TEST_CASE("a difference over a range of rates, lower better, against named rows") {
  const auto c = sweep_claim(
      "{metric: acc, better: lower, as: difference, where: {rate: [1, 2]}, group_by: [rate], subject: "
      "{variant: a}, "
      "against: {variant: [b]}, reduce: max}",
      "holds: {at_most: 0.2}");
  const auto r = evaluate_claim(c, {two_variants()}, "l.yaml");
  // lower is better: best - subject; rate 1: 0.4 - 0.5 = -0.1; rate 2: 0.75 - 0.6 = 0.15
  CHECK(r.ours == Approx(0.15));
  CHECK(r.count == 2);
  CHECK(r.held);
}

TEST_CASE("a sweep column without a subject is reduced over the rows that pass where") {
  const auto c = sweep_claim("{metric: acc, where: {variant: b}, reduce: mean}", "paper: 0.65");
  const auto r = evaluate_claim(c, {two_variants()}, "l.yaml");
  CHECK(r.ours == Approx((0.40 + 0.75 + 0.80) / 3));
  CHECK(r.held);
}

TEST_CASE("a filter on a column the sweep lacks is one error naming it") {
  const auto c = sweep_claim("{metric: acc, where: {fps: 5}, reduce: max}", "paper: 1");
  CHECK_THROWS_WITH(evaluate_claim(c, {two_variants()}, "l.yaml"), Contains("the sweep has no column 'fps'"));
}

TEST_CASE("a subject matched by two rows of one group asks for more group columns") {
  const auto c = sweep_claim("{metric: acc, subject: {variant: a}, reduce: min}", "holds: {at_least: 0}");
  CHECK_THROWS_WITH(evaluate_claim(c, {two_variants()}, "l.yaml"), Contains("several rows of one group"));
}

TEST_CASE("as: ratio is the subject over the best other row, a speedup when the subject is slower") {
  const auto c = sweep_claim(
      "{metric: acc, as: ratio, group_by: [rate], subject: {variant: a}, against: {variant: b}, reduce: max}",
      "paper: 1.25, tolerance_pct: 1");
  const auto r = evaluate_claim(c, {two_variants()}, "l.yaml");
  // rate 1: 0.5 / 0.4 = 1.25; rate 2: 0.6 / 0.75 = 0.8; rate 3: 0.9 / 0.8 = 1.125
  CHECK(r.ours == Approx(1.25));
  CHECK(r.count == 3);
  CHECK(r.held);
}

TEST_CASE("as: remainder_pct is 100 (1 - metric / of) per row, then reduced") {
  // Two cloud-only runs: compute 1 of 100 ms and 19 of 100 ms, so 99% and 81% communicating.
  const auto runs = sweep(
      {{{"k", 1}, {"compute", 1.0}, {"latency", 100.0}}, {{"k", 19}, {"compute", 19.0}, {"latency", 100.0}}});
  const auto c = sweep_claim("{metric: compute, of: latency, as: remainder_pct, reduce: min}", "paper: 81");
  const auto r = evaluate_claim(c, {runs}, "l.yaml");
  CHECK(r.ours == Approx(81.0));
  CHECK(r.count == 2);
  const auto share = sweep_claim("{metric: compute, of: latency, as: share_pct, where: {k: 1}}", "paper: 1");
  CHECK(evaluate_claim(share, {runs}, "l.yaml").ours == Approx(1.0));
}

TEST_CASE("a share without its 'of' column, or with a subject, is one error naming the key path") {
  CHECK_THROWS_WITH(sweep_claim("{metric: acc, as: share_pct}", "paper: 1"), Contains("claims[0].ours.of"));
  CHECK_THROWS_WITH(sweep_claim("{metric: acc, of: b, as: share_pct, subject: {variant: a}}", "paper: 1"),
                    Contains("claims[0].ours.as"));
  CHECK_THROWS_WITH(sweep_claim("{metric: acc, of: b}", "paper: 1"), Contains("claims[0].ours.of"));
  const auto c = sweep_claim("{metric: acc, of: nope, as: share_pct, reduce: max}", "paper: 1");
  CHECK_THROWS_WITH(evaluate_claim(c, {two_variants()}, "l.yaml"), Contains("no column 'nope'"));
}

TEST_CASE("per repeats a sweep claim once per value, each keeping only that value's rows") {
  const auto l = parse(
      "system: S\nclaims:\n  - {id: gain, claim: a beats b, source: y, sweep: sw.yaml, paper: 0.1,\n"
      "     per: {column: rate, values: [1, 3], label: 'rate {} Mbps'},\n"
      "     ours: {metric: acc, as: difference, better: higher, group_by: [rate], subject: {variant: a}}}\n");
  REQUIRE(l.claims.size() == 2);
  CHECK(l.claims[0].id == "gain-1");
  CHECK(l.claims[1].id == "gain-3");
  CHECK(l.claims[1].claim == "rate 3 Mbps: a beats b");
  // rate 1: 0.50 - 0.40; rate 3: 0.90 - 0.80.
  CHECK(evaluate_claim(l.claims[0], {two_variants()}, "l.yaml").ours == Approx(0.10));
  CHECK(evaluate_claim(l.claims[1], {two_variants()}, "l.yaml").count == 1);
}

TEST_CASE("per's {value, name} keeps the value's rows and names the claim by the name") {
  const auto l = parse(
      "system: S\nclaims:\n  - {id: gain, claim: a beats b, source: y, sweep: sw.yaml, paper: 0.1,\n"
      "     per: {column: rate, values: [{value: 3, name: fast}], label: 'the {} link'},\n"
      "     ours: {metric: acc, as: difference, better: higher, group_by: [rate], subject: {variant: a}}}\n");
  REQUIRE(l.claims.size() == 1);
  CHECK(l.claims[0].id == "gain-fast");
  CHECK(l.claims[0].claim == "the fast link: a beats b");
  CHECK(evaluate_claim(l.claims[0], {two_variants()}, "l.yaml").ours == Approx(0.10));  // 0.90 - 0.80
}

TEST_CASE("per on a scenario claim, or a label without {}, is one error naming the key path") {
  CHECK_THROWS_WITH(scenario_claim("{row: r}", "paper: 1, per: {column: c, values: [1]}"),
                    Contains("claims[0].per"));
  CHECK_THROWS_WITH(sweep_claim("{metric: acc}", "paper: 1, per: {column: c, values: [1], label: no slot}"),
                    Contains("claims[0].per.label"));
  CHECK_THROWS_WITH(sweep_claim("{metric: acc}", "paper: 1, per: {column: c, values: ['a b']}"),
                    Contains("claims[0].per.values[0]"));
  CHECK_THROWS_WITH(sweep_claim("{metric: acc}", "paper: 1, per: {column: c, values: [{value: a/b}]}"),
                    Contains("claims[0].per.values[0]") && Contains("name"));
  CHECK_THROWS_WITH(
      sweep_claim("{metric: acc}", "paper: 1, per: {column: c, values: [{value: [1], name: n}]}"),
      Contains("claims[0].per.values[0].value"));
}
