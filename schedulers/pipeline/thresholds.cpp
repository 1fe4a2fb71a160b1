#include "schedulers/pipeline/thresholds.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "schedulers/pipeline/validate.hpp"
#include "sim/core/error.hpp"

namespace coinfer {

ThresholdProblem parse_threshold_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "",
                           {"compute_throughput", "stage_data", "ratios", "accuracies", "comment"});
  ThresholdProblem p;
  p.compute_throughput_fps = pipeline_positive_number(problem, "compute_throughput");
  p.stage_data = pipeline_positive_number(problem, "stage_data");
  // gamma = original / compressed size (sec. IV-C), so gamma >= 1; a fraction here usually means
  // "compressed / original" was given instead.
  p.ratios = json_number_array(problem, "ratios", "", -1, 1.0, kPipelineMax);
  if (p.ratios.empty()) throw InputError("", "ratios", "expected at least 1 entry");
  for (std::size_t k = 1; k < p.ratios.size(); ++k)
    if (!(p.ratios[k] < p.ratios[k - 1]))
      throw InputError(
          "", index_path("ratios", k),
          fmt::format("expected ratios strictly descending, got {} after {}", p.ratios[k], p.ratios[k - 1]));
  p.accuracies = json_number_array(problem, "accuracies", "", static_cast<long>(p.ratios.size()), 0.0, 1.0);
  return p;
}

double effective_throughput(double compute_throughput_fps, double stage_data, double ratio, double accuracy,
                            double bandwidth) {
  return accuracy * std::min(compute_throughput_fps, bandwidth * ratio / stage_data);
}

std::optional<double> ratio_threshold(double compute_throughput_fps, double stage_data, double left_ratio,
                                      double left_accuracy, double right_ratio, double right_accuracy) {
  // f(b) = nu * min(Tp, b * gamma / D) for each side (see the header); gamma_l > gamma_r.
  // - nu_r <= nu_l: f_r <= f_l everywhere (less throughput, no better accuracy): never switch.
  if (!(right_accuracy > left_accuracy)) return std::nullopt;
  // - nu_l * gamma_l < nu_r * gamma_r: already below saturation f_r = nu_r gamma_r b / D beats
  //   f_l <= nu_l gamma_l b / D, and above it f_l <= nu_l Tp < nu_r Tp: right wins for every b > 0.
  if (left_accuracy * left_ratio < right_accuracy * right_ratio) return 0.0;
  // - otherwise left saturates first (at Tp D / gamma_l) while it still wins, and right catches up
  //   before it saturates (at Tp D / gamma_r), where Tp nu_l = (gamma_r theta / D) nu_r, i.e.
  //   eq. 3 of Hu & Krishnamachari: theta* = Tp * D * nu_l / (gamma_r * nu_r). Both conditions
  //   above place theta* in [Tp D / gamma_l, Tp D / gamma_r], as the paper argues for Fig. 2.B.
  return compute_throughput_fps * stage_data * left_accuracy / (right_ratio * right_accuracy);
}

ThresholdSolution solve_thresholds(const ThresholdProblem& problem) {
  ThresholdSolution sol;
  for (std::size_t k = 0; k + 1 < problem.ratios.size(); ++k)
    sol.thresholds.push_back(ratio_threshold(problem.compute_throughput_fps, problem.stage_data,
                                             problem.ratios[k], problem.accuracies[k], problem.ratios[k + 1],
                                             problem.accuracies[k + 1]));
  return sol;
}

std::size_t select_ratio_index(const ThresholdProblem& problem, double bandwidth) {
  std::size_t best = 0;
  double best_value = -1.0;
  for (std::size_t k = 0; k < problem.ratios.size(); ++k) {
    const double value = effective_throughput(problem.compute_throughput_fps, problem.stage_data,
                                              problem.ratios[k], problem.accuracies[k], bandwidth);
    if (value > best_value) {
      best_value = value;
      best = k;
    }
  }
  return best;
}

Json threshold_solution_to_json(const ThresholdSolution& solution) {
  Json thresholds = Json::array();
  for (const auto& t : solution.thresholds) thresholds.push_back(t ? Json(*t) : Json(nullptr));
  return Json{{"thresholds", thresholds}};
}

Json solve_thresholds_json(const Json& problem) {
  return threshold_solution_to_json(solve_thresholds(parse_threshold_problem(problem)));
}

}  // namespace coinfer
