#include "sim/check/timing_verdict.hpp"

#include <fmt/format.h>

#include "sim/check/mann_whitney.hpp"
#include "sim/check/sign_test.hpp"

namespace coinfer::check {
namespace {

std::string ratio_text(double v) { return fmt::format("{:.4g}", v); }

std::string u_text(const RankTest& t, std::size_t n, std::size_t m) {
  return fmt::format("U test p={:.2g} ({}, {} vs {})", t.p, t.exact ? "exact" : "normal approx.", n, m);
}

CheckRow against_bound(CheckRow row, const std::vector<double>& now, const TimingCheck& t) {
  const double bound = *t.bound;
  const bool lower = t.better == Better::Lower;
  const double med = median(now);
  row.baseline = fmt::format("{} {}", lower ? "<=" : ">=", ratio_text(bound));
  row.change = change_percent(bound, med);
  const double p = lower ? sign_test_above(now, bound) : sign_test_below(now, bound);
  std::size_t beyond = 0;
  for (const double s : now) beyond += lower ? s > bound : s < bound;
  const bool out = lower ? med > bound : med < bound;
  row.verdict = out && p < t.alpha ? Verdict::Regression : Verdict::Ok;
  row.detail =
      fmt::format("sign test p={:.2g}, {}/{} {} the bound", p, beyond, now.size(), lower ? "above" : "below");
  return row;
}

}  // namespace

CheckRow judge_timing(const std::string& check, const std::string& metric, const std::vector<double>& now,
                      const std::vector<double>* baseline, const TimingCheck& t) {
  CheckRow row{check, metric, "-", ratio_text(median(now)), "-", Verdict::New, ""};
  if (t.bound) return against_bound(row, now, t);
  if (baseline == nullptr || baseline->empty()) {
    row.detail = "no baseline samples";
    return row;
  }
  const double base = median(*baseline), med = median(now);
  row.baseline = ratio_text(base);
  row.change = change_percent(base, med);
  const double factor = 1.0 + t.threshold;
  const bool lower = t.better == Better::Lower;
  // "worse" and "better" in the check's direction; the U test is one-sided in each.
  const bool worse_enough = lower ? med > base * factor : med * factor < base;
  const bool better_enough = lower ? med * factor < base : med > base * factor;
  const auto up = mann_whitney_greater(now, *baseline), down = mann_whitney_greater(*baseline, now);
  const RankTest& worse_test = lower ? up : down;
  const RankTest& better_test = lower ? down : up;
  const auto threshold = fmt::format("threshold {:g}%", t.threshold * 100);
  if (worse_enough && worse_test.p < t.alpha) {
    row.verdict = Verdict::Regression;
    row.detail = u_text(worse_test, now.size(), baseline->size()) + ", " + threshold;
  } else if (better_enough && better_test.p < t.alpha) {
    row.verdict = Verdict::Improved;
    row.detail = u_text(better_test, now.size(), baseline->size()) + ", " + threshold;
  } else {
    row.verdict = Verdict::Ok;
    const RankTest& toward = (lower ? med >= base : med <= base) ? worse_test : better_test;
    row.detail = (worse_enough || better_enough)
                     ? u_text(toward, now.size(), baseline->size()) + ": not significant"
                     : fmt::format("within {:g}% ({})", t.threshold * 100,
                                   u_text(toward, now.size(), baseline->size()));
  }
  return row;
}

}  // namespace coinfer::check
