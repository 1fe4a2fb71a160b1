// `coinfer partition SCENARIO [--set key=value ...] [--variant LABEL] [--json] [-o plan.json]`:
// the plan a scenario's partitioner produces, without simulating it. Prints one row per task and
// the analytic latency with its critical path; `--json` prints the plan JSON instead, `-o` writes
// it to a file that `partitioner: {name: plan, file: ...}` replays (after hand edits, if wanted).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/builtin_registries.hpp"
#include "cli/commands.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/plan/plan_json.hpp"
#include "sim/report/table.hpp"
#include "sim/scenario/scenario.hpp"

namespace coinfer::cli {
namespace {

struct PartitionOptions {
  std::string file;
  std::vector<std::string> overrides;
  std::string variant;
  std::string out;
  bool json = false;
};

ScenarioSpec chosen_variant(const ScenarioSpec& spec, const std::string& label) {
  if (label.empty()) return spec;
  std::vector<std::string> labels;
  for (const auto& entry : spec.compare) {
    if (entry.label == label) return compare_variant(spec, entry);
    labels.push_back(entry.label);
  }
  throw InputError(spec.file, "compare",
                   fmt::format("no variant labelled '{}'; known: {}", label,
                               labels.empty() ? "none (the scenario has no compare list)"
                                              : fmt::format("{}", fmt::join(labels, ", "))));
}

std::string task_table(const Plan& plan, const CompiledPlan& compiled, const Topology& topology) {
  TextTable t({"task", "kind", "where", "work", "analytic ms", "deps", "label"},
              {false, false, false, true, true, true, false});
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    const Task& task = plan.tasks[i];
    const bool compute = task.kind == TaskKind::Compute;
    t.add_row({task.id, compute ? "compute" : "transfer",
               compute ? task.device : fmt::format("{} -> {}", task.src, task.dst),
               compute ? fmt::format("{:.3f} ms", task.duration_s * 1e3)
                       : format_count(static_cast<std::int64_t>(task.bytes)) + " B",
               fmt::format("{:.3f}", analytic_task_s(compiled.task(i), topology) * 1e3),
               std::to_string(task.deps.size()), task.label});
  }
  return t.str();
}

void run_partition(const PartitionOptions& opts) {
  const ScenarioSpec spec = chosen_variant(load_scenario(opts.file, opts.overrides), opts.variant);
  const auto partitioners = builtin_partitioners();
  const ScenarioPlan planned = partition_scenario(spec, partitioners);
  const Topology topology(planned.platform);
  const CompiledPlan compiled = compile_plan(planned.plan, topology);
  const Json json = plan_to_json(planned.plan);
  if (!opts.out.empty()) write_file_atomic(opts.out, json.dump(2) + "\n");
  if (opts.json) {
    std::cout << json.dump(2) << "\n";
    return;
  }
  const AnalyticCost cost = analytic_critical_path(compiled, topology);
  std::cout << fmt::format("plan '{}' of scenario {} (partitioner {}, model {}, platform {}): {} tasks\n",
                           planned.plan.name, spec.name, spec.partitioner, planned.graph.name(),
                           planned.platform.name, planned.plan.tasks.size())
            << task_table(planned.plan, compiled, topology)
            << fmt::format("analytic latency {:.3f} ms (nominal rates, no contention, no radio wake-up)\n",
                           cost.latency_s * 1e3)
            << fmt::format("critical path: {}\n", fmt::join(cost.path, " -> "));
  if (!opts.out.empty()) std::cout << fmt::format("plan: {}\n", opts.out);
}

}  // namespace

void add_partition_command(CLI::App& app) {
  auto opts = std::make_shared<PartitionOptions>();
  auto* cmd = app.add_subcommand("partition", "Print (or save) the plan a scenario's partitioner produces");
  cmd->add_option("scenario", opts->file, "Scenario YAML file")->required();
  cmd->add_option("--set", opts->overrides, "Override a scenario key (repeatable)");
  cmd->add_option("--variant", opts->variant, "Use this `compare` entry of the scenario");
  cmd->add_flag("--json", opts->json, "Print the plan JSON instead of the task table");
  cmd->add_option("--out,-o", opts->out, "Also write the plan JSON to this file");
  cmd->callback([opts] { run_partition(*opts); });
}

}  // namespace coinfer::cli
