#pragma once
/// A calibration study as in Tan & Cao's Table I: frames split into a training and a held-out
/// part by a seeded shuffle, each method fitted on the training part, ECE / MCE and reliability
/// data reported on both parts, with the uncalibrated scores as the first row.
///
///     CalibratorRegistry methods("calibration method");
///     register_confidence_calibrators(methods);
///     auto split = cbo::split_frames(trace.local(), 0.5, 7);
///     auto rows = cbo::calibration_study(split, cbo::create_calibrators({"platt", "isotonic"}, methods));
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schedulers/cbo/confidence_calibrator.hpp"

namespace coinfer::cbo {

struct FrameSplit {
  ScoredFrames train;
  ScoredFrames held_out;
};

/// round(train_fraction * n) frames for training, the rest held out, chosen by a Fisher-Yates
/// shuffle of the frame order driven by std::mt19937_64(seed) (written out, so the split is the
/// same with every standard library); each part keeps file order. Throws `std::invalid_argument`
/// unless both parts are non-empty (see `train_frame_count`).
FrameSplit split_frames(const ScoredFrames& frames, double train_fraction, std::uint64_t seed);
/// round(train_fraction * n): the training part's size.
std::size_t train_frame_count(std::size_t n, double train_fraction);

struct CalibrationRow {
  std::string method;  ///< "uncalibrated" or a registered method
  Json parameters;     ///< the fit (null for "uncalibrated")
  std::vector<ReliabilityBin> train_bins;
  std::vector<ReliabilityBin> held_out_bins;
};

struct NamedCalibrator {
  std::string name;
  std::unique_ptr<ConfidenceCalibrator> calibrator;
};

/// The uncalibrated row, then one row per method, each fitted (in place) on `split.train`.
std::vector<CalibrationRow> calibration_study(const FrameSplit& split,
                                              const std::vector<NamedCalibrator>& methods);

/// Each method made from `registry` with its default parameters (an unknown name is an
/// `InputError` on `--method`).
std::vector<NamedCalibrator> create_calibrators(const std::vector<std::string>& methods,
                                                const CalibratorRegistry& registry);

/// `{"method", "parameters", "train": {"ece", "mce", "reliability"}, "held_out": {...}}`; an empty
/// bin's mean confidence and accuracy are null.
Json calibration_row_json(const CalibrationRow& row);

}  // namespace coinfer::cbo
