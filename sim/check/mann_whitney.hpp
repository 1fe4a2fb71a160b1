#pragma once
/// The one-sided Mann-Whitney U test (Wilcoxon rank-sum), as `coinfer check` uses it to decide
/// whether a timing ratio moved: are the samples `x` stochastically greater than `y`?
///
///     const auto t = mann_whitney_greater(now_ratios, baseline_ratios);
///     if (t.p < 0.05) ...   // now is significantly larger (slower) than the baseline
///
/// U counts the pairs (x_i, y_j) with x_i > y_j, a tie counting 1/2; p = P(U >= U_observed) when
/// x and y come from one distribution. Without ties and with n_x + n_y <= kExactLimit the
/// distribution of U is counted exactly; otherwise p comes from the normal approximation with the
/// tie correction of the variance and a continuity correction of 1/2 (the same p-values as
/// scipy.stats.mannwhitneyu(x, y, alternative="greater", method="exact" / "asymptotic")).
#include <cstddef>
#include <vector>

namespace coinfer::check {

struct RankTest {
  double u = 0.0;      ///< U of x: pairs with x_i > y_j, plus 1/2 per tie
  double p = 1.0;      ///< one-sided p-value of "x is greater than y"
  bool exact = false;  ///< p from the exact distribution (else the normal approximation)
};

/// Samples up to this many in all, without ties, get the exact distribution.
inline constexpr std::size_t kExactLimit = 40;

/// Throws `std::invalid_argument` when x or y is empty or holds a NaN.
RankTest mann_whitney_greater(const std::vector<double>& x, const std::vector<double>& y);

/// Exact P(U >= u) for samples of sizes m (x) and n (y) without ties: the number of orderings of
/// m x's among n y's with at least u (x, y) inversions over C(m + n, m).
double exact_u_upper_tail(std::size_t m, std::size_t n, double u);

/// The median (mean of the middle two for an even count); throws `std::invalid_argument` when empty.
double median(std::vector<double> values);

}  // namespace coinfer::check
