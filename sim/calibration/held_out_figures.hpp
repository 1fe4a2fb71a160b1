#pragma once
/// Leave-one-figure-out prediction error of a calibration file (`coinfer calibrate --held-out`):
/// how well the file's fit predicts a figure it was not fitted on.
///
/// Every fitted figure j is left out in turn: the op_scale is fitted (sim/calibration/fit.hpp) on
/// the other fitted figures, and j is predicted with it,
///     error_j = 100 * (pred_j - ref_j) / ref_j.
/// A file needs two or more fitted figures whose models can be built; with fewer it is reported
/// as skipped (`skip_reason`). Figures kept as checks (`fitted: false`) are never fitted nor left
/// out. Host times come from `source` as in `refit_calibration` (calibrate.hpp).
///
///     HeldOutFigures h = held_out_figures(load_calibration_file("gtx1080.json"), source);
///     h.figures[0].error_pct;   // ResNet-101 predicted from the scale fitted on FlowNetS alone
#include <string>
#include <vector>

#include "sim/calibration/calibrate.hpp"

namespace coinfer {

struct HeldOutFigure {
  ReferenceFigure figure;
  double predicted_s = 0.0;  ///< with the op_scale fitted on the other fitted figures
  double error_pct = 0.0;    ///< 100 * (predicted - reference) / reference
  int free_parameters = 0;   ///< of the fit on the others
};

struct HeldOutFigures {
  std::vector<HeldOutFigure> figures;  ///< one per fitted figure, in file order (empty: skipped)
  std::string skip_reason;             ///< why no figure was left out (fewer than two to fit on)
  FitRecord record;                    ///< host and basis of the host times
};

/// Leaves out each fitted figure in turn; throws nothing for a model that cannot be built (the
/// figure is not used, and a file left with fewer than two fitted figures is skipped).
HeldOutFigures held_out_figures(const DeviceCalibration& calibration, const HostProfileSource& source);

}  // namespace coinfer
