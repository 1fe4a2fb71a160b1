#include "sim/calibration/profile_fit.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/calibration/profile_text.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// Each row is a figure of one layer (a class or two), so every class the profiles time is
// identifiable; a ridge much smaller than fit_op_scale's default keeps its pull toward the
// common scale near 1e-6 in log space (ridge / rows of the class), so synthetic profiles are
// recovered to the 5 digits written.
constexpr double kProfileRidge = 1e-6;

// A matched model with each row's host seconds per op class.
struct Prepared {
  ModelMatch match;
  std::vector<FitFigure> figures;  // one per row
};

Prepared prepare(const ProfiledModel& in, const HostProfileSource& source) {
  Prepared p{match_profile(in), {}};
  const HostProfile host = source(in.graph);
  const auto& order = in.graph.topological_order();
  if (host.layers.size() != order.size())
    throw Error(fmt::format("host profile of '{}' has {} layers, the model {}", in.model, host.layers.size(),
                            order.size()));
  std::map<std::string, std::size_t> position;
  for (std::size_t pos = 0; pos < order.size(); ++pos) position[in.graph.layer(order[pos]).name] = pos;
  for (auto& row : p.match.rows) {
    FitFigure f{row.measured_s, {}, true};
    for (const auto& name : row.layers) {
      const std::size_t pos = position.at(name);
      f.host_s[op_class_of(in.graph.layer(order[pos]))] += host.layers[pos].median_s;
      row.host_s += host.layers[pos].median_s;
    }
    if (!(row.host_s > 0.0))
      throw InputError(in.profile.file, line_path(row.row.line),
                       fmt::format("row '{}' covers layers with no host time ({}); leave it out of the "
                                   "profile",
                                   row.row.name, fmt::join(row.layers, ", ")));
    p.figures.push_back(std::move(f));
  }
  return p;
}

void predict_rows(const std::map<OpClass, double>& scale, Prepared& p) {
  for (std::size_t k = 0; k < p.figures.size(); ++k) {
    auto& row = p.match.rows[k];
    row.predicted_s = predict_s(scale, p.figures[k]);
    row.residual_pct = residual_pct(row.predicted_s, row.measured_s);
  }
}

// Every row of every model is a figure; scales rounded to the 5 significant digits written.
std::map<OpClass, double> fitted_scales(const std::vector<Prepared>& models, int* free_parameters = nullptr) {
  std::vector<FitFigure> all;
  for (const auto& m : models) all.insert(all.end(), m.figures.begin(), m.figures.end());
  const FitResult result = fit_op_scale(all, kProfileRidge);
  if (free_parameters) *free_parameters = result.free_parameters;
  std::map<OpClass, double> scale;
  for (const auto& [c, s] : result.scale) scale[c] = round_significant(s, 5);
  return scale;
}

// Per op class: predicted = sum of host_c * s_c over rows; measured = each row's measured time
// split over its classes in proportion to their predicted shares (a row of one class: all of it).
std::vector<ClassResidual> class_residuals(const std::map<OpClass, double>& scale,
                                           const std::vector<Prepared>& models) {
  std::map<OpClass, ClassResidual> by_class;
  for (const auto& m : models)
    for (std::size_t k = 0; k < m.figures.size(); ++k) {
      const auto& row = m.match.rows[k];
      for (const auto& [c, h] : m.figures[k].host_s) {
        auto& r = by_class[c];
        const double predicted = h * scale.at(c);
        r.predicted_s += predicted;
        r.measured_s += row.measured_s * predicted / row.predicted_s;
      }
    }
  std::vector<ClassResidual> out;
  for (auto& [c, r] : by_class) {
    if (!(r.measured_s > 0.0)) continue;
    r.op_class = std::string(op_class_name(c));
    r.residual_pct = residual_pct(r.predicted_s, r.measured_s);
    out.push_back(r);
  }
  return out;
}

// Leave-one-model-out: each model's rows are marked unfitted in turn, which fit_op_scale skips
// (the others keep their order), so the scales are those of a fit on the other models alone;
// the held model's rows are predicted with them.
std::vector<HeldOutModel> held_out_models(std::vector<Prepared>& prepared) {
  std::vector<HeldOutModel> out;
  for (auto& held : prepared) {
    for (auto& f : held.figures) f.fitted = false;
    const auto scale = fitted_scales(prepared);
    for (auto& f : held.figures) f.fitted = true;
    HeldOutModel h;
    h.model = held.match.model;
    for (std::size_t k = 0; k < held.figures.size(); ++k) {
      const double measured_s = held.match.rows[k].measured_s;
      const double predicted_s = predict_s(scale, held.figures[k]);
      h.measured_s += measured_s;
      h.predicted_s += predicted_s;
      h.layer_error_pct.push_back(std::fabs(residual_pct(predicted_s, measured_s)));
    }
    h.end_to_end_error_pct = residual_pct(h.predicted_s, h.measured_s);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace

ProfileFit fit_profiles(const std::vector<ProfiledModel>& models, const HostProfileSource& source,
                        const FitRecord& record, bool held_out) {
  if (models.empty()) throw Error("fit_profiles: no profile");
  if (held_out && models.size() < 2)
    throw InputError(
        "", "--held-out",
        fmt::format("expected profiles of at least 2 models to leave one out, got {}", models.size()));
  std::vector<Prepared> prepared;
  for (const auto& m : models) prepared.push_back(prepare(m, source));
  ProfileFit fit;
  if (held_out) fit.held_out = held_out_models(prepared);
  const auto scale = fitted_scales(prepared, &fit.free_parameters);
  for (auto& p : prepared) predict_rows(scale, p);
  fit.classes = class_residuals(scale, prepared);
  for (auto& p : prepared) fit.models.push_back(std::move(p.match));
  for (const auto& [c, s] : scale) fit.op_scale[std::string(op_class_name(c))] = s;
  fit.record = record;
  return fit;
}

}  // namespace coinfer
