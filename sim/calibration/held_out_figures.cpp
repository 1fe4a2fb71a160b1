#include "sim/calibration/held_out_figures.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// A fitted figure reduced to its host time per op class (what refit_calibration fits on).
struct Evaluated {
  const ReferenceFigure* figure = nullptr;
  FitFigure input;
};

std::vector<Evaluated> evaluate_fitted(const DeviceCalibration& calibration, const HostProfileSource& source,
                                       FitRecord& record) {
  const std::string base_dir = calibration_base_dir(calibration);
  std::vector<Evaluated> out;
  for (const auto& figure : calibration.references) {
    if (!figure.fitted) continue;
    try {
      out.push_back({&figure, figure_fit_input(figure, base_dir, source, record)});
    } catch (const Error&) {
      // refit_calibration reports the skip reason; here the figure is simply not available
    }
  }
  return out;
}

}  // namespace

HeldOutFigures held_out_figures(const DeviceCalibration& calibration, const HostProfileSource& source) {
  HeldOutFigures out;
  std::vector<Evaluated> evaluated = evaluate_fitted(calibration, source, out.record);
  if (evaluated.size() < 2) {
    out.skip_reason = fmt::format("{} fitted figure{} available; leaving one out needs at least 2",
                                  evaluated.size(), evaluated.size() == 1 ? "" : "s");
    return out;
  }
  std::vector<FitFigure> inputs;
  for (const auto& e : evaluated) inputs.push_back(e.input);
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    inputs[j].fitted = false;
    const FitResult fit = fit_op_scale(inputs);
    inputs[j].fitted = true;
    HeldOutFigure h;
    h.figure = *evaluated[j].figure;
    h.predicted_s = fit.predicted_s[j];
    h.error_pct = residual_pct(h.predicted_s, inputs[j].reference_s);
    h.free_parameters = fit.free_parameters;
    out.figures.push_back(std::move(h));
  }
  return out;
}

}  // namespace coinfer
