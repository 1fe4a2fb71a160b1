#include "sim/calibration/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer {
namespace {

constexpr double kTrainingFactor = 3.0;  // forward + backward ~ 3 forward passes

std::map<OpClass, double> scale_by_class(const std::map<std::string, double>& op_scale) {
  std::map<OpClass, double> out;
  for (OpClass c : all_op_classes()) {
    auto it = op_scale.find(std::string(op_class_name(c)));
    out[c] = it == op_scale.end() ? 0.0 : it->second;
  }
  return out;
}

// Relative difference a refit may show against the stored scales: both are rounded to 5
// significant digits (<= 0.005% each), so a reproduced file differs by at most 0.01%.
constexpr double kScaleTolerancePct = 0.02;

}  // namespace

bool is_model_file(const std::string& model) {
  return model.find('/') != std::string::npos || model.ends_with(".json");
}

void append_scale_differences(const std::map<std::string, double>& stored_scale,
                              const std::map<std::string, double>& refit_scale,
                              std::vector<std::string>& failures) {
  const auto stored = scale_by_class(stored_scale), refit = scale_by_class(refit_scale);
  for (OpClass c : all_op_classes()) {
    const double a = stored.at(c), b = refit.at(c);
    if (std::fabs(b - a) > kScaleTolerancePct / 100.0 * std::fabs(b))
      failures.push_back(fmt::format("op_scale.{}: stored {:.5g}, refit {:.5g} ({:+.3f}%)", op_class_name(c),
                                     a, b, residual_pct(a, b)));
  }
}

double figure_work_factor(const ReferenceFigure& figure) {
  return static_cast<double>(figure.batch) * (figure.quantity == "train_step" ? kTrainingFactor : 1.0);
}

Graph with_input_shape(const Graph& graph, const std::vector<std::int64_t>& shape) {
  const auto inputs = graph.input_layers();
  if (inputs.empty())
    throw InputError("", "input_shape", fmt::format("model '{}' has no input layer", graph.name()));
  std::vector<std::string> dims;
  for (auto d : shape) dims.push_back(std::to_string(d));
  Graph out(fmt::format("{}@{}", graph.name(), fmt::join(dims, "x")));
  for (std::size_t i = 0; i < graph.size(); ++i) {
    Layer layer = graph.layer(i);
    if (i == inputs.front()) layer.attrs.shape = shape;
    out.add(std::move(layer));
  }
  try {
    out.infer();
  } catch (const InputError& e) {
    throw InputError("", "input_shape",
                     fmt::format("model '{}' does not accept input {}: {}", graph.name(),
                                 shape_to_string(shape), e.what()));
  }
  return out;
}

Graph figure_graph(const ReferenceFigure& figure, const std::string& base_dir) {
  Graph g;
  if (is_model_file(figure.model)) {
    std::filesystem::path p(figure.model);
    if (p.is_relative() && !base_dir.empty()) p = std::filesystem::path(base_dir) / p;
    g = load_model(p.string());
  } else {
    g = build_zoo_model(figure.model);
  }
  if (!figure.input_shape.empty()) g = with_input_shape(g, figure.input_shape);
  return g;
}

std::map<OpClass, double> host_seconds_by_class(const Graph& graph, const HostProfile& profile,
                                                double factor) {
  if (profile.layers.size() != graph.size())
    throw Error(fmt::format("profile of '{}' has {} layers, graph has {}", profile.model,
                            profile.layers.size(), graph.size()));
  std::map<OpClass, double> out;
  const auto& order = graph.topological_order();
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    out[op_class_of(graph.layer(order[pos]))] += profile.layers[pos].median_s * factor;
  return out;
}

std::string calibration_base_dir(const DeviceCalibration& calibration) {
  return calibration.file.empty() ? std::string()
                                  : std::filesystem::path(calibration.file).parent_path().string();
}

FitFigure figure_fit_input(const ReferenceFigure& figure, const std::string& base_dir,
                           const HostProfileSource& source, FitRecord& record) {
  const Graph g = figure_graph(figure, base_dir);
  const HostProfile profile = source(g);
  record = FitRecord{profile.host_cpu, profile.basis};
  return FitFigure{reference_value_s(figure), host_seconds_by_class(g, profile, figure_work_factor(figure)),
                   figure.fitted};
}

void pin_model_times(DeviceCalibration& calibration) {
  calibration.model_scale.clear();
  const std::string base_dir = calibration_base_dir(calibration);
  const auto scale = scale_by_class(calibration.op_scale);
  for (std::size_t i = 0; i < calibration.references.size(); ++i) {
    const ReferenceFigure& figure = calibration.references[i];
    if (!figure.pinned) continue;
    const auto key = index_path("references", i) + ".pinned";
    if (calibration.fit && calibration.fit->host_basis != "estimate")
      throw InputError(calibration.file, key,
                       fmt::format("a pinned figure needs a file fitted on the estimate basis, which "
                                   "scenarios run on; this one is fitted on '{}'",
                                   calibration.fit->host_basis));
    const Graph graph = figure_graph(figure, base_dir);
    const HostProfile profile = estimate_host_profile(graph, HostSpeed::nominal());
    const double predicted_s =
        predict_s(scale, FitFigure{0.0, host_seconds_by_class(graph, profile, figure_work_factor(figure))});
    if (!(predicted_s > 0.0))
      throw InputError(calibration.file, key,
                       fmt::format("model '{}' has no work to scale to the pinned figure", figure.model));
    if (!calibration.model_scale.emplace(graph.name(), reference_value_s(figure) / predicted_s).second)
      throw InputError(calibration.file, key,
                       fmt::format("a second pinned figure of '{}': pin one figure per model and input shape",
                                   graph.name()));
  }
}

CalibrationFit refit_calibration(const DeviceCalibration& calibration, const HostProfileSource& source) {
  const std::string base_dir = calibration_base_dir(calibration);
  const auto stored = scale_by_class(calibration.op_scale);
  CalibrationFit fit;
  std::vector<FitFigure> inputs;
  std::vector<std::size_t> report_of_input;
  for (const auto& figure : calibration.references) {
    FigureReport report;
    report.figure = figure;
    report.reference_s = reference_value_s(figure);
    try {
      FitFigure input = figure_fit_input(figure, base_dir, source, fit.record);
      report.available = true;
      for (const auto& [c, s] : input.host_s) report.host_s += s;
      report.stored_s = predict_s(stored, input);
      report.stored_residual_pct = residual_pct(report.stored_s, report.reference_s);
      inputs.push_back(std::move(input));
      report_of_input.push_back(fit.figures.size());
    } catch (const Error& e) {
      report.skip_reason = e.what();
    }
    fit.figures.push_back(std::move(report));
  }
  const bool any_fitted =
      std::any_of(inputs.begin(), inputs.end(), [](const FitFigure& f) { return f.fitted; });
  if (!any_fitted) return fit;
  const FitResult result = fit_op_scale(inputs);
  fit.fitted = true;
  fit.free_parameters = result.free_parameters;
  for (const auto& [c, s] : result.scale)
    fit.op_scale[std::string(op_class_name(c))] = round_significant(s, 5);
  const auto rounded = scale_by_class(fit.op_scale);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    auto& report = fit.figures[report_of_input[k]];
    report.refit_s = predict_s(rounded, inputs[k]);
    report.refit_residual_pct = residual_pct(report.refit_s, report.reference_s);
  }
  return fit;
}

std::vector<std::string> check_calibration(const DeviceCalibration& calibration, const CalibrationFit& fit,
                                           double tolerance_pct) {
  std::vector<std::string> failures;
  const bool same_host = calibration.fit && fit.fitted && *calibration.fit == fit.record;
  for (const auto& r : fit.figures) {
    if (!r.figure.fitted) continue;
    const auto what =
        fmt::format("{} {} {} {}", r.figure.model, r.figure.quantity, r.figure.value, r.figure.unit);
    if (!r.available) {
      failures.push_back(fmt::format("{}: model unavailable ({})", what, r.skip_reason));
      continue;
    }
    if (std::fabs(r.refit_residual_pct) > tolerance_pct)
      failures.push_back(
          fmt::format("{}: refit residual {:+.2f}% exceeds {}%", what, r.refit_residual_pct, tolerance_pct));
    if (same_host && std::fabs(r.stored_residual_pct) > tolerance_pct)
      failures.push_back(
          fmt::format("{}: stored op_scale gives {:+.2f}% (> {}%) on the host it was fitted on", what,
                      r.stored_residual_pct, tolerance_pct));
  }
  if (!fit.fitted) {
    failures.push_back("no fitted figure could be evaluated");
    return failures;
  }
  if (same_host) append_scale_differences(calibration.op_scale, fit.op_scale, failures);
  return failures;
}

DeviceCalibration apply_fit(const DeviceCalibration& calibration, const CalibrationFit& fit) {
  DeviceCalibration out = calibration;
  if (!fit.fitted) return out;
  out.op_scale = fit.op_scale;
  out.fit = fit.record;
  return out;
}

}  // namespace coinfer
