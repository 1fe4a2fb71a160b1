#pragma once
/// A plan: the task DAG every partitioner returns. A compute task runs for `duration_s` on a
/// device (the partitioner fills the duration from the cost model); a transfer moves `bytes`
/// from one device to another over a network. `deps` name tasks that must finish first and
/// follow the data: a compute task depends on tasks whose output is on its device (computes
/// there, transfers arriving there), a transfer on tasks whose output is on its source.
///
///     Plan plan{"remote", "", {
///         transfer_task("upload", "phone", "server", 150528, {}),
///         compute_task("infer", "server", 0.012, {"upload"}),
///         transfer_task("download", "server", "phone", 4000, {"infer"})}};
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/variant_facts.hpp"

namespace coinfer {

enum class TaskKind : std::uint8_t { Compute, Transfer };

struct Task {
  std::string id;
  TaskKind kind = TaskKind::Compute;
  std::string device;   ///< compute: where it runs
  std::string src;      ///< transfer: sender
  std::string dst;      ///< transfer: receiver
  std::string network;  ///< transfer: "" = the first network (file order) reaching both
  /// transfer: the logical channel it travels on, for networks paying wake-ups per channel
  /// (platform.hpp WakeUpPer). "" = the endpoint pair, `pair_channel(src, dst)`. A hop relayed
  /// through a third device names the pair it serves, e.g. `pair_channel("w1", "w2")` on w1 -> go.
  /// Opaque: transfers with equal names on one network share the channel.
  std::string channel;
  double bytes = 0.0;       ///< transfer size
  double duration_s = 0.0;  ///< compute time on `device`
  std::string label;        ///< what it is: a layer range, "input", "conv1..pool5", ...
  std::vector<std::string> deps;
  /// Ordering only: the task starts after these tasks finish, wherever their outputs live (no data
  /// moves, so no location check). E.g. two uploads of one boundary sent one after the other:
  /// `up2.after = {"up1"}`. JSON key `after` (written only when non-empty).
  std::vector<std::string> after;

  bool operator==(const Task&) const = default;
};

struct Plan {
  std::string name;
  std::string file;  ///< where it was loaded from ("" when built in code); names it in errors
  std::vector<Task> tasks;
  /// What schedulers and metrics read about the variant (variant_facts.hpp); null: nothing.
  /// Default-initialised so that `Plan{name, file, tasks}` stays a complete aggregate initialisation.
  std::shared_ptr<const VariantFacts> facts{};

  /// Equal tasks and equal facts (compared by their JSON).
  bool operator==(const Plan& other) const;
};

/// Why `plan` has no facts of `family`: "has no pipeline facts (it carries adalearner facts)".
std::string facts_mismatch(const Plan& plan, std::string_view family);

/// The facts of `plan` when they are family F's (F::kFamily), else null.
template <class F>
const F* facts_or_null(const Plan& plan) {
  return dynamic_cast<const F*>(plan.facts.get());
}

/// The facts of `plan` as family F's; throws `Error` ("plan variant 'p' has no pipeline facts (it
/// carries none)") when it carries another family's or none. Example:
/// `facts_of<PipelineFacts>(plan).tp_fps`.
template <class F>
const F& facts_of(const Plan& plan) {
  if (const F* f = facts_or_null<F>(plan)) return *f;
  throw Error(fmt::format("plan variant '{}' {}", plan.name, facts_mismatch(plan, F::kFamily)));
}

/// A compute task. Example: `compute_task("c1", "phone", 0.25, {}, "conv1..conv5")`.
Task compute_task(std::string id, std::string device, double duration_s, std::vector<std::string> deps,
                  std::string label = "");
/// The channel of an unordered device pair: the two names sorted, joined by '|'
/// (`pair_channel("w2", "w1") == "w1|w2"`). Device names cannot contain '|'.
std::string pair_channel(const std::string& a, const std::string& b);

/// Plan variants several users of a population share (simulate.hpp UserSource::shared): written
/// for one device, `stand_in`, in whose place each user's own device runs them (compiled_plan.hpp
/// StandIn). Identical phones on one cell plan alike: one shared copy costs its users nothing each,
/// where a plan each costs about 300 bytes a task (a Task holds seven strings). `stand_in` may name
/// one of the users' devices, or no device at all (kUserDevice).
struct SharedPlans {
  std::string stand_in;
  std::vector<Plan> variants;  ///< variant 0 first
};

/// The stand-in a scenario's shared plans name for the user's device (on a platform with a device of
/// that name, its users keep plans of their own).
inline constexpr const char* kUserDevice = "@user";

/// `channel` with device `from` made `to` on either side of a pair channel ("a|b", pair_channel):
/// `channel_with_device("phone|edge", "phone", "p7") == "edge|p7"`. Any other name is unchanged.
std::string channel_with_device(const std::string& channel, const std::string& from, const std::string& to);

/// `task` with device `from` made `to` wherever it names it: its device, source, destination and
/// either side of its channel (channel_with_device). Two users' plans that differ only in their
/// devices are equal once renamed, and can be shared (simulate.hpp UserSource::shared).
Task with_device(Task task, const std::string& from, const std::string& to);

/// A transfer task. Example: `transfer_task("up", "phone", "server", 602112, {"c1"}, "pool5")`.
Task transfer_task(std::string id, std::string src, std::string dst, double bytes,
                   std::vector<std::string> deps, std::string label = "", std::string network = "");

}  // namespace coinfer
