#pragma once
/// Confidence calibrators by name (Tan & Cao sec. III-B, plus Guo et al.'s temperature scaling):
/// `platt`, `isotonic` and `temperature`, each a fit on training frames and a map from a raw
/// confidence to a calibrated one.
///
///     CalibratorRegistry methods("calibration method");
///     register_confidence_calibrators(methods);
///     auto c = methods.create("platt", Json::object(), "", "--method");   // unknown: InputError
///     c->fit(train);
///     double p = c->apply(0.8);
#include <memory>

#include "schedulers/cbo/calibration_error.hpp"
#include "sim/core/json_access.hpp"
#include "sim/core/registry.hpp"

namespace coinfer::cbo {

class ConfidenceCalibrator {
 public:
  virtual ~ConfidenceCalibrator() = default;
  /// Fits on `train` (non-empty; `std::invalid_argument` otherwise).
  virtual void fit(const ScoredFrames& train) = 0;
  /// The calibrated confidence of a raw one, in [0, 1]. Only after `fit`.
  virtual double apply(double confidence) const = 0;
  /// The fitted parameters, e.g. `{"a": -2.1, "b": 1.3, "iterations": 6}`.
  virtual Json parameters() const = 0;
};

using CalibratorRegistry = Registry<ConfidenceCalibrator>;

/// Adds `platt`, `isotonic` and `temperature`; throws `Error` if a name is taken.
void register_confidence_calibrators(CalibratorRegistry& registry);

}  // namespace coinfer::cbo
