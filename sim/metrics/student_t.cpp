#include "sim/metrics/student_t.hpp"

#include <cassert>
#include <cmath>

namespace coinfer {
namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz), valid for
// x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEps = 1e-15;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
  double h = d;
  auto step = [&](double aa) {  // one term of the fraction; returns the factor it applied
    d = 1.0 + aa * d;
    d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
    c = 1.0 + aa / c;
    if (std::abs(c) < kTiny) c = kTiny;
    h *= d * c;
    return d * c;
  };
  for (int m = 1; m <= 1000; ++m) {
    step(m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)));
    if (std::abs(step(-(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))) - 1.0) < kEps)
      break;
  }
  return h;
}

// I_x(a, b), the regularized incomplete beta function, for x in [0, 1].
double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double df) {
  assert(df > 0.0);
  const double tail = 0.5 * incomplete_beta(0.5 * df, 0.5, df / (df + t * t));  // P(T > |t|)
  return t >= 0.0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double df) {
  assert(p > 0.0 && p < 1.0 && df > 0.0);
  if (p < 0.5) return -student_t_quantile(1.0 - p, df);
  if (p == 0.5) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (student_t_cdf(hi, df) < p) lo = hi, hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace coinfer
