#pragma once
/// The one-sided sign test against a fixed bound, as `coinfer check` uses it for a timing check
/// that states `max_ratio` / `min_ratio` instead of a baseline: do the samples tend to lie above
/// the bound? It assumes nothing about their distribution (the ratio of two wall times is skewed).
///
///     const double p = sign_test_above(ratios, 1.43);   // small p: the ratios exceed 1.43
#include <vector>

namespace coinfer::check {

/// k of the n samples differing from `bound` lie above it (samples equal to it are dropped);
/// p = P(Binomial(n, 1/2) >= k). No sample differing from the bound gives p = 1.
double sign_test_above(const std::vector<double>& samples, double bound);
/// The mirror image: p of "the samples tend to lie below `bound`".
double sign_test_below(const std::vector<double>& samples, double bound);

}  // namespace coinfer::check
