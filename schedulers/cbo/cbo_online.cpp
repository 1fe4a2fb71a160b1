#include "schedulers/cbo/cbo_online.hpp"

#include <algorithm>
#include <numeric>

#include "schedulers/cbo/label_dp.hpp"

namespace coinfer::cbo {
namespace {

/// Algorithm 1 restricted to `resolutions` (empty: all), with its backtracking (lines 13-19).
OnlineSolution run_algorithm1(const Problem& problem, const std::vector<std::size_t>& order,
                              std::vector<std::size_t> resolutions) {
  detail::LabelDpOptions options;
  options.value = detail::LabelValue::kGain;
  options.resolutions = std::move(resolutions);
  const auto dp = detail::run_label_dp(problem, order, options);

  OnlineSolution out;
  out.improvement = dp.best_value;
  out.peak_front = dp.peak_front;
  for (const std::size_t i : order) {
    if (dp.decisions[i] == kLocal) continue;
    out.offload.push_back(i);
    out.offload_resolutions.push_back(dp.decisions[i]);
  }
  // Walking back from l_k, the last assignment theta <- p_j, r^o <- r is made at the most
  // confident offloaded frame, which comes first in the processing order.
  if (!out.offload.empty()) {
    out.threshold = problem.frames[out.offload.front()].confidence;
    out.resolution = out.offload_resolutions.front();
  }
  return out;
}

}  // namespace

std::vector<std::size_t> confidence_order(const Problem& problem) {
  std::vector<std::size_t> order(problem.frames.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return problem.frames[a].confidence > problem.frames[b].confidence;
  });
  return order;
}

OnlineSolution solve_online(const Problem& problem, ResolutionPolicy policy) {
  const auto order = confidence_order(problem);
  if (policy == ResolutionPolicy::kPerFrame) return run_algorithm1(problem, order, {});
  OnlineSolution best;
  for (std::size_t r = 0; r < problem.resolutions(); ++r) {
    auto candidate = run_algorithm1(problem, order, {r});
    candidate.peak_front = std::max(candidate.peak_front, best.peak_front);
    if (r == 0 || candidate.improvement > best.improvement) {
      best = std::move(candidate);
    } else {
      best.peak_front = candidate.peak_front;
    }
  }
  return best;
}

Json to_json(const OnlineSolution& solution) {
  return Json{{"threshold", solution.threshold},
              {"resolution", solution.resolution},
              {"improvement", solution.improvement},
              {"offload", solution.offload},
              {"resolutions", solution.offload_resolutions}};
}

Json solve_online_json(const Json& problem) {
  const auto parsed = parse_problem(problem, {"resolution_policy"});
  const auto policy_name = json_find(problem, "resolution_policy", "")
                               ? json_enum(problem, "resolution_policy", "", {"per_frame", "uniform"})
                               : std::string("per_frame");
  const auto policy = policy_name == "uniform" ? ResolutionPolicy::kUniform : ResolutionPolicy::kPerFrame;
  return to_json(solve_online(parsed, policy));
}

}  // namespace coinfer::cbo
