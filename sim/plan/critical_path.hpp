#pragma once
/// Analytic cost of a plan: the longest path through its DAG where a compute task weighs its
/// duration and a transfer weighs L + 8 S / R over its route at nominal rates (no contention,
/// no radio wake-up, devices never busy with another task). On an uncontended platform the
/// simulated latency of a single inference equals it.
///
///     AnalyticCost c = analytic_critical_path(compile_plan(plan, topo), topo);
///     c.latency_s; c.path;   // task ids along the critical path, first to last
#include <string>
#include <vector>

#include "sim/plan/compiled_plan.hpp"

namespace coinfer {

struct AnalyticCost {
  double latency_s = 0.0;
  std::vector<std::string> path;
};

/// Weight of one task alone: its duration, or its nominal transfer time.
double analytic_task_s(const CompiledTask& task, const Topology& topology);
AnalyticCost analytic_critical_path(const CompiledPlan& plan, const Topology& topology);
/// Validates, compiles and costs. Example: `analytic_latency_s(plan, platform)`.
double analytic_latency_s(const Plan& plan, const Platform& platform);

}  // namespace coinfer
