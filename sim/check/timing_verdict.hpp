#pragma once
/// The verdict of a timing check: a regression needs both a practically significant move of the
/// median (beyond the threshold, default 10%, as asv's `continuous -f 1.1`) and a statistically
/// significant one (one-sided Mann-Whitney U test against the baseline's samples, or a sign test
/// against a stated bound, p < alpha), so that a noisy machine does not raise false alarms. A
/// run whose own samples spread wider than the threshold cannot resolve a move of that size: it is
/// `noisy`, neither ok nor a regression.
///
///     const CheckRow row = judge_timing("labels-vs-ilp", "a/b", now, &baseline_samples, timing);
#include <string>
#include <vector>

#include "sim/check/check_report.hpp"
#include "sim/check/suite.hpp"

namespace coinfer::check {

/// A bound (`max_ratio`, `min_ratio`) is a target that does not depend on the machine: the
/// samples are judged against it alone (`baseline` is ignored): regression when the median is
/// beyond it and a sign test says the samples are (p < alpha), noisy when the median is beyond it
/// but the sign test does not say so, else ok. An `exact` check's ratios are counts: regression
/// when the median is beyond the bound, else ok.
///
/// Otherwise, when the interquartile range of `now` exceeds `threshold` times its median, the row
/// is `noisy` (whatever the baseline); else with `baseline` null it is `new`. With `better:
/// lower`, worse means larger: regression when median(now) > median(base) * (1 + threshold) and
/// U(now > base) has p < alpha; improved when median(now) * (1 + threshold) < median(base) and
/// U(now < base) has p < alpha; otherwise ok. `better: higher` mirrors it.
CheckRow judge_timing(const std::string& check, const std::string& metric, const std::vector<double>& now,
                      const std::vector<double>* baseline, const TimingCheck& timing);

/// The interquartile range of `samples` over their median (quartiles interpolated linearly between
/// order statistics, numpy's default): 0.04 for 0.96, 0.97, ..., 1.04. Throws
/// `std::invalid_argument` when empty.
double relative_iqr(std::vector<double> samples);

}  // namespace coinfer::check
