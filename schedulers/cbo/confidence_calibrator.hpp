#pragma once
/// Confidence calibrators by name (Tan & Cao sec. III-B, plus Guo et al.'s temperature scaling),
/// each a fit on training frames and a map from a frame to its calibrated confidence:
/// `platt`, `isotonic` and `temperature` map the raw top confidence alone; `platt-vector` is the
/// paper's procedure, N logistic models on the whole feature vector (platt_vector.hpp), and needs
/// frames that carry it (`needs_feature_vectors`).
///
///     CalibratorRegistry methods("calibration method");
///     register_confidence_calibrators(methods);
///     auto c = methods.create("platt", Json::object(), "", "--method");   // unknown: InputError
///     c->fit(train);
///     double p = c->apply(held_out, 0);
#include <memory>

#include "schedulers/cbo/calibration_error.hpp"
#include "sim/core/json_access.hpp"
#include "sim/core/registry.hpp"

namespace coinfer::cbo {

class ConfidenceCalibrator {
 public:
  virtual ~ConfidenceCalibrator() = default;
  /// Fits on `train` (non-empty, with feature vectors when `needs_feature_vectors`;
  /// `std::invalid_argument` otherwise).
  virtual void fit(const ScoredFrames& train) = 0;
  /// The calibrated confidence of frame `i` of `frames`, in [0, 1]. Only after `fit`.
  virtual double apply(const ScoredFrames& frames, std::size_t i) const = 0;
  /// True when `fit` and `apply` read the frames' feature vectors and labels.
  virtual bool needs_feature_vectors() const { return false; }
  /// The fitted parameters, e.g. `{"a": -2.1, "b": 1.3, "iterations": 6}`.
  virtual Json parameters() const = 0;
};

using CalibratorRegistry = Registry<ConfidenceCalibrator>;

/// Adds `platt`, `platt-vector`, `isotonic` and `temperature`; throws `Error` if a name is taken.
void register_confidence_calibrators(CalibratorRegistry& registry);

}  // namespace coinfer::cbo
