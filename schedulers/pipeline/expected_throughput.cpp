#include "schedulers/pipeline/expected_throughput.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "schedulers/pipeline/quadrature.hpp"
#include "schedulers/pipeline/validate.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using pipeline_quadrature::integrate;
using pipeline_quadrature::log_survival;

constexpr std::size_t kMaxStages = 4096;  // a product over the stages is evaluated per quadrature point
constexpr double kTailSigmas = 12.0;      // Phi(-12) ~ 2e-33: the untruncated left tail beyond is nil

/// Sum over stages of ln P(B_i / D_i > x) = ln P(min_i B_i / D_i > x).
double log_all_survive(const ExpectedThroughputProblem& p, double x) {
  double sum = 0.0;
  for (std::size_t i = 0; i < p.stage_data.size() && sum > -INFINITY; ++i)
    sum += log_survival(p.bandwidth[i], p.stage_data[i], x, p.model);
  return sum;
}

/// Sorted integration points: [lo, hi] plus each stage's median throughput mean_i / D_i inside it
/// (the jump of a deterministic stage, the steepest place of a narrow one).
std::vector<double> break_points(const ExpectedThroughputProblem& p, double lo, double hi) {
  std::vector<double> points{lo, hi};
  for (std::size_t i = 0; i < p.stage_data.size(); ++i) {
    const double median = p.bandwidth[i].mean / p.stage_data[i];
    if (median > lo && median < hi) points.push_back(median);
  }
  std::sort(points.begin(), points.end());
  return points;
}

BandwidthTail parse_model(const Json& problem) {
  if (!json_find(problem, "bandwidth_model", "")) return BandwidthTail::clamped;
  const auto name = json_enum(problem, "bandwidth_model", "", {"clamped", "truncated", "untruncated"});
  if (name == "truncated") return BandwidthTail::truncated;
  return name == "untruncated" ? BandwidthTail::untruncated : BandwidthTail::clamped;
}

GaussianBandwidth parse_bandwidth(const Json& v, const std::string& path) {
  json_reject_unknown_keys(v, path, {"mean", "stddev"});
  return {json_number(v, "mean", path, 0.0, kPipelineMax), json_number(v, "stddev", path, 0.0, kPipelineMax)};
}

}  // namespace

ExpectedThroughputProblem parse_expected_throughput_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "",
                           {"compute_throughput", "stage_data", "bandwidth", "bandwidth_model", "comment"});
  ExpectedThroughputProblem p;
  p.compute_throughput_fps = pipeline_positive_number(problem, "compute_throughput");
  p.stage_data = json_number_array(problem, "stage_data", "", -1, 0.0, kPipelineMax);
  if (p.stage_data.empty()) throw InputError("", "stage_data", "expected at least 1 entry");
  if (p.stage_data.size() > kMaxStages)
    throw InputError("", "stage_data", fmt::format("expected at most {} entries", kMaxStages));
  for (std::size_t i = 0; i < p.stage_data.size(); ++i) {
    if (!(p.stage_data[i] > 0.0))
      throw InputError("", index_path("stage_data", i),
                       fmt::format("expected a number > 0, got {}", p.stage_data[i]));
    pipeline_positive_value(p.stage_data[i], index_path("stage_data", i));
  }
  const Json& bw = json_at(problem, "bandwidth", "");
  if (!bw.is_array())
    throw InputError("", "bandwidth", "expected an array of {\"mean\", \"stddev\"} objects");
  if (bw.size() != p.stage_data.size())
    throw InputError("", "bandwidth",
                     fmt::format("expected {} entries (one per stage_data entry), got {}",
                                 p.stage_data.size(), bw.size()));
  for (std::size_t i = 0; i < bw.size(); ++i)
    p.bandwidth.push_back(parse_bandwidth(bw[i], index_path("bandwidth", i)));
  p.model = parse_model(problem);
  return p;
}

double stage_survival(const GaussianBandwidth& bandwidth, double stage_data, double throughput_fps,
                      BandwidthTail model) {
  return std::exp(log_survival(bandwidth, stage_data, throughput_fps, model));
}

ExpectedThroughputSolution solve_expected_throughput(const ExpectedThroughputProblem& p) {
  const double tp = p.compute_throughput_fps;
  ExpectedThroughputSolution sol;
  // eq. 4: P1 = prod_i (1 - P_i(D_i Tp)).
  sol.p_compute_bound = std::exp(log_all_survive(p, tp));
  // eq. 6 in survival form: int_0^Tp P(min_i B_i / D_i > x) dx ...
  auto survive = [&](double x) { return std::exp(log_all_survive(p, x)); };
  double expected = integrate(survive, break_points(p, 0.0, tp));
  if (p.model == BandwidthTail::untruncated) {
    // ... minus int_-inf^0 P(T < x) dx for the negative throughputs eq. 5 admits.
    double lo = 0.0;
    for (std::size_t i = 0; i < p.stage_data.size(); ++i)
      lo = std::min(lo, (p.bandwidth[i].mean - kTailSigmas * p.bandwidth[i].stddev) / p.stage_data[i]);
    auto fail = [&](double x) { return -std::expm1(log_all_survive(p, x)); };
    if (lo < 0.0) expected -= integrate(fail, break_points(p, lo, 0.0));
  }
  sol.expected_throughput_fps = expected;
  return sol;
}

Json expected_throughput_solution_to_json(const ExpectedThroughputSolution& solution) {
  return Json{{"expected_throughput", solution.expected_throughput_fps},
              {"p_compute_bound", solution.p_compute_bound}};
}

Json solve_expected_throughput_json(const Json& problem) {
  return expected_throughput_solution_to_json(
      solve_expected_throughput(parse_expected_throughput_problem(problem)));
}

}  // namespace coinfer
