#pragma once
/// A scenario: model, platform, partitioner, scheduler, workload, seed and outputs, read from
/// YAML (schema in README "Scenario files"). Parsing checks every key where it enters; running
/// profiles the model, builds the cost model, asks the partitioner for a plan and replays it.
///
///     name: quickstart
///     model: vgg16                          # zoo name or model JSON (relative to this file)
///     platform: ../platforms/edge.yaml      # file (relative to this file) or inline mapping
///     source: phone                         # where the input starts (default: first device)
///     users: [{device: phone, phase: random}]   # or a population instead (population.hpp)
///     host_profile: {basis: measured, repeats: 5}   # or basis: estimate (MACs-based, nominal host)
///     partitioner: {name: remote, server: gpu, network: wifi}
///     scheduler: {name: none}
///     workload: {kind: stream, rate_fps: 2, frames: 20}
///     seed: 1
///     outputs: {frames_csv: true, trace: false, stages: false}   # stages: per-stage metrics
///     compare:                              # optional: run variants side by side
///       - {label: local, set: {partitioner: {name: local}}}
///     report: {title, source, rows: [..]}   # optional: ours next to a paper's (reference_report.hpp)
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/plan/plan.hpp"
#include "sim/replay/simulation_result.hpp"
#include "sim/scenario/compare.hpp"
#include "sim/scenario/partitioner.hpp"
#include "sim/scenario/population.hpp"
#include "sim/scenario/scheduler_registry.hpp"

namespace coinfer {

struct ScenarioSpec {
  std::string name;
  std::string file;                    ///< the YAML it came from (errors name it)
  Json doc;                            ///< the document, overrides applied
  std::vector<std::string> overrides;  ///< `--set key=value` (also applied to every compare variant)
  std::string model;                   ///< zoo name, or a model file resolved against the scenario's folder
  std::string platform_file;           ///< resolved path, or empty when inline
  Json platform_inline;                ///< inline platform mapping
  std::string source;                  ///< empty: the platform's first device
  std::vector<UserGroupSpec> users;    ///< a population (population.hpp) instead of one source
  std::string profile_basis = "measured";  ///< "measured" (real kernels) or "estimate"
  int profile_repeats = 5;
  std::string partitioner;
  Json partitioner_params = Json::object();
  bool expected_share =
      false;  ///< `partitioner.expected_share`: a population plans on its shares (population.hpp)
  std::string scheduler = "none";
  Json scheduler_params = Json::object();
  Json workload = Json{{"kind", "single"}};
  std::uint64_t seed = 0;
  bool frames_csv = false;
  bool trace = false;
  bool stages = false;  ///< add stage_metrics (sim/metrics/stage_metrics.hpp) to the results
  std::vector<CompareEntry> compare;
  Json report;  ///< the `report:` block (null when absent), checked against the compare labels
};

/// Checks the scenario document; errors read `file: partitioner.name: ...`. A partitioner or
/// scheduler parameter named `file` is a path relative to the scenario's folder.
ScenarioSpec parse_scenario(const Json& doc, const std::string& file);

/// Reads a scenario YAML and applies `--set key=value` overrides before checking it.
/// Example: `load_scenario("s.yaml", {"partitioner.name=local"})`.
ScenarioSpec load_scenario(const std::string& file, const std::vector<std::string>& overrides);

/// What `load_scenario(file, overrides)` gives when `file` holds `doc`, without reading it (a sweep's
/// run, whose scenario the sweep has in memory).
ScenarioSpec scenario_from_document(Json doc, const std::string& file,
                                    const std::vector<std::string>& overrides);

/// The spec of one `compare` entry: the document with `compare` removed, the entry's `set`
/// applied, then the spec's `--set` overrides again (so `--set` reaches every variant).
/// Errors name the variant: `s.yaml: compare variant 'lte': partitioner.name: ...`.
ScenarioSpec compare_variant(const ScenarioSpec& spec, const CompareEntry& entry);

/// Throws the same `InputError` with the variant named in front of its key path.
[[noreturn]] void rethrow_for_variant(const InputError& e, const ScenarioSpec& spec,
                                      const std::string& label);

/// The scenario's model and platform, loaded and checked, and its source device.
struct ScenarioInputs {
  Graph graph;
  Platform platform;
  std::string source;
};

/// Loads the model and the platform and checks the source device; errors name the scenario's key
/// (`s.yaml: model: ...`) or the file at fault. No profiling, no simulation.
ScenarioInputs load_scenario_inputs(const ScenarioSpec& spec);

/// The scenario exactly as it ran: the document with every path absolute, the source device,
/// host profile, workload and seed spelt out, and the partitioner's and scheduler's parameters
/// with their defaults filled (`coinfer list` documents them). results.json keeps it as
/// `resolved_scenario`, so a result file says what produced it.
Json resolved_scenario(const ScenarioSpec& spec, const std::string& source,
                       const PartitionerRegistry& partitioners, const SchedulerRegistry& schedulers);

/// Creates the scenario's partitioner and scheduler from their registries, so an unknown name or
/// a bad parameter fails before any work (`s.yaml: partitioner.workers: ...`).
void check_scenario_components(const ScenarioSpec& spec, const PartitionerRegistry& partitioners,
                               const SchedulerRegistry& schedulers);

/// What a partitioner produced for a scenario, before any simulation.
struct ScenarioPlan {
  Graph graph;
  Platform platform;
  std::string source;
  Plan plan;                   ///< variant 0 (a population: user 0's plan)
  std::vector<Plan> variants;  ///< every plan variant (Partitioner::partition_variants), variant 0 first
  /// A population (ScenarioSpec::users): its users and each one's plan (the partitioner run with
  /// the user's device as the source), in the same order. Empty for a one-source scenario. Users
  /// whose plans are equal but for their own device share one (SharedPlans, stand-in kUserDevice).
  std::vector<PopulationUser> users;
  std::vector<std::shared_ptr<const SharedPlans>> user_plans;
};

/// Loads model and platform, builds the cost model and asks the partitioner for a plan.
ScenarioPlan partition_scenario(const ScenarioSpec& spec, const PartitionerRegistry& partitioners);

struct ScenarioRun {
  Plan plan;                   ///< variant 0
  std::vector<Plan> variants;  ///< every plan variant the replay could run
  SimulationResult simulation;
  Json results;  ///< run_metrics(...) plus "model", "partitioner", "scheduler", "platform"
};

/// Runs the scenario in this process (SimGrid: once per process; see simulate_in_child).
/// Unknown partitioner / scheduler names throw `InputError(file, "partitioner.name", ...)`.
ScenarioRun execute_scenario(const ScenarioSpec& spec, const PartitionerRegistry& partitioners,
                             const SchedulerRegistry& schedulers);

}  // namespace coinfer
