#include "schedulers/pipeline/expected_adaptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "schedulers/pipeline/quadrature.hpp"
#include "schedulers/pipeline/thresholds.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using pipeline_quadrature::integrate;
using pipeline_quadrature::log_survival;
using pipeline_quadrature::normal_upper;

constexpr double kInf = std::numeric_limits<double>::infinity();

ThresholdProblem threshold_problem(const AdaptiveExpectationProblem& p) {
  return {p.pipeline.compute_throughput_fps, p.pipeline.stage_data[p.stage], p.ratios, p.accuracies};
}

/// P(low < B < high) for the adaptive stage's bandwidth, low >= 0 (clamped: the Gaussian itself
/// above 0; truncated: renormalised). A deterministic bandwidth is in the region iff low < mean
/// < high, or mean == high == the region's own upper end chosen by `owns_mean`.
double probability_between(const GaussianBandwidth& bw, double low, double high, BandwidthTail model,
                           bool owns_mean) {
  if (!(high > low)) return 0.0;
  if (bw.stddev == 0.0) return owns_mean && bw.mean > low ? 1.0 : 0.0;
  const double up = normal_upper((low - bw.mean) / bw.stddev);
  const double beyond = std::isinf(high) ? 0.0 : normal_upper((high - bw.mean) / bw.stddev);
  double p = std::max(0.0, up - beyond);
  if (model == BandwidthTail::truncated) p /= normal_upper(-bw.mean / bw.stddev);
  return std::min(p, 1.0);
}

/// E[nu_k T 1{B_s in region}] by the survival form over [0, Tp].
double region_term(const AdaptiveExpectationProblem& p, const AdaptiveRegion& r, bool owns_mean) {
  const auto& pl = p.pipeline;
  const double d = pl.stage_data[p.stage] / r.ratio;  // data sent per frame in this region
  const double tp = pl.compute_throughput_fps;
  auto survive = [&](double x) {
    double log_rest = 0.0;
    for (std::size_t i = 0; i < pl.stage_data.size() && log_rest > -kInf; ++i)
      if (i != p.stage) log_rest += log_survival(pl.bandwidth[i], pl.stage_data[i], x, pl.model);
    if (log_rest == -kInf) return 0.0;
    return std::exp(log_rest) *
           probability_between(pl.bandwidth[p.stage], std::max(x * d, r.from), r.to, pl.model, owns_mean);
  };
  std::vector<double> points{0.0, tp};
  auto add = [&](double x) {
    if (x > 0.0 && x < tp) points.push_back(x);
  };
  add(r.from / d);
  if (!std::isinf(r.to)) add(r.to / d);
  add(pl.bandwidth[p.stage].mean / d);
  for (std::size_t i = 0; i < pl.stage_data.size(); ++i) add(pl.bandwidth[i].mean / pl.stage_data[i]);
  std::sort(points.begin(), points.end());
  return integrate(survive, points);
}

}  // namespace

AdaptiveExpectationProblem parse_adaptive_expectation_problem(const Json& problem) {
  if (!problem.is_object()) throw InputError("", "", "expected a JSON object");
  Json base = problem;
  base.erase("adaptive");
  AdaptiveExpectationProblem p;
  p.pipeline = parse_expected_throughput_problem(base);
  if (p.pipeline.model == BandwidthTail::untruncated)
    throw InputError("", "bandwidth_model", "expected clamped or truncated with adaptive compression");
  const Json& a = json_at(problem, "adaptive", "");
  json_reject_unknown_keys(a, "adaptive", {"stage", "ratios", "accuracies"});
  p.stage = static_cast<std::size_t>(
      json_int(a, "stage", "adaptive", 0, static_cast<std::int64_t>(p.pipeline.stage_data.size()) - 1));
  try {
    const auto t =
        parse_threshold_problem(Json{{"compute_throughput", p.pipeline.compute_throughput_fps},
                                     {"stage_data", p.pipeline.stage_data[p.stage]},
                                     {"ratios", a.contains("ratios") ? a["ratios"] : Json()},
                                     {"accuracies", a.contains("accuracies") ? a["accuracies"] : Json()}});
    p.ratios = t.ratios;
    p.accuracies = t.accuracies;
  } catch (const InputError& e) {
    throw InputError("", join_path("adaptive", e.path()), e.message());
  }
  return p;
}

std::vector<AdaptiveRegion> adaptive_regions(const AdaptiveExpectationProblem& p) {
  const ThresholdProblem t = threshold_problem(p);
  // Every pairwise eq. 3 threshold is a place where the best ratio may change; between two
  // consecutive ones the choice is constant (each ratio's value is linear, then flat, in b).
  std::vector<double> cuts{0.0};
  for (std::size_t a = 0; a < p.ratios.size(); ++a)
    for (std::size_t b = a + 1; b < p.ratios.size(); ++b)
      if (auto th = ratio_threshold(t.compute_throughput_fps, t.stage_data, p.ratios[a], p.accuracies[a],
                                    p.ratios[b], p.accuracies[b]);
          th && *th > 0.0)
        cuts.push_back(*th);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<AdaptiveRegion> regions;
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    const double lo = cuts[c], hi = c + 1 < cuts.size() ? cuts[c + 1] : kInf;
    const double probe = std::isinf(hi) ? lo * 2.0 + 1.0 : 0.5 * (lo + hi);
    const auto k = select_ratio_index(t, probe);
    if (!regions.empty() && regions.back().ratio == p.ratios[k]) {
      regions.back().to = hi;
      continue;
    }
    regions.push_back({lo, hi, p.ratios[k], p.accuracies[k]});
  }
  return regions;
}

AdaptiveExpectationSolution solve_adaptive_expectation(const AdaptiveExpectationProblem& p) {
  AdaptiveExpectationSolution sol;
  sol.regions = adaptive_regions(p);
  const auto& bw = p.pipeline.bandwidth[p.stage];
  const auto chosen = select_ratio_index(threshold_problem(p), bw.mean);  // deterministic bandwidth
  for (const auto& r : sol.regions) {
    const bool owns_mean = r.ratio == p.ratios[chosen];
    const double t = region_term(p, r, owns_mean);
    sol.expected_throughput_fps += t;
    sol.expected_accurate_throughput_fps += r.accuracy * t;
  }
  return sol;
}

Json solve_adaptive_expectation_json(const Json& problem) {
  const auto sol = solve_adaptive_expectation(parse_adaptive_expectation_problem(problem));
  Json regions = Json::array();
  for (const auto& r : sol.regions)
    regions.push_back(
        {{"from", r.from}, {"to", std::isinf(r.to) ? Json(nullptr) : Json(r.to)}, {"ratio", r.ratio}});
  return {{"expected_throughput", sol.expected_throughput_fps},
          {"expected_accurate_throughput", sol.expected_accurate_throughput_fps},
          {"regions", std::move(regions)}};
}

}  // namespace coinfer
