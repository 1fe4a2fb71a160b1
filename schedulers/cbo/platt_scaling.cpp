#include "schedulers/cbo/platt_scaling.hpp"

#include <stdexcept>

#include "schedulers/cbo/logistic.hpp"
#include "schedulers/cbo/logistic_fit.hpp"

namespace coinfer::cbo {

PlattFit fit_platt(const ScoredFrames& train) {
  if (train.size() == 0 || train.correct.size() != train.size())
    throw std::invalid_argument("fit_platt: empty training set or sizes differ");
  const PlattTargets targets = platt_targets(train.correct);
  std::vector<std::vector<double>> x;
  for (const double s : train.confidence) x.push_back({s});
  const LogisticFit f = fit_logistic(x, targets.t, targets.b0);
  return {f.a.front(), f.b, f.iterations};
}

double platt_apply(const PlattFit& fit, double score) { return detail::sigmoid(-(fit.a * score + fit.b)); }

}  // namespace coinfer::cbo
