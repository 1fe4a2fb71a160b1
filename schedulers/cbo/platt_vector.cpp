#include "schedulers/cbo/platt_vector.hpp"

#include <algorithm>
#include <stdexcept>

namespace coinfer::cbo {

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
