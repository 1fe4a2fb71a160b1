#include "sim/check/sign_test.hpp"

#include <cmath>

namespace coinfer::check {
namespace {

// P(Binomial(n, 1/2) >= k) = sum_{i >= k} C(n, i) / 2^n, summed in logs so that n may be large.
double binomial_half_upper_tail(int n, int k) {
  if (n == 0 || k <= 0) return 1.0;
  double tail = 0.0;
  for (int i = k; i <= n; ++i)
    tail +=
        std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
  return std::min(1.0, tail);
}

double sign_test(const std::vector<double>& samples, double bound, int direction) {
  int above = 0, differing = 0;
  for (const double s : samples) {
    if (s == bound) continue;
    ++differing;
    if ((s - bound) * direction > 0) ++above;
  }
  return binomial_half_upper_tail(differing, above);
}

}  // namespace

double sign_test_above(const std::vector<double>& samples, double bound) {
  return sign_test(samples, bound, 1);
}
double sign_test_below(const std::vector<double>& samples, double bound) {
  return sign_test(samples, bound, -1);
}

}  // namespace coinfer::check
