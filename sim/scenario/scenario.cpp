#include "sim/scenario/scenario.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/metrics/metrics.hpp"
#include "sim/metrics/stage_metrics.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/report/reference_report.hpp"
#include "sim/scenario/key_path.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer {
namespace {

const std::vector<std::string> kScenarioKeys{"name",         "description", "model",     "platform", "source",
                                             "host_profile", "partitioner", "scheduler", "workload", "seed",
                                             "outputs",      "compare",     "report"};

std::string resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

// `partitioner: {name: x, ...params}` (or just `partitioner: x`).
std::pair<std::string, Json> named_component(const Json& doc, const char* key, const char* fallback) {
  const Json* v = json_find(doc, key, "");
  if (!v) {
    if (!fallback) throw InputError("", key, "missing key");
    return {fallback, Json::object()};
  }
  if (v->is_string()) return {v->get<std::string>(), Json::object()};
  if (!v->is_object()) throw InputError("", key, "expected a name or a mapping with 'name'");
  Json params = *v;
  const auto name = json_string(*v, "name", key);
  params.erase("name");
  return {name, params};
}

std::vector<CompareEntry> parse_compare(const Json& doc) {
  std::vector<CompareEntry> out;
  const Json* c = json_find(doc, "compare", "");
  if (!c) return out;
  if (!c->is_array()) throw InputError("", "compare", "expected a list of {label, set}");
  for (std::size_t i = 0; i < c->size(); ++i) {
    const auto path = index_path("compare", i);
    json_reject_unknown_keys((*c)[i], path, {"label", "set"});
    CompareEntry e{json_string((*c)[i], "label", path), Json::object()};
    if (const Json* set = json_find((*c)[i], "set", path)) {
      if (!set->is_object()) throw InputError("", join_path(path, "set"), "expected a mapping of key paths");
      e.set = *set;
    }
    out.push_back(std::move(e));
  }
  return out;
}

HostProfile host_profile_for(const ScenarioSpec& spec, const Graph& graph) {
  if (spec.profile_basis == "estimate") return estimate_host_profile(graph, HostSpeed::nominal());
  ProfileOptions options;
  options.repeats = spec.profile_repeats;
  return profile_model(graph, options);
}

}  // namespace

ScenarioSpec parse_scenario(const Json& doc, const std::string& file) {
  try {
    ScenarioSpec s;
    s.file = file;
    s.doc = doc;
    const auto base_dir = std::filesystem::path(file).parent_path().string();
    json_reject_unknown_keys(doc, "", kScenarioKeys);
    s.name = json_string_or(doc, "name", "", std::filesystem::path(file).stem().string());
    const auto model = json_string(doc, "model", "");
    s.model = is_zoo_model(model) ? model : resolve(base_dir, model);
    const Json& platform = json_at(doc, "platform", "");
    if (platform.is_string())
      s.platform_file = resolve(base_dir, platform.get<std::string>());
    else if (platform.is_object())
      s.platform_inline = platform;
    else
      throw InputError("", "platform", "expected a platform file or an inline mapping");
    s.source = json_string_or(doc, "source", "", "");
    if (const Json* hp = json_find(doc, "host_profile", "")) {
      json_reject_unknown_keys(*hp, "host_profile", {"basis", "repeats"});
      if (json_find(*hp, "basis", "host_profile"))
        s.profile_basis = json_enum(*hp, "basis", "host_profile", {"measured", "estimate"});
      s.profile_repeats = static_cast<int>(json_int_or(*hp, "repeats", "host_profile", 5, 1, 1000));
    }
    std::tie(s.partitioner, s.partitioner_params) = named_component(doc, "partitioner", nullptr);
    std::tie(s.scheduler, s.scheduler_params) = named_component(doc, "scheduler", "none");
    for (Json* params : {&s.partitioner_params, &s.scheduler_params})
      if (params->contains("file") && (*params)["file"].is_string())
        (*params)["file"] = resolve(base_dir, (*params)["file"].get<std::string>());
    if (const Json* w = json_find(doc, "workload", "")) {
      workload_from_json(*w, "workload");  // validate now, so errors come before any work
      s.workload = *w;
    }
    s.seed = static_cast<std::uint64_t>(json_int_or(doc, "seed", "", 0, 0));
    if (const Json* o = json_find(doc, "outputs", "")) {
      json_reject_unknown_keys(*o, "outputs", {"frames_csv", "trace", "stages"});
      s.frames_csv = json_bool_or(*o, "frames_csv", "outputs", false);
      s.trace = json_bool_or(*o, "trace", "outputs", false);
      s.stages = json_bool_or(*o, "stages", "outputs", false);
    }
    s.compare = parse_compare(doc);
    if (const Json* r = json_find(doc, "report", "")) {
      std::vector<std::string> labels;
      for (const auto& c : s.compare) labels.push_back(c.label);
      check_report(*r, labels);
      s.report = *r;
    }
    return s;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
}

ScenarioSpec compare_variant(const ScenarioSpec& spec, const CompareEntry& entry) {
  Json doc = spec.doc;
  doc.erase("compare");
  doc.erase("report");
  try {
    for (const auto& [key, value] : entry.set.items()) set_at_path(doc, key, value);
  } catch (const InputError& e) {
    throw InputError(spec.file, fmt::format("compare[{}].set", entry.label), e.what());
  }
  auto variant = parse_scenario(doc, spec.file);
  variant.name = spec.name + "/" + entry.label;
  return variant;
}

ScenarioSpec load_scenario(const std::string& file, const std::vector<std::string>& overrides) {
  Json doc = read_yaml_file(file);
  for (const auto& o : overrides) {
    try {
      apply_override(doc, o);
    } catch (const InputError& e) {
      throw InputError(file, "--set " + e.path(), e.message());
    }
  }
  return parse_scenario(doc, file);
}

ScenarioPlan partition_scenario(const ScenarioSpec& spec, const PartitionerRegistry& partitioners) {
  try {
    auto partitioner = partitioners.create(spec.partitioner, spec.partitioner_params, "", "partitioner.name");
    ScenarioPlan out;
    try {
      out.graph = load_model(spec.model);
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError("", "model", e.message());
    }
    out.platform = spec.platform_file.empty()
                       ? platform_from_json(spec.platform_inline, spec.file,
                                            std::filesystem::path(spec.file).parent_path().string())
                       : load_platform_file(spec.platform_file);
    out.source = spec.source.empty() ? out.platform.devices.front().name : spec.source;
    if (!out.platform.device_index_or_null(out.source))
      throw InputError("", "source",
                       fmt::format("unknown device '{}' in platform '{}'", out.source, out.platform.name));
    const CostModel cost(out.graph, host_profile_for(spec, out.graph));
    out.plan = partitioner->partition(PartitionContext{out.graph, out.platform, cost, out.source});
    return out;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(spec.file) : e;
  }
}

ScenarioRun execute_scenario(const ScenarioSpec& spec, const PartitionerRegistry& partitioners,
                             const SchedulerRegistry& schedulers) {
  try {
    // Resolve names first: a typo must fail before seconds of profiling (partition_scenario
    // creates the partitioner before it profiles).
    auto scheduler = schedulers.create(spec.scheduler, spec.scheduler_params, "", "scheduler.name");
    const ScenarioPlan planned = partition_scenario(spec, partitioners);
    const Graph& graph = planned.graph;
    const Platform& platform = planned.platform;
    const std::string& source = planned.source;
    ScenarioRun run;
    run.plan = planned.plan;
    SimOptions options;
    options.seed = spec.seed;
    options.record_trace = spec.trace || spec.stages;
    run.simulation = simulate(platform, {run.plan}, workload_from_json(spec.workload, "workload"), options,
                              scheduler.get());
    run.results = run_metrics(spec.name, run.simulation);
    run.results["model"] = graph.name();
    run.results["platform"] = platform.name;
    run.results["partitioner"] = spec.partitioner;
    run.results["scheduler"] = spec.scheduler;
    run.results["host_profile"] = spec.profile_basis;
    if (spec.stages) run.results.update(stage_metrics(run.plan, run.simulation, graph, source));
    return run;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(spec.file) : e;
  }
}

}  // namespace coinfer
