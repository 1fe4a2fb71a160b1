#include "schedulers/cbo/temperature_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "schedulers/cbo/logistic.hpp"

namespace coinfer::cbo {
namespace {

constexpr double kMinBeta = 1e-4, kMaxBeta = 1e4;

double logit(double s) {
  const double c = std::clamp(s, 1e-12, 1 - 1e-12);
  return std::log(c / (1 - c));
}

// g(beta) = dNLL/dbeta and g'(beta) = d2NLL/dbeta2 at beta.
std::pair<double, double> derivatives(const std::vector<double>& z, const std::vector<char>& y, double beta) {
  double g = 0, h = 0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double q = detail::sigmoid(beta * z[i]);
    g += z[i] * (q - (y[i] ? 1.0 : 0.0));
    h += z[i] * z[i] * q * (1 - q);
  }
  return {g, h};
}

}  // namespace

TemperatureFit fit_temperature(const ScoredFrames& train) {
  if (train.size() == 0 || train.correct.size() != train.size())
    throw std::invalid_argument("fit_temperature: empty training set or sizes differ");
  std::vector<double> z;
  for (const double s : train.confidence) z.push_back(logit(s));
  TemperatureFit fit;
  const double scale = 1e-12 * static_cast<double>(train.size());
  const double g_min = derivatives(z, train.correct, kMinBeta).first;
  const double g_max = derivatives(z, train.correct, kMaxBeta).first;
  if (g_min >= 0 && g_max <= 0) return fit;  // g is 0 throughout (every score 0.5): T = 1
  if (g_max <= 0) {
    fit.temperature = 1 / kMaxBeta;  // NLL still falls at the sharpest beta allowed
    return fit;
  }
  if (g_min >= 0) {
    fit.temperature = 1 / kMinBeta;  // no (or inverse) information: the flattest beta allowed
    return fit;
  }
  // g(lo) < 0 < g(hi) throughout, and each step narrows [lo, hi]; a Newton step that would leave
  // it is replaced by bisection.
  double lo = kMinBeta, hi = kMaxBeta, beta = 1;
  for (; fit.iterations < 200; ++fit.iterations) {
    const auto [g, h] = derivatives(z, train.correct, beta);
    if (std::abs(g) <= scale) break;
    (g < 0 ? lo : hi) = beta;
    if (hi - lo <= 1e-15 * hi) break;
    const double newton = h > 0 ? beta - g / h : lo - 1;  // lo - 1: outside, so bisect
    beta = newton > lo && newton < hi ? newton : (lo + hi) / 2;
  }
  fit.temperature = 1 / beta;
  return fit;
}

double temperature_apply(const TemperatureFit& fit, double score) {
  return detail::sigmoid(logit(score) / fit.temperature);
}

double temperature_nll(const ScoredFrames& frames, double t) {
  double nll = 0;
  for (std::size_t i = 0; i < frames.size(); ++i)
    nll += detail::cross_entropy(frames.correct[i] ? 1.0 : 0.0, logit(frames.confidence[i]) / t);
  return nll;
}

}  // namespace coinfer::cbo
