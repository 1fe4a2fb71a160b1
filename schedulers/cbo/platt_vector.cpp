#include "schedulers/cbo/platt_vector.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "schedulers/cbo/logistic.hpp"

namespace coinfer::cbo {
namespace {

double linear(const LogisticFit& fit, const std::vector<double>& x) {
  double f = fit.b;
  for (std::size_t j = 0; j < x.size(); ++j) f += fit.a[j] * x[j];
  return f;
}

double objective(const std::vector<std::vector<double>>& x, const std::vector<double>& t,
                 const LogisticFit& fit) {
  double f = 0;
  for (std::size_t i = 0; i < x.size(); ++i) f += detail::cross_entropy(1 - t[i], linear(fit, x[i]));
  return f;
}

// Solves H d = r in place (r becomes d) for a symmetric positive definite H (d x d, row-major) by
// Cholesky; false when H is not positive definite in doubles.
bool cholesky_solve(std::vector<double> h, std::vector<double>& r) {
  const std::size_t n = r.size();
  for (std::size_t j = 0; j < n; ++j) {
    double d = h[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= h[j * n + k] * h[j * n + k];
    if (!(d > 0)) return false;
    h[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = h[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= h[i * n + k] * h[j * n + k];
      h[i * n + j] = s / h[j * n + j];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = r
    for (std::size_t k = 0; k < i; ++k) r[i] -= h[i * n + k] * r[k];
    r[i] /= h[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T d = y
    for (std::size_t k = i + 1; k < n; ++k) r[i] -= h[k * n + i] * r[k];
    r[i] /= h[i * n + i];
  }
  return true;
}

}  // namespace

LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<double>& t, double b0) {
  if (x.empty() || t.size() != x.size())
    throw std::invalid_argument("fit_logistic: empty set or sizes differ");
  const std::size_t m = x.front().size(), d = m + 1;  // the weights, then b
  for (const auto& row : x)
    if (row.size() != m) throw std::invalid_argument("fit_logistic: feature vectors of different sizes");
  const double n = static_cast<double>(x.size());
  LogisticFit fit{std::vector<double>(m, 0.0), b0, 0};
  double value = objective(x, t, fit);
  for (; fit.iterations < 100; ++fit.iterations) {
    // dF/df_i = t_i - p_i, d2F/df_i^2 = p_i (1 - p_i); chain rule through f_i = a . x_i + b.
    std::vector<double> g(d, 0.0), h(d * d, 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double p = detail::sigmoid(-linear(fit, x[i]));
      const double r = t[i] - p, w = p * (1 - p);
      for (std::size_t j = 0; j < d; ++j) {
        const double xj = j < m ? x[i][j] : 1.0;
        g[j] += xj * r;
        for (std::size_t k = 0; k <= j; ++k) h[j * d + k] += xj * (k < m ? x[i][k] : 1.0) * w;
      }
    }
    if (std::all_of(g.begin(), g.end(), [&](double v) { return std::abs(v) < 1e-10 * n; })) break;
    for (std::size_t j = 0; j < d; ++j) {
      h[j * d + j] += 1e-12;
      for (std::size_t k = 0; k < j; ++k) h[k * d + j] = h[j * d + k];
    }
    std::vector<double> dir(d);
    for (std::size_t j = 0; j < d; ++j) dir[j] = -g[j];
    if (!cholesky_solve(h, dir)) break;  // H singular in doubles: no Newton direction
    double slope = 0;
    for (std::size_t j = 0; j < d; ++j) slope += g[j] * dir[j];
    double step = 1;
    while (step >= 1e-10) {
      LogisticFit next = fit;
      for (std::size_t j = 0; j < m; ++j) next.a[j] += step * dir[j];
      next.b += step * dir[m];
      const double v = objective(x, t, next);
      if (v < value + 1e-4 * step * slope) {
        fit.a = std::move(next.a);
        fit.b = next.b;
        value = v;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;  // no step decreases F: as close as doubles allow
  }
  return fit;
}

PlattTargets platt_targets(const std::vector<char>& positive) {
  double positives = 0, negatives = 0;
  for (const char c : positive) (c ? positives : negatives) += 1;
  const double hi = (positives + 1) / (positives + 2), lo = 1 / (negatives + 2);
  PlattTargets out;
  for (const char c : positive) out.t.push_back(c ? hi : lo);
  out.b0 = std::log((negatives + 1) / (positives + 1));
  return out;
}

double logistic_apply(const LogisticFit& fit, const std::vector<double>& x) {
  return detail::sigmoid(-linear(fit, x));
}

PlattVectorFit fit_platt_vector(const ScoredFrames& train) {
  const std::size_t n = train.size();
  if (n == 0 || train.scores.size() != n || train.labels.size() != n)
    throw std::invalid_argument("fit_platt_vector: empty training set or frames without feature vectors");
  const std::size_t classes = train.scores.front().size();
  if (classes < 2) throw std::invalid_argument("fit_platt_vector: fewer than 2 classes");
  for (std::size_t i = 0; i < n; ++i)
    if (train.scores[i].size() != classes || train.labels[i] < 0 ||
        static_cast<std::size_t>(train.labels[i]) >= classes)
      throw std::invalid_argument("fit_platt_vector: a feature vector's size or a label does not match");
  PlattVectorFit out;
  for (std::size_t k = 0; k < classes; ++k) {
    std::vector<char> is_k;
    for (const auto label : train.labels) is_k.push_back(static_cast<std::size_t>(label) == k ? 1 : 0);
    const PlattTargets targets = platt_targets(is_k);
    out.models.push_back(fit_logistic(train.scores, targets.t, targets.b0));
  }
  return out;
}

double platt_vector_apply(const PlattVectorFit& fit, const std::vector<double>& scores) {
  if (scores.size() != fit.models.size())
    throw std::invalid_argument("platt_vector_apply: the feature vector's size differs from the fit's");
  const auto k = static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
  return logistic_apply(fit.models[k], scores);
}

}  // namespace coinfer::cbo
