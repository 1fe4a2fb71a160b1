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
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/plan/plan.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer {

/// A task with names resolved to indices, as `CompiledPlan::task` assembles it from the plan's
/// shape and its placement. Its dependencies and successors are ranges of PlanShape::indices,
/// read with `plan.deps(i)` and `plan.succs(i)`.
struct CompiledTask {
  TaskKind kind = TaskKind::Compute;
  bool first_stage = false;
  std::uint32_t device = 0;      ///< compute: its device; transfer: the destination (where output lives)
  std::uint32_t src = 0;         ///< transfer
  std::uint32_t dst = 0;         ///< transfer
  const Route* route = nullptr;  ///< transfer
  double bytes = 0.0;
  double duration_s = 0.0;
  std::uint32_t deps_begin = 0;  ///< where its dependencies start in PlanShape::indices
  std::uint32_t deps_size = 0;
  std::uint32_t succs_begin = 0;  ///< where its successors start in PlanShape::indices
  std::uint32_t succs_size = 0;
};

/// What a compiled plan holds whichever device runs its tasks: their kinds, sizes, durations,
/// dependencies and orders. The users of one shared plan (simulate.hpp UserSource::shared) hold one
/// between them (`CompiledPlan::share_shape`).
struct PlanShape {
  struct Task {
    TaskKind kind = TaskKind::Compute;
    bool first_stage = false;
    std::uint32_t deps_begin = 0;
    std::uint32_t deps_size = 0;
    std::uint32_t succs_begin = 0;
    std::uint32_t succs_size = 0;
    double bytes = 0.0;
    double duration_s = 0.0;
    bool operator==(const Task&) const = default;
  };
  std::vector<Task> tasks;  ///< same order as the plan's tasks
  /// Every task's dependencies, then every task's successors, then the entries, then the
  /// topological order: one allocation for all of a plan's index lists.
  std::vector<std::uint32_t> indices;
  std::uint32_t entries_begin = 0;
  std::uint32_t entries_size = 0;
  std::uint32_t topo_begin = 0;
  std::uint32_t first_stage_size = 0;
  bool operator==(const PlanShape&) const = default;

  std::span<const std::uint32_t> succs(std::size_t task) const {
    return {indices.data() + tasks[task].succs_begin, tasks[task].succs_size};
  }
  std::span<const std::uint32_t> entries() const { return {indices.data() + entries_begin, entries_size}; }
};

/// Where a task runs (16 bytes: a population keeps one per task of every user's plan).
struct TaskPlacement {
  std::uint32_t device = 0;      ///< compute: its device; transfer: the destination
  const Route* route = nullptr;  ///< transfer (its src and dst are the transfer's)
};

struct CompiledPlan {
  const Plan* plan = nullptr;
  std::shared_ptr<const PlanShape> shape;
  std::vector<TaskPlacement> placements;  ///< same order as plan->tasks
  /// Per task, for transfers on a network paying wake-ups per channel: Task::channel, or the
  /// endpoint pair when it has none. Empty when no task is on such a network.
  std::vector<std::string> channels;

  std::size_t size() const { return placements.size(); }
  CompiledTask task(std::size_t i) const { return assemble(shape->tasks[i], placements[i]); }
  /// A task from its shape and its placement (what `task` reads through the plan).
  static CompiledTask assemble(const PlanShape::Task& s, const TaskPlacement& p) {
    const bool transfer = s.kind == TaskKind::Transfer;
    return {s.kind,
            s.first_stage,
            p.device,
            transfer ? static_cast<std::uint32_t>(p.route->src) : 0u,
            transfer ? static_cast<std::uint32_t>(p.route->dst) : 0u,
            p.route,
            s.bytes,
            s.duration_s,
            s.deps_begin,
            s.deps_size,
            s.succs_begin,
            s.succs_size};
  }
  std::span<const std::uint32_t> deps(std::size_t task) const {
    const PlanShape::Task& s = shape->tasks[task];
    return {shape->indices.data() + s.deps_begin, s.deps_size};
  }
  std::span<const std::uint32_t> succs(std::size_t task) const { return shape->succs(task); }
  /// Tasks without dependencies, in plan order.
  std::span<const std::uint32_t> entries() const { return shape->entries(); }
  /// A topological order (stable: plan order on ties).
  std::span<const std::uint32_t> topo_order() const {
    return {shape->indices.data() + shape->topo_begin, size()};
  }
  /// How many tasks are in the first stage (see the top of this file).
  std::uint32_t first_stage_size() const { return shape->first_stage_size; }
  /// The channel of task `task` ("" unless it is a transfer on a network paying wake-ups per channel).
  const std::string& channel(std::size_t task) const;
  /// Holds `other`'s shape in place of its own when the two are equal (same kinds, sizes,
  /// durations, dependencies and first stage): then the two plans cost one shape.
  void share_shape(const CompiledPlan& other);
};

/// A device a plan names on behalf of another: a plan several users share (simulate.hpp
/// UserSource::shared) is written for one device, `name`, and each user compiles it with its own
/// device, `device`, in that one's place (in channels too, as channel_with_device). `name` need not
/// be a platform device. Empty: none.
struct StandIn {
  std::string name;
  std::size_t device = 0;  ///< the platform device taking its place
};

/// Validates and compiles; `plan` and `topology` must outlive the result. With a `stand_in`, the
/// tasks naming `stand_in.name` run on `stand_in.device` instead.
CompiledPlan compile_plan(const Plan& plan, const Topology& topology, const StandIn& stand_in = {});
/// Validation only. Example: `validate_plan(plan, platform);` throws on the first problem.
void validate_plan(const Plan& plan, const Platform& platform);

}  // namespace coinfer
