// Timing verdicts: a regression needs the median beyond the threshold AND a significant test.
#include <catch2/catch.hpp>

#include "sim/check/timing_verdict.hpp"

using namespace coinfer::check;
using Catch::Matchers::Contains;

namespace {

// Nine ratios around 1.0 (spread +-4%), as a quiet machine gives them.
const std::vector<double> kBase{0.96, 0.97, 0.98, 0.99, 1.00, 1.01, 1.02, 1.03, 1.04};

std::vector<double> scaled(const std::vector<double>& v, double f) {
  std::vector<double> out;
  for (const double x : v) out.push_back(x * f);
  return out;
}

TimingCheck timing(Better better = Better::Lower) {
  TimingCheck t;
  t.better = better;
  return t;
}

}  // namespace

TEST_CASE("twenty percent slower on every repetition is a regression") {
  // now = 1.2 x base: all 81 pairs favour now, exact p = 1/48620; median 1.2 > 1.0 x 1.1.
  const auto row = judge_timing("c", "a/b", scaled(kBase, 1.2), &kBase, timing());
  CHECK(row.verdict == Verdict::Regression);
  CHECK(row.change == "+20.00%");
  CHECK_THAT(row.detail, Contains("p=2.1e-05") && Contains("exact, 9 vs 9"));
}

TEST_CASE("samples spread wider than the threshold are noisy, whatever the baseline says") {
  // Quartiles of the nine (numpy's linear interpolation): q1 = 0.7 (the 3rd), q3 = 1.3 (the 7th),
  // median 1.2: IQR / median = 0.6 / 1.2 = 50% > 10%. The median is 20% above the baseline's, which
  // this run cannot tell from its own spread, so neither ok nor REGRESSION (the U test would say ok
  // by luck: four samples below every baseline sample, five above, U = 45 of 81, exact p = 0.365).
  const std::vector<double> spread{0.5, 0.6, 0.7, 0.9, 1.2, 1.25, 1.3, 1.35, 1.4};
  const auto row = judge_timing("c", "a/b", spread, &kBase, timing());
  CHECK(row.verdict == Verdict::Noisy);
  CHECK(row.change == "+20.00%");
  CHECK_THAT(row.detail, Contains("spread (IQR) 50% of the median > threshold 10%: not judged"));
  // The same samples twenty times slower than the baseline: still noisy, never a regression.
  CHECK(judge_timing("c", "a/b", scaled(spread, 20), &kBase, timing()).verdict == Verdict::Noisy);
  // No baseline: noisy rather than new (nothing worth recording).
  CHECK(judge_timing("c", "a/b", spread, nullptr, timing()).verdict == Verdict::Noisy);
}

TEST_CASE("the relative interquartile range interpolates quartiles between samples") {
  // kBase: q1 at position 8 x 0.25 = 2 -> 0.98, q3 at 6 -> 1.02, median 1.00: 0.04.
  CHECK(relative_iqr(kBase) == Approx(0.04));
  // {1, 2, 3, 4}: q1 at 0.75 -> 1.75, q3 at 2.25 -> 3.25, median 2.5: 1.5 / 2.5 = 0.6.
  CHECK(relative_iqr({4, 1, 3, 2}) == Approx(0.6));
  CHECK(relative_iqr({7}) == 0.0);
  CHECK_THROWS_AS(relative_iqr({}), std::invalid_argument);
}

TEST_CASE("a significant shift within the threshold is not a regression") {
  // Every sample 5% slower: significant (U = 71, exact p = 0.0028), but 5% < 10%.
  const auto row = judge_timing("c", "a/b", scaled(kBase, 1.05), &kBase, timing());
  CHECK(row.verdict == Verdict::Ok);
  CHECK_THAT(row.detail, Contains("within 10%"));
}

TEST_CASE("identical timings are ok") {
  CHECK(judge_timing("c", "a/b", kBase, &kBase, timing()).verdict == Verdict::Ok);
}

TEST_CASE("twenty percent faster is an improvement") {
  CHECK(judge_timing("c", "a/b", scaled(kBase, 0.8), &kBase, timing()).verdict == Verdict::Improved);
}

TEST_CASE("with better higher a lower ratio is the regression") {
  CHECK(judge_timing("c", "r", scaled(kBase, 0.8), &kBase, timing(Better::Higher)).verdict ==
        Verdict::Regression);
  CHECK(judge_timing("c", "r", scaled(kBase, 1.2), &kBase, timing(Better::Higher)).verdict ==
        Verdict::Improved);
}

TEST_CASE("without baseline samples a timing is new") {
  const auto row = judge_timing("c", "a/b", kBase, nullptr, timing());
  CHECK(row.verdict == Verdict::New);
  CHECK(row.now == "1");
}

TEST_CASE("a bound fails when the median is beyond it and the sign test agrees") {
  auto t = timing();
  t.bound = 1.43;
  // All nine above 1.43: p = 1/512.
  const auto row = judge_timing("c", "a/b", scaled(kBase, 1.6), nullptr, t);
  CHECK(row.verdict == Verdict::Regression);
  CHECK(row.baseline == "<= 1.43");
  CHECK_THAT(row.detail, Contains("9/9 above"));
  // Six of nine above (median above): p = (84 + 36 + 9 + 1) / 512 = 0.25, not significant: the
  // run cannot tell, so noisy rather than ok or REGRESSION.
  const std::vector<double> mixed{1.0, 1.1, 1.2, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5};
  const auto unsure = judge_timing("c", "a/b", mixed, nullptr, t);
  CHECK(unsure.verdict == Verdict::Noisy);
  CHECK_THAT(unsure.detail, Contains("6/9 above the bound: median beyond it, not significantly"));
  // Below the bound: ok.
  CHECK(judge_timing("c", "a/b", kBase, nullptr, t).verdict == Verdict::Ok);
}

TEST_CASE("a bound is judged alone: no baseline and no spread enter its verdict") {
  auto t = timing();
  t.bound = 2.0;
  // Spread 50% (> the 10% threshold) and a baseline half as large: the samples (all below 1.4)
  // are within the bound, so ok.
  const std::vector<double> spread{0.5, 0.6, 0.7, 0.9, 1.2, 1.25, 1.3, 1.35, 1.4};
  const auto half = scaled(kBase, 0.5);
  const auto row = judge_timing("c", "a/b", spread, &half, t);
  CHECK(row.verdict == Verdict::Ok);
  CHECK(row.baseline == "<= 2");
}

TEST_CASE("a minimum bound with better higher") {
  auto t = timing(Better::Higher);
  t.bound = 0.7;
  CHECK(judge_timing("c", "r", scaled(kBase, 0.5), nullptr, t).verdict == Verdict::Regression);
  CHECK(judge_timing("c", "r", kBase, nullptr, t).verdict == Verdict::Ok);
}

TEST_CASE("an exact check's single count beyond its bound is a regression, without a test") {
  TimingCheck t = timing();
  t.bound = 1.10;
  t.exact = true;
  t.repetitions = 1;
  // One sample could never pass a sign test (p = 0.5): an inexact check would call it noisy.
  const auto beyond = judge_timing("c", "flat", {1.12}, nullptr, t);
  CHECK(beyond.verdict == Verdict::Regression);
  CHECK(beyond.detail == "exact: judged by its value");
  CHECK(judge_timing("c", "flat", {1.057}, nullptr, t).verdict == Verdict::Ok);
  t.exact = false;
  CHECK(judge_timing("c", "flat", {1.12}, nullptr, t).verdict == Verdict::Noisy);
}
