#include "schedulers/cbo/confidence_calibrator.hpp"

#include "schedulers/cbo/isotonic_regression.hpp"
#include "schedulers/cbo/platt_scaling.hpp"
#include "schedulers/cbo/platt_vector.hpp"
#include "schedulers/cbo/temperature_scaling.hpp"

namespace coinfer::cbo {
namespace {

class PlattCalibrator : public ConfidenceCalibrator {
 public:
  void fit(const ScoredFrames& train) override { fit_ = fit_platt(train); }
  double apply(const ScoredFrames& f, std::size_t i) const override {
    return platt_apply(fit_, f.confidence[i]);
  }
  Json parameters() const override {
    return {{"model", "p(s) = 1 / (1 + exp(a s + b))"},
            {"a", fit_.a},
            {"b", fit_.b},
            {"iterations", fit_.iterations}};
  }

 private:
  PlattFit fit_;
};

class PlattVectorCalibrator : public ConfidenceCalibrator {
 public:
  void fit(const ScoredFrames& train) override { fit_ = fit_platt_vector(train); }
  double apply(const ScoredFrames& f, std::size_t i) const override {
    return platt_vector_apply(fit_, f.scores.at(i));
  }
  bool needs_feature_vectors() const override { return true; }
  Json parameters() const override {
    Json models = Json::array();
    for (const auto& m : fit_.models)
      models.push_back({{"a", m.a}, {"b", m.b}, {"iterations", m.iterations}});
    return {{"model", "p_k(x) = 1 / (1 + exp(a_k . x + b_k)), k = argmax x"}, {"models", models}};
  }

 private:
  PlattVectorFit fit_;
};

class IsotonicCalibrator : public ConfidenceCalibrator {
 public:
  void fit(const ScoredFrames& train) override { fit_ = fit_isotonic(train); }
  double apply(const ScoredFrames& f, std::size_t i) const override {
    return isotonic_apply(fit_, f.confidence[i]);
  }
  Json parameters() const override {
    Json blocks = Json::array();
    for (const auto& b : fit_.blocks)
      blocks.push_back({{"lower", b.lower}, {"upper", b.upper}, {"value", b.value}, {"count", b.count}});
    return {{"model", "step: value of the last block with lower <= s"}, {"blocks", blocks}};
  }

 private:
  IsotonicFit fit_;
};

class TemperatureCalibrator : public ConfidenceCalibrator {
 public:
  void fit(const ScoredFrames& train) override { fit_ = fit_temperature(train); }
  double apply(const ScoredFrames& f, std::size_t i) const override {
    return temperature_apply(fit_, f.confidence[i]);
  }
  Json parameters() const override {
    return {{"model", "q(s) = sigmoid(logit(s) / temperature)"},
            {"temperature", fit_.temperature},
            {"iterations", fit_.iterations}};
  }

 private:
  TemperatureFit fit_;
};

template <class T>
CalibratorRegistry::Factory make() {
  return [](const Json&) { return std::make_unique<T>(); };
}

}  // namespace

void register_confidence_calibrators(CalibratorRegistry& registry) {
  registry.add("isotonic", "pool adjacent violators, step-function prediction", {},
               make<IsotonicCalibrator>());
  registry.add("platt", "logistic fit by Newton's method with Platt's smoothed targets", {},
               make<PlattCalibrator>());
  registry.add(
      "platt-vector",
      "the paper's N one-vs-rest logistic models on the feature vector (trace columns score_<k>, label)", {},
      make<PlattVectorCalibrator>());
  registry.add("temperature", "Guo et al.: sigmoid(logit(s) / T), T minimising NLL", {},
               make<TemperatureCalibrator>());
}

}  // namespace coinfer::cbo
