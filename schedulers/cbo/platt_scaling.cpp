#include "schedulers/cbo/platt_scaling.hpp"

#include <cmath>
#include <stdexcept>

#include "schedulers/cbo/logistic.hpp"

namespace coinfer::cbo {
namespace {

struct Targets {
  std::vector<double> t;
  double positives = 0;
  double negatives = 0;
};

Targets smoothed_targets(const ScoredFrames& train) {
  Targets out;
  for (const char c : train.correct) (c ? out.positives : out.negatives) += 1;
  const double hi = (out.positives + 1) / (out.positives + 2), lo = 1 / (out.negatives + 2);
  for (const char c : train.correct) out.t.push_back(c ? hi : lo);
  return out;
}

// With f = A s + B and p = 1 / (1 + exp(f)) = sigmoid(-f), the objective is
// F = sum_i -t_i log p_i - (1 - t_i) log(1 - p_i) = sum_i cross_entropy(1 - t_i, f_i).
double objective(const ScoredFrames& train, const std::vector<double>& t, double a, double b) {
  double f = 0;
  for (std::size_t i = 0; i < train.size(); ++i)
    f += detail::cross_entropy(1 - t[i], a * train.confidence[i] + b);
  return f;
}

}  // namespace

PlattFit fit_platt(const ScoredFrames& train) {
  if (train.size() == 0 || train.correct.size() != train.size())
    throw std::invalid_argument("fit_platt: empty training set or sizes differ");
  const Targets targets = smoothed_targets(train);
  const auto& t = targets.t;
  const double n = static_cast<double>(train.size());
  PlattFit fit{0.0, std::log((targets.negatives + 1) / (targets.positives + 1)), 0};
  double value = objective(train, t, fit.a, fit.b);
  for (; fit.iterations < 100; ++fit.iterations) {
    // dF/df_i = t_i - p_i, d2F/df_i^2 = p_i (1 - p_i); chain rule through f_i = A s_i + B.
    double g_a = 0, g_b = 0, h_aa = 1e-12, h_ab = 0, h_bb = 1e-12;
    for (std::size_t i = 0; i < train.size(); ++i) {
      const double s = train.confidence[i];
      const double p = detail::sigmoid(-(fit.a * s + fit.b));
      const double d = t[i] - p, w = p * (1 - p);
      g_a += s * d;
      g_b += d;
      h_aa += s * s * w;
      h_ab += s * w;
      h_bb += w;
    }
    if (std::abs(g_a) < 1e-10 * n && std::abs(g_b) < 1e-10 * n) break;
    // Newton direction -H^-1 g by Cramer's rule on the 2x2 system.
    const double det = h_aa * h_bb - h_ab * h_ab;
    const double da = -(h_bb * g_a - h_ab * g_b) / det, db = -(h_aa * g_b - h_ab * g_a) / det;
    const double slope = g_a * da + g_b * db;  // < 0: a descent direction (H is positive definite)
    double step = 1;
    while (step >= 1e-10) {
      const double next = objective(train, t, fit.a + step * da, fit.b + step * db);
      if (next < value + 1e-4 * step * slope) {
        fit.a += step * da;
        fit.b += step * db;
        value = next;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;  // no step decreases F: as close as doubles allow
  }
  return fit;
}

double platt_apply(const PlattFit& fit, double score) { return detail::sigmoid(-(fit.a * score + fit.b)); }

}  // namespace coinfer::cbo
