#include "sim/check/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace coinfer::check {
namespace {

void require_samples(const std::vector<double>& v, const char* what) {
  if (v.empty()) throw std::invalid_argument(std::string("mann_whitney: no ") + what + " samples");
  for (const double d : v)
    if (std::isnan(d)) throw std::invalid_argument(std::string("mann_whitney: NaN in ") + what);
}

// Sum over tie groups of t^3 - t (t = size of a group of equal values in the pooled sample).
double tie_term(const std::vector<double>& x, const std::vector<double>& y) {
  std::map<double, double> counts;
  for (const double v : x) counts[v] += 1;
  for (const double v : y) counts[v] += 1;
  double sum = 0.0;
  for (const auto& [value, t] : counts) sum += t * t * t - t;
  return sum;
}

// P(Z >= z) for a standard normal Z.
double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  std::sort(values.begin(), values.end());
  const auto n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Counting orderings: place the pooled values from the largest down. The largest is either an x
// (it beats all n y's: U grows by n) or a y (it beats no x), so with c(m, n, u) orderings of m x's
// and n y's having U = u:  c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u),  c(0, n, 0) =
// c(m, 0, 0) = 1. The table is built row by row over m for every n' <= n.
double exact_u_upper_tail(std::size_t m, std::size_t n, double u) {
  // prev[j][k] = c(i - 1, j, k), cur[j][k] = c(i, j, k) for j <= n, k <= i * j.
  std::vector<std::vector<double>> prev(n + 1, std::vector<double>(1, 1.0));  // c(0, j, 0) = 1
  for (std::size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> cur(n + 1);
    cur[0] = {1.0};  // c(i, 0, 0) = 1
    for (std::size_t j = 1; j <= n; ++j) {
      cur[j].assign(i * j + 1, 0.0);
      for (std::size_t k = 0; k < prev[j].size(); ++k) cur[j][k + j] += prev[j][k];    // largest is an x
      for (std::size_t k = 0; k < cur[j - 1].size(); ++k) cur[j][k] += cur[j - 1][k];  // largest is a y
    }
    prev = std::move(cur);
  }
  const auto& counts = prev[n];
  double total = 0.0, tail = 0.0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u - 1e-9) tail += counts[k];
  }
  return tail / total;
}

RankTest mann_whitney_greater(const std::vector<double>& x, const std::vector<double>& y) {
  require_samples(x, "x");
  require_samples(y, "y");
  RankTest t;
  for (const double a : x)
    for (const double b : y) t.u += a > b ? 1.0 : a == b ? 0.5 : 0.0;
  const double m = static_cast<double>(x.size()), n = static_cast<double>(y.size());
  const double ties = tie_term(x, y);
  const double pooled = m + n;
  if (ties == 0.0 && x.size() + y.size() <= kExactLimit) {
    t.exact = true;
    t.p = exact_u_upper_tail(x.size(), y.size(), t.u);
    return t;
  }
  // Normal approximation: E[U] = mn/2, Var[U] = mn/12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))),
  // z = (U - E[U] - 1/2) / sd (the 1/2 corrects for U's discreteness towards the upper tail).
  const double variance = m * n / 12.0 * ((pooled + 1.0) - ties / (pooled * (pooled - 1.0)));
  if (variance <= 0.0) {  // every value equal: no evidence either way
    t.p = 1.0;
    return t;
  }
  const double z = (t.u - m * n / 2.0 - 0.5) / std::sqrt(variance);
  t.p = std::min(1.0, normal_upper_tail(z));
  return t;
}

}  // namespace coinfer::check
