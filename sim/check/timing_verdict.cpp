#include "sim/check/timing_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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
  const bool out = lower ? med > bound : med < bound;
  if (t.exact) {  // a count: the same on every run, so its value is the verdict
    row.verdict = out ? Verdict::Regression : Verdict::Ok;
    row.detail = "exact: judged by its value";
    return row;
  }
  const double p = lower ? sign_test_above(now, bound) : sign_test_below(now, bound);
  std::size_t beyond = 0;
  for (const double s : now) beyond += lower ? s > bound : s < bound;
  // Beyond the bound by the median but not by the sign test: this run cannot tell.
  row.verdict = !out ? Verdict::Ok : p < t.alpha ? Verdict::Regression : Verdict::Noisy;
  row.detail =
      fmt::format("sign test p={:.2g}, {}/{} {} the bound", p, beyond, now.size(), lower ? "above" : "below");
  if (row.verdict == Verdict::Noisy) row.detail += ": median beyond it, not significantly; not judged";
  return row;
}

// The q-quantile of sorted values, interpolated between the order statistics around (n - 1) q.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

double relative_iqr(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("relative_iqr of no samples");
  std::sort(samples.begin(), samples.end());
  return (quantile(samples, 0.75) - quantile(samples, 0.25)) / std::fabs(quantile(samples, 0.5));
}

CheckRow judge_timing(const std::string& check, const std::string& metric, const std::vector<double>& now,
                      const std::vector<double>* baseline, const TimingCheck& t) {
  CheckRow row{check, metric, "-", ratio_text(median(now)), "-", Verdict::New, ""};
  if (t.bound) return against_bound(row, now, t);
  const bool have_base = baseline != nullptr && !baseline->empty();
  const double base = have_base ? median(*baseline) : 0.0, med = median(now);
  if (have_base) {
    row.baseline = ratio_text(base);
    row.change = change_percent(base, med);
  }
  if (const double spread = relative_iqr(now); spread > t.threshold) {
    row.verdict = Verdict::Noisy;
    row.detail = fmt::format("spread (IQR) {:.0f}% of the median > threshold {:g}%: not judged", spread * 100,
                             t.threshold * 100);
    return row;
  }
  if (!have_base) {
    row.detail = "no baseline samples";
    return row;
  }
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
