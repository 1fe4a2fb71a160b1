#pragma once
/// Validation and compilation of a plan against a platform: names become indices, transfers
/// get their route, the DAG gets a topological order.
///
/// Checks (each an `InputError(plan.file, "tasks[i]...", ...)`, or "plan 'name'" when the plan
/// has no file): empty plan, empty or duplicate ids, unknown devices, unknown or unreachable
/// networks, a transfer to itself or between unconnected devices, negative or non-finite
/// durations and sizes, unknown or repeated dependencies, dependencies whose output lives on
/// another device than the one that needs it, and cycles (the error shows the cycle).
///
/// The *first stage* of a plan (what a stream's drop policy watches) is its entry tasks (no
/// dependencies) plus every compute task whose dependencies are all first-stage compute tasks
/// on its own device: e.g. all of a local plan, the upload of a remote plan.
///
///     Topology topo(platform);
///     CompiledPlan cp = compile_plan(plan, topo);
#include <cstddef>
#include <string>
#include <vector>

#include "sim/plan/plan.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer {

struct CompiledTask {
  TaskKind kind = TaskKind::Compute;
  std::size_t device = 0;        ///< compute: its device; transfer: the destination (where output lives)
  std::size_t src = 0;           ///< transfer
  std::size_t dst = 0;           ///< transfer
  const Route* route = nullptr;  ///< transfer
  /// transfer on a network paying wake-ups per channel: Task::channel, or the endpoint pair when
  /// it has none ("" on other networks: no channel state is kept there).
  std::string channel;
  double bytes = 0.0;
  double duration_s = 0.0;
  std::vector<std::size_t> deps;
  std::vector<std::size_t> succs;
  bool first_stage = false;
};

struct CompiledPlan {
  const Plan* plan = nullptr;
  std::vector<CompiledTask> tasks;      ///< same order as plan->tasks
  std::vector<std::size_t> entries;     ///< tasks without dependencies
  std::vector<std::size_t> topo_order;  ///< a topological order (stable: plan order on ties)
  std::size_t first_stage_size = 0;
};

/// Validates and compiles; `plan` and `topology` must outlive the result.
CompiledPlan compile_plan(const Plan& plan, const Topology& topology);
/// Validation only. Example: `validate_plan(plan, platform);` throws on the first problem.
void validate_plan(const Plan& plan, const Platform& platform);

}  // namespace coinfer
