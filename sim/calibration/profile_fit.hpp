#pragma once
/// Fitting a device calibration from per-layer latencies measured on that device
/// (`coinfer calibrate --from-profile`), and predicting models left out of the fit.
///
/// 1. Match: each profile row to one layer of the model it was measured on, by name when every
///    row's name is a layer name, else by order over the model's layers with work (all but
///    `input`). In order, a row's op type (torch `aten::conv2d`, TFLite `CONV_2D`; none in a csv)
///    must fit the next layer; a layer it does not fit that can run inside the op before it
///    (batch_norm, an activation, dropout, flatten) is covered by the previous row, which is then
///    reported as fused (conv + batch_norm + relu in one TFLite node), never guessed silently;
///    any other misfit, or a row with no layer left, is an `InputError` naming the file and line.
/// 2. Fit: every matched row is a figure (its measured time against its layers' host time per op
///    class, sim/calibration/fit.hpp) and the op_scale is fitted over all profiles together.
/// 3. Report: residual per layer and per op class (sum of predicted over sum of measured).
///
///     std::vector<ProfiledModel> in{{graph, read_profile("resnet18.csv", ProfileFormat::Csv)}};
///     ProfileFit fit = fit_profiles(in, source, record);
///     fit.op_scale.at("conv");   fit.models[0].rows[0].residual_pct;
#include <map>
#include <string>
#include <vector>

#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/profile_import.hpp"
#include "sim/graph/graph.hpp"

namespace coinfer {

struct ProfiledModel {
  std::string model;  ///< the model name as given (zoo name or file)
  Graph graph;
  Profile profile;
};

/// One matched row: the profile row and the layers of ours it covers (several: a fused op).
struct MatchedRow {
  ProfileRow row;
  std::vector<std::string> layers;
  double measured_s = 0.0;
  double host_s = 0.0;
  double predicted_s = 0.0;  ///< with the fitted op_scale
  double residual_pct = 0.0;
};

struct ModelMatch {
  std::string model;
  std::string match_by;                ///< "name" or "order"
  std::vector<MatchedRow> rows;        ///< in profile order
  std::vector<std::string> fused;      ///< one line per fused row: "row 'x' (line N) covers a, b"
  std::vector<std::string> unmatched;  ///< our layers with work that no row covers
};

struct ClassResidual {
  std::string op_class;
  double measured_s = 0.0;
  double predicted_s = 0.0;
  double residual_pct = 0.0;
};

/// Leave-one-model-out: a model predicted with the scales fitted on the other models alone.
struct HeldOutModel {
  std::string model;
  double measured_s = 0.0;              ///< sum of the matched rows' measured time
  double predicted_s = 0.0;             ///< with the scales fitted without this model
  double end_to_end_error_pct = 0.0;    ///< 100 * (predicted - measured) / measured
  std::vector<double> layer_error_pct;  ///< per matched row, |pred - meas| / meas * 100
};

struct ProfileFit {
  std::vector<ModelMatch> models;
  std::map<std::string, double> op_scale;  ///< every op class (unfitted classes: the common scale)
  std::vector<ClassResidual> classes;
  int free_parameters = 0;
  FitRecord record;
  std::vector<HeldOutModel> held_out;  ///< one per model, in order, when asked for (else empty)
};

/// Matches one profile to its model's layers; throws `InputError` when no row matches.
ModelMatch match_profile(const ProfiledModel& model);
/// Matches and fits every profile together (host times from `source`). With `held_out`, also
/// leaves each model out in turn (`ProfileFit::held_out`); that needs two models or more, else
/// `InputError` ("--held-out").
ProfileFit fit_profiles(const std::vector<ProfiledModel>& models, const HostProfileSource& source,
                        const FitRecord& record, bool held_out = false);

}  // namespace coinfer
