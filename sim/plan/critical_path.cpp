#include "sim/plan/critical_path.hpp"

#include <algorithm>
#include <limits>

namespace coinfer {

double analytic_task_s(const CompiledTask& task, const Topology& topology) {
  if (task.kind == TaskKind::Compute) return task.duration_s;
  return topology.nominal_transfer_s(*task.route, task.bytes);
}

AnalyticCost analytic_critical_path(const CompiledPlan& plan, const Topology& topology) {
  // finish[i] = weight(i) + max over deps d of finish[d], in topological order.
  const auto n = plan.size();
  constexpr auto kNone = std::numeric_limits<std::size_t>::max();
  std::vector<double> finish(n, 0.0);
  std::vector<std::size_t> via(n, kNone);
  for (auto i : plan.topo_order()) {
    for (auto d : plan.deps(i))
      if (via[i] == kNone || finish[d] > finish[via[i]]) via[i] = d;
    const double start = via[i] == kNone ? 0.0 : finish[via[i]];
    finish[i] = start + analytic_task_s(plan.task(i), topology);
  }
  AnalyticCost cost;
  std::size_t last = kNone;
  for (std::size_t i = 0; i < n; ++i)
    if (last == kNone || finish[i] > finish[last]) last = i;
  if (last == kNone) return cost;
  cost.latency_s = finish[last];
  for (auto i = last; i != kNone; i = via[i]) cost.path.push_back(plan.plan->tasks[i].id);
  std::reverse(cost.path.begin(), cost.path.end());
  return cost;
}

double analytic_latency_s(const Plan& plan, const Platform& platform) {
  const Topology topology(platform);
  return analytic_critical_path(compile_plan(plan, topology), topology).latency_s;
}

}  // namespace coinfer
