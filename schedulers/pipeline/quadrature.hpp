#pragma once
// Numerical pieces shared by the pipeline expectation solvers (expected_throughput.cpp,
// expected_adaptive.cpp): normal tails, one stage's survival function and adaptive Gauss-Kronrod
// quadrature. Internal to schedulers/pipeline.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <queue>
#include <vector>

#include "schedulers/pipeline/expected_throughput.hpp"

namespace coinfer::pipeline_quadrature {

inline constexpr double kRelTol = 1e-10;  // quadrature target, relative to the integral
inline constexpr std::size_t kMaxIntervals = 20000;

/// P(Z > z) for a standard normal, accurate in both tails.
inline double normal_upper(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

/// ln P(B / D > x) for one stage; ln(0) = -inf.
inline double log_survival(const GaussianBandwidth& bw, double d, double x, BandwidthTail model) {
  const double level = d * x;
  if (model != BandwidthTail::untruncated && x < 0.0) return 0.0;  // B' >= 0 > D x
  if (bw.stddev == 0.0) return bw.mean > level ? 0.0 : -INFINITY;
  const double z = (level - bw.mean) / bw.stddev;
  // ln Q(z): through ln(1 - Phi(z)) on the left so that Q close to 1 keeps its digits.
  double log_q = z < 0.0 ? std::log1p(-normal_upper(-z)) : std::log(normal_upper(z));
  if (model == BandwidthTail::truncated) log_q -= std::log(normal_upper(-bw.mean / bw.stddev));
  return std::min(log_q, 0.0);
}

struct Piece {
  double a, b, value, error;
  bool operator<(const Piece& o) const { return error < o.error; }
};

/// Gauss-Kronrod (7, 15) on [a, b]: the Kronrod value and |Kronrod - Gauss| as its error.
template <class F>
Piece gauss_kronrod(const F& f, double a, double b) {
  static constexpr double xk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                                   0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                                   0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                                   0.207784955007898467600689403773245, 0.0};
  static constexpr double wk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                                   0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                                   0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                                   0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
  // 7-point Gauss weights at the odd Kronrod nodes xk[1], xk[3], xk[5], xk[7].
  static constexpr double wg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                                   0.381830050505118944950369775488975, 0.417959183673469387755102040816327};
  const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
  const double fc = f(mid);
  double kronrod = wk[7] * fc, gauss = wg[3] * fc;
  for (int j = 0; j < 7; ++j) {
    const double pair = f(mid - half * xk[j]) + f(mid + half * xk[j]);
    kronrod += wk[j] * pair;
    if (j % 2 == 1) gauss += wg[j / 2] * pair;
  }
  return {a, b, kronrod * half, std::fabs(kronrod - gauss) * half};
}

/// Global adaptive quadrature of a non-negative `f` over the pieces between consecutive `points`
/// (sorted): bisects the piece with the largest error estimate until the summed estimate is below
/// kRelTol times the integral, or kMaxIntervals pieces exist.
template <class F>
double integrate(const F& f, const std::vector<double>& points) {
  std::priority_queue<Piece> pieces;
  double total = 0.0, error = 0.0;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    if (!(points[k + 1] > points[k])) continue;
    const Piece piece = gauss_kronrod(f, points[k], points[k + 1]);
    total += piece.value;
    error += piece.error;
    pieces.push(piece);
  }
  while (!pieces.empty() && error > kRelTol * std::fabs(total) && pieces.size() < kMaxIntervals) {
    const Piece worst = pieces.top();
    pieces.pop();
    const double mid = 0.5 * (worst.a + worst.b);
    if (!(mid > worst.a && mid < worst.b)) break;  // cannot split further in floating point
    const Piece left = gauss_kronrod(f, worst.a, mid), right = gauss_kronrod(f, mid, worst.b);
    total += left.value + right.value - worst.value;
    error += left.error + right.error - worst.error;
    pieces.push(left);
    pieces.push(right);
  }
  return total;
}

}  // namespace coinfer::pipeline_quadrature
