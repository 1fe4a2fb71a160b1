#pragma once
/// The partitioner interface: a partitioner maps a model on a platform to a Plan. It sees the
/// inferred graph, the platform (devices with calibrations, networks) and the cost model, and
/// fills each compute task's duration from the cost model. Partitioners live under
/// partitioners/, register by name with the schema of their parameters, and take them from the
/// scenario's `partitioner:` mapping (every key except `name`), validated against that schema
/// (`partitioner.<key>` in errors) and with defaults filled before the factory runs.
///
///     class Local : public Partitioner {
///       Plan partition(const PartitionContext& ctx) const override { ... }
///     };
///     registry.add("local", "everything on one device",
///                  ParamSchema{ParamSpec::string("device", "the device (unset: the source)")},
///                  [](const Json& params) { ... });
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/core/registry.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/graph/graph.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer {

struct PartitionContext {
  const Graph& graph;
  const Platform& platform;
  const CostModel& cost;
  /// The device where the input starts and the output must end (the scenario's `source`,
  /// default the first device of the platform).
  std::string source;
  /// The cost model of `batch` inputs run together (every layer's host time measured or
  /// estimated at that batch size: profiler.hpp `ProfileOptions::batch`, host_estimate.hpp), on
  /// the same host basis as `cost`. Empty where the caller offers none: a partitioner asked for a
  /// batch > 1 then throws `InputError`. Scenarios fill it.
  std::function<CostModel(std::int64_t batch)> batch_cost{};
  /// The cost model of every layer's backward pass (training plans), carried from `forward` (a
  /// forward profile on `cost`'s basis: `cost.profile()` or a `batch_cost`'s) with each layer's
  /// backward / forward ratio (backward_estimate.hpp `backward_profile_of`): the ratio of this
  /// host's real kernels (profile_backward over profile_model) when the scenario profiles
  /// measured, the estimate's otherwise. Empty where the caller offers none: partitioners then
  /// use the estimate's ratio. Scenarios fill it.
  std::function<CostModel(const HostProfile& forward)> backward_cost{};
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  /// Throws `InputError` (path under `partitioner`) when the problem is infeasible for it.
  virtual Plan partition(const PartitionContext& context) const = 0;
  /// Throws `InputError` (path under `partitioner`, or the model's `layers[i]`) for a model it
  /// can never plan, whatever the platform and costs: scenarios call it on each partitioner
  /// they plan with (the scenario's, or each user group's) before measuring the host profile, so that such a
  /// scenario fails at once instead of after the profiling (minutes for a large model). `partition` must
  /// still throw the same error (callers without a scenario call only that). Default: any model.
  virtual void check_model(const Graph& graph) const { (void)graph; }
  /// Every labelled plan variant it offers (DESIGN "Runtime decisions"): variant 0, the default,
  /// first; the others for schedulers to switch to (one per compression ratio, per bandwidth
  /// cell, ...), each carrying `Plan::facts` (its family's typed facts, e.g. partitioners/pipeline/
  /// pipeline_facts.hpp) that schedulers and metrics read. Default: the single plan of `partition`.
  virtual std::vector<Plan> partition_variants(const PartitionContext& context) const {
    return {partition(context)};
  }
  /// Whether, on `context`'s platform, its plans for two sources alike (copies of one `count`
  /// group, endpoints of the same networks in the same places) are each other's with the two
  /// names swapped: true when its plan depends on the source only through the source's device
  /// and networks, never through its name or its place in the platform's order. A population
  /// then plans once per kind of user (population.hpp PlanMemo). Default: false, every user is
  /// planned.
  virtual bool plans_alike_sources_alike(const PartitionContext& context) const {
    (void)context;
    return false;
  }
};

using PartitionerRegistry = Registry<Partitioner>;

/// Wraps a function `Plan(const PartitionContext&)` as a Partitioner.
template <class Fn>
std::unique_ptr<Partitioner> make_partitioner(Fn fn) {
  struct FnPartitioner : Partitioner {
    explicit FnPartitioner(Fn f) : f_(std::move(f)) {}
    Plan partition(const PartitionContext& context) const override { return f_(context); }
    Fn f_;
  };
  return std::make_unique<FnPartitioner>(std::move(fn));
}

/// Wraps a function `std::vector<Plan>(const PartitionContext&)` (at least one plan, variant 0
/// first) as a Partitioner whose `partition` is variant 0.
template <class Fn>
std::unique_ptr<Partitioner> make_variant_partitioner(Fn fn) {
  struct FnPartitioner : Partitioner {
    explicit FnPartitioner(Fn f) : f_(std::move(f)) {}
    Plan partition(const PartitionContext& context) const override { return f_(context).front(); }
    std::vector<Plan> partition_variants(const PartitionContext& context) const override {
      return f_(context);
    }
    Fn f_;
  };
  return std::make_unique<FnPartitioner>(std::move(fn));
}

}  // namespace coinfer
