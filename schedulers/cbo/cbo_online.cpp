#include "schedulers/cbo/cbo_online.hpp"

#include <algorithm>
#include <numeric>

#include "schedulers/cbo/label_dp.hpp"

namespace coinfer::cbo {
namespace {

/// Algorithm 1 restricted to `resolutions` (empty: all), with its backtracking (lines 13-19).
OnlineSolution run_algorithm1(const Problem& problem, const std::vector<std::size_t>& order,
                              std::vector<std::size_t> resolutions, FrameWindow window) {
  detail::LabelDpOptions options;
  options.value = detail::LabelValue::kGain;
  options.resolutions = std::move(resolutions);
  options.skip_dead_frames = window == FrameWindow::kDeadline;
  options.prune_by_bound = window == FrameWindow::kDeadline;
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

/// Input indices of the frames that can be offloaded on time at some resolution, by descending
/// confidence (ties in input order): confidence_order without the expired frames.
std::vector<std::size_t> live_confidence_order(const Problem& problem) {
  const auto resolutions = [&] {
    std::vector<std::size_t> all(problem.resolutions());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }();
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < problem.frames.size(); ++i)
    if (detail::can_offload(problem, problem.frames[i], resolutions, problem.uplink_free_at_s))
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return problem.frames[a].confidence > problem.frames[b].confidence;
  });
  return order;
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

OnlineSolution solve_online(const Problem& problem, ResolutionPolicy policy, FrameWindow window) {
  // Bounded: the expired frames are left out before sorting (the DP would skip them anyway), and
  // the DP drops the labels the gain bound rules out.
  const auto order =
      window == FrameWindow::kDeadline ? live_confidence_order(problem) : confidence_order(problem);
  if (policy == ResolutionPolicy::kPerFrame) return run_algorithm1(problem, order, {}, window);
  OnlineSolution best;
  for (std::size_t r = 0; r < problem.resolutions(); ++r) {
    auto candidate = run_algorithm1(problem, order, {r}, window);
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
