#include "schedulers/cbo/logistic_fit.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "schedulers/cbo/logistic.hpp"

namespace coinfer::cbo {
namespace {

// The features as a matrix with a last column of ones, so that f = X [a; b].
Eigen::MatrixXd design(const std::vector<std::vector<double>>& x) {
  const auto n = static_cast<Eigen::Index>(x.size()), m = static_cast<Eigen::Index>(x.front().size());
  Eigen::MatrixXd out(n, m + 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& row = x[static_cast<std::size_t>(i)];
    if (static_cast<Eigen::Index>(row.size()) != m)
      throw std::invalid_argument("fit_logistic: feature vectors of different sizes");
    for (Eigen::Index j = 0; j < m; ++j) out(i, j) = row[static_cast<std::size_t>(j)];
    out(i, m) = 1.0;
  }
  return out;
}

double objective(const Eigen::VectorXd& f, const Eigen::VectorXd& t) {
  double sum = 0;
  for (Eigen::Index i = 0; i < f.size(); ++i) sum += detail::cross_entropy(1 - t(i), f(i));
  return sum;
}

}  // namespace

LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<double>& t, double b0) {
  if (x.empty() || t.size() != x.size())
    throw std::invalid_argument("fit_logistic: empty set or sizes differ");
  const Eigen::MatrixXd xs = design(x);
  const Eigen::Map<const Eigen::VectorXd> target(t.data(), static_cast<Eigen::Index>(t.size()));
  const Eigen::Index d = xs.cols();
  const double n = static_cast<double>(x.size());
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(d);  // the weights, then b
  theta(d - 1) = b0;
  Eigen::VectorXd f = xs * theta;
  double value = objective(f, target);
  int iterations = 0;
  for (; iterations < 100; ++iterations) {
    // dF/df_i = t_i - p_i, d2F/df_i^2 = p_i (1 - p_i); chain rule through f = X theta.
    Eigen::VectorXd r(f.size()), w(f.size());
    for (Eigen::Index i = 0; i < f.size(); ++i) {
      const double p = detail::sigmoid(-f(i));
      r(i) = target(i) - p;
      w(i) = p * (1 - p);
    }
    const Eigen::VectorXd g = xs.transpose() * r;
    if ((g.array().abs() < 1e-10 * n).all()) break;
    Eigen::MatrixXd h = xs.transpose() * w.asDiagonal() * xs;
    h.diagonal().array() += 1e-12;
    const Eigen::LLT<Eigen::MatrixXd> llt(h);
    if (llt.info() != Eigen::Success) break;  // H singular in doubles: no Newton direction
    const Eigen::VectorXd dir = llt.solve(-g);
    const double slope = g.dot(dir);
    double step = 1;
    while (step >= 1e-10) {
      const Eigen::VectorXd next = theta + step * dir;
      Eigen::VectorXd trial = xs * next;
      const double v = objective(trial, target);
      if (v < value + 1e-4 * step * slope) {
        theta = next;
        f = std::move(trial);
        value = v;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;  // no step decreases F: as close as doubles allow
  }
  return {std::vector<double>(theta.data(), theta.data() + d - 1), theta(d - 1), iterations};
}

double logistic_apply(const LogisticFit& fit, const std::vector<double>& x) {
  double f = fit.b;
  for (std::size_t j = 0; j < x.size(); ++j) f += fit.a[j] * x[j];
  return detail::sigmoid(-f);
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

}  // namespace coinfer::cbo
