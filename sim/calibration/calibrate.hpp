#pragma once
/// Re-fitting a calibration file from its reference figures on this host (`coinfer calibrate`).
///
/// For every figure: build the model it names (a zoo name, or a model JSON file relative to the
/// calibration file), at the figure's input shape when given; get the host profile of that
/// graph from `source` (the profiler, or the MACs-based estimate); reduce it to host seconds per
/// op class times the figure's work factor (batch, and 3 for a training step: backward ~ 2x
/// forward, a standard rough estimate); then fit (sim/calibration/fit.hpp). A figure whose model
/// cannot be built is reported as skipped, never silently dropped.
///
///     auto source = [](const Graph& g) { return estimate_host_profile(g, HostSpeed::nominal()); };
///     CalibrationFit fit = refit_calibration(load_calibration_file(path), source);
///     DeviceCalibration updated = apply_fit(calibration, fit);
#include <functional>
#include <string>
#include <vector>

#include "sim/calibration/device_calibration.hpp"
#include "sim/calibration/fit.hpp"
#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

using HostProfileSource = std::function<HostProfile(const Graph&)>;

struct FigureReport {
  ReferenceFigure figure;
  bool available = false;  ///< false: the model could not be built (see skip_reason)
  std::string skip_reason;
  double reference_s = 0.0;
  double host_s = 0.0;    ///< host time of the figure's work (batch and training factor applied)
  double stored_s = 0.0;  ///< prediction with the file's current op_scale
  double refit_s = 0.0;   ///< prediction with the refitted op_scale
  double stored_residual_pct = 0.0;
  double refit_residual_pct = 0.0;
};

struct CalibrationFit {
  std::vector<FigureReport> figures;
  bool fitted = false;                     ///< false: no fitted figure was available
  std::map<std::string, double> op_scale;  ///< the refit (when fitted)
  int free_parameters = 0;
  FitRecord record;  ///< host and basis of the refit
};

/// Whether a figure's `model` names a model file (holds a '/' or ends in ".json"), not a zoo model.
bool is_model_file(const std::string& model);
/// Work factor of a figure: batch, times 3 for "train_step".
double figure_work_factor(const ReferenceFigure& figure);
/// The graph a figure was measured on; throws `InputError` when the model cannot be built.
Graph figure_graph(const ReferenceFigure& figure, const std::string& base_dir);
/// `graph` with its (first) input layer set to `shape`, renamed `name@CxHxW`, re-inferred.
Graph with_input_shape(const Graph& graph, const std::vector<std::int64_t>& shape);
/// Host seconds per op class of `profile` (of `graph`), times `factor`.
std::map<OpClass, double> host_seconds_by_class(const Graph& graph, const HostProfile& profile,
                                                double factor);

/// The folder model files of `calibration`'s figures are relative to (its file's; "" without one).
std::string calibration_base_dir(const DeviceCalibration& calibration);
/// A figure as the fit sees it: its reference seconds and host seconds per op class (graph from
/// `figure_graph(figure, base_dir)`, host times from `source`), `fitted` as the figure says; sets
/// `record` to the host profile's host and basis. Throws `Error` when the model cannot be built.
FitFigure figure_fit_input(const ReferenceFigure& figure, const std::string& base_dir,
                           const HostProfileSource& source, FitRecord& record);

/// Fills `calibration.model_scale` from its pinned figures: for each, the figure's time over the
/// time its op_scale predicts for it on the estimate basis (the basis scenarios run on), keyed by
/// the figure's graph name. Throws `InputError` naming `references[i].pinned` for a second pinned
/// figure of the same graph, or a pinned figure in a file fitted on measured host times.
void pin_model_times(DeviceCalibration& calibration);

/// Evaluates every figure with the stored scales and refits; never throws for a missing model.
CalibrationFit refit_calibration(const DeviceCalibration& calibration, const HostProfileSource& source);
/// What `coinfer calibrate --check` verifies for one file, given its refit on this host:
/// every fitted figure's model can be built and the refit reproduces it within
/// `tolerance_pct`; and when the file records a fit on this very host and basis (always so for
/// the "estimate" basis, whose host is the fixed nominal one), the stored op_scale reproduces
/// every fitted figure within `tolerance_pct` and equals the refit's op_scale (per op class,
/// within the 5-digit rounding: 0.02%), i.e. the file is what `calibrate --write` would write.
/// Returns the failures (one sentence each; empty = pass).
std::vector<std::string> check_calibration(const DeviceCalibration& calibration, const CalibrationFit& fit,
                                           double tolerance_pct = 5.0);
/// Appends one failure per op class whose stored scale differs from the refit's by more than the
/// 5-digit rounding (0.02%; effective scales, "default" filled in):
/// `op_scale.conv: stored 10.2, refit 10.5 (-2.857%)`.
void append_scale_differences(const std::map<std::string, double>& stored_scale,
                              const std::map<std::string, double>& refit_scale,
                              std::vector<std::string>& failures);

/// The calibration with the refit's op_scale (rounded to 5 significant digits) and fit record.
DeviceCalibration apply_fit(const DeviceCalibration& calibration, const CalibrationFit& fit);

}  // namespace coinfer
