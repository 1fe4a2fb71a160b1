#include "sim/scenario/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/kernels/tensor.hpp"
#include "sim/metrics/effective_accuracy.hpp"
#include "sim/metrics/metrics.hpp"
#include "sim/metrics/stage_metrics.hpp"
#include "sim/metrics/user_metrics.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "sim/profile/backward_profiler.hpp"
#include "sim/profile/estimate_normalization.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/report/reference_report.hpp"
#include "sim/scenario/device_batching.hpp"
#include "sim/scenario/key_path.hpp"
#include "sim/scenario/plan_memo.hpp"
#include "sim/scenario/scenario_doc.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/user_schedulers.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "sim/trace/chrome_trace_writer.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer {
namespace {

const std::vector<std::string> kScenarioKeys{"name",         "description", "model",     "platform", "source",
                                             "host_profile", "partitioner", "scheduler", "workload", "seed",
                                             "outputs",      "compare",     "report",    "users"};

std::string resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

// A path-valued key must name an existing file: `s.yaml: model: file 'x.json' not found (...)`.
void require_file(const std::string& written, const std::string& resolved, const std::string& path,
                  const std::string& what) {
  std::error_code ec;  // the overloads that throw would throw filesystem_error
  if (std::filesystem::is_regular_file(resolved, ec)) return;
  const auto where = resolved == written ? "" : fmt::format(" (looked for '{}')", resolved);
  if (std::filesystem::is_directory(resolved, ec))
    throw InputError("", path, fmt::format("'{}' is a directory, expected {}{}", written, what, where));
  throw InputError("", path, fmt::format("file '{}' not found{}", written, where));
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

/// The host profiles a scenario's costs come from. On the measured basis this host's batch-1
/// forward profile is read (or measured) once and serves the batch-1 costs, the batch-B
/// normalisation and the backward / forward ratio alike.
class HostProfiles {
 public:
  HostProfiles(const ScenarioSpec& spec, const Graph& graph) : spec_(spec), graph_(graph) {}

  HostProfile forward(std::int64_t batch = 1) {
    if (estimate()) return estimate_host_profile(graph_, HostSpeed::nominal(), batch);
    if (batch == 1) return measured_forward();
    // On the estimate basis with this host's batch-1 factors, so the measured batching effect stays.
    return normalize_batch_to_estimate(graph_, profile_model(graph_, options(batch)), measured_forward());
  }

  /// `forward` carried to the backward pass: with the backward / forward ratio of this host's
  /// kernels when the scenario profiles measured (both profiles cached on disk), else the estimate's.
  HostProfile backward(const HostProfile& forward) {
    if (estimate()) return backward_profile_of(graph_, forward);
    return backward_profile_of(
        graph_, forward, MeasuredBackwardRatio{measured_forward(), profile_backward(graph_, options(1))});
  }

 private:
  bool estimate() const { return spec_.profile_basis == "estimate"; }
  ProfileOptions options(std::int64_t batch) const {
    ProfileOptions o;
    o.repeats = spec_.profile_repeats;
    o.batch = batch;
    return o;
  }
  const HostProfile& measured_forward() {
    if (!measured_forward_) measured_forward_ = profile_model(graph_, options(1));
    return *measured_forward_;
  }

  const ScenarioSpec& spec_;
  const Graph& graph_;
  std::optional<HostProfile> measured_forward_;
};

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
    if (!is_zoo_model(model)) {
      std::error_code ec;  // exists() without it throws filesystem_error for a name too long
      if (!model.ends_with(".json") && !model.ends_with(".onnx") && model.find('/') == std::string::npos &&
          !std::filesystem::exists(s.model, ec))
        throw InputError(
            "", "model",
            fmt::format("'{}' is neither a zoo model (`coinfer models` lists them) nor a model file", model));
      require_file(model, s.model, "model", "a model JSON or ONNX file");
    }
    const Json& platform = json_at(doc, "platform", "");
    if (platform.is_string()) {
      s.platform_file = resolve(base_dir, platform.get<std::string>());
      require_file(platform.get<std::string>(), s.platform_file, "platform", "a platform YAML file");
    } else if (platform.is_object())
      s.platform_inline = platform;
    else
      throw InputError("", "platform", "expected a platform file or an inline mapping");
    s.source = json_string_or(doc, "source", "", "");
    if (const Json* users = json_find(doc, "users", "")) {
      if (doc.contains("source"))
        throw InputError("", "users", "a population runs each user from its own device: drop `source`");
      s.users = parse_user_groups(*users);
    }
    if (const Json* hp = json_find(doc, "host_profile", "")) {
      json_reject_unknown_keys(*hp, "host_profile", {"basis", "repeats"});
      if (json_find(*hp, "basis", "host_profile"))
        s.profile_basis = json_enum(*hp, "basis", "host_profile", {"measured", "estimate"});
      s.profile_repeats = static_cast<int>(json_int_or(*hp, "repeats", "host_profile", 5, 1, 1000));
    }
    std::tie(s.partitioner, s.partitioner_params) = named_component(doc, "partitioner", nullptr);
    if (s.partitioner_params.contains("expected_share")) {
      s.expected_share = json_bool_or(s.partitioner_params, "expected_share", "partitioner", false);
      s.partitioner_params.erase("expected_share");
      if (s.users.empty())
        throw InputError("", "partitioner.expected_share",
                         "plans each user of a population (users:) for its share of the cells: a scenario "
                         "with one source has no users to share with");
    }
    std::tie(s.scheduler, s.scheduler_params) = named_component(doc, "scheduler", "none");
    // File parameters are relative to the scenario's folder: the scenario's partitioner and
    // scheduler, and each user group's own partitioner and scheduler mappings.
    std::vector<std::pair<std::string, Json*>> with_files{{"partitioner", &s.partitioner_params},
                                                          {"scheduler", &s.scheduler_params}};
    for (std::size_t i = 0; i < s.users.size(); ++i) {
      if (s.users[i].partitioner.is_object())
        with_files.emplace_back(join_path(index_path("users", i), "partitioner"), &s.users[i].partitioner);
      if (s.users[i].scheduler.is_object())
        with_files.emplace_back(join_path(index_path("users", i), "scheduler"), &s.users[i].scheduler);
    }
    for (const auto& [component, params] : with_files)
      for (auto& [key, value] : params->items())
        if ((key == "file" || key.ends_with("_file")) && value.is_string() &&
            !value.get<std::string>().empty()) {
          const auto written = value.get<std::string>();
          value = resolve(base_dir, written);
          require_file(written, value.get<std::string>(), join_path(component, key), "a file");
        }
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

namespace {

void apply_overrides(Json& doc, const std::vector<std::string>& overrides, const std::string& file) {
  for (const auto& o : overrides) {
    try {
      inline_platform_for_key(doc, o.substr(0, o.find('=')), std::filesystem::path(file).parent_path());
      apply_override(doc, o);
    } catch (const InputError& e) {
      // `--set KEY=VALUE`'s errors name the option and the key: `s.yaml: --set seed: ...`.
      const auto key = o.substr(0, o.find('='));
      if (e.file().starts_with("--set"))  // the value is not YAML: `--set workload: line 1, column 9`
        throw InputError(file, e.path().empty() ? e.file() : e.file() + ": " + e.path(), e.message());
      const auto path =
          e.path().starts_with("--set") || e.path().empty() ? "--set " + key : "--set " + e.path();
      throw InputError(file, path, e.message());
    }
  }
}

}  // namespace

[[noreturn]] void rethrow_for_variant(const InputError& e, const ScenarioSpec& spec,
                                      const std::string& label) {
  const auto where = fmt::format("compare variant '{}'", label);
  throw InputError(e.file().empty() ? spec.file : e.file(),
                   e.path().empty() ? where : where + ": " + e.path(), e.message());
}

ScenarioSpec compare_variant(const ScenarioSpec& spec, const CompareEntry& entry) {
  try {
    Json doc = compare_variant_doc(spec.doc, entry);
    expand_scenario_shorthands(doc);
    // `--set` applies to every variant, after the variant's own `set` (README, "Scenarios").
    std::vector<std::string> to_variant;
    for (const auto& o : spec.overrides)
      if (!o.starts_with("compare") && !o.starts_with("report")) to_variant.push_back(o);
    apply_overrides(doc, to_variant, spec.file);
    auto variant = parse_scenario(doc, spec.file);
    variant.name = spec.name + "/" + entry.label;
    variant.overrides = spec.overrides;
    return variant;
  } catch (const InputError& e) {
    rethrow_for_variant(e, spec, entry.label);
  }
}

ScenarioSpec load_scenario(const std::string& file, const std::vector<std::string>& overrides) {
  if (std::error_code ec; std::filesystem::is_directory(file, ec))
    throw InputError(file, "", "is a directory, expected a scenario YAML file");
  return scenario_from_document(read_yaml_file(file), file, overrides);
}

ScenarioSpec scenario_from_document(Json doc, const std::string& file,
                                    const std::vector<std::string>& overrides) {
  if (!doc.is_object())
    throw InputError(file, "", "expected a scenario mapping (name, model, platform, ...)");
  if (doc.contains("axes"))
    throw InputError(file, "axes",
                     fmt::format("a sweep, not a scenario: run it with `coinfer sweep {}`", file));
  expand_scenario_shorthands(doc);
  apply_overrides(doc, overrides, file);
  auto spec = parse_scenario(doc, file);
  spec.overrides = overrides;
  return spec;
}

namespace {

// A platform written in the scenario: its errors name the key under `platform` (a calibration
// file's errors name that file).
Platform inline_platform(const ScenarioSpec& spec) {
  try {
    return platform_from_json(spec.platform_inline, spec.file,
                              std::filesystem::path(spec.file).parent_path().string());
  } catch (const InputError& e) {
    if (e.file() != spec.file) throw;
    throw e.with_path_prefix("platform");
  }
}

}  // namespace

ScenarioInputs load_scenario_inputs(const ScenarioSpec& spec) {
  try {
    ScenarioInputs out;
    try {
      out.graph = load_model(spec.model);
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError("", "model", e.message());
    }
    out.platform =
        spec.platform_file.empty() ? inline_platform(spec) : load_platform_file(spec.platform_file);
    out.source = spec.source.empty() ? out.platform.devices.front().name : spec.source;
    if (!out.platform.device_index_or_null(out.source))
      throw InputError("", "source",
                       fmt::format("unknown device '{}' in platform '{}'", out.source, out.platform.name));
    return out;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(spec.file) : e;
  }
}

Json resolved_scenario(const ScenarioSpec& spec, const std::string& source,
                       const PartitionerRegistry& partitioners, const SchedulerRegistry& schedulers) {
  Json doc = spec.doc;
  doc.erase("compare");
  doc.erase("report");
  rebase_scenario_paths(doc, std::filesystem::path(spec.file).parent_path(), "");
  doc["name"] = spec.name;
  if (spec.users.empty()) doc["source"] = source;
  doc["seed"] = spec.seed;
  doc["host_profile"] = spec.profile_basis == "estimate"
                            ? Json{{"basis", "estimate"}}
                            : Json{{"basis", spec.profile_basis}, {"repeats", spec.profile_repeats}};
  doc["workload"] = workload_to_json(workload_from_json(spec.workload, "workload"));
  doc["partitioner"] =
      partitioners.resolved_params(spec.partitioner, spec.partitioner_params, "", "partitioner.name");
  doc["partitioner"]["name"] = spec.partitioner;
  if (!spec.users.empty()) doc["partitioner"]["expected_share"] = spec.expected_share;
  doc["scheduler"] = schedulers.resolved_params(spec.scheduler, spec.scheduler_params, "", "scheduler.name");
  doc["scheduler"]["name"] = spec.scheduler;
  doc["outputs"] = Json{{"frames_csv", spec.frames_csv}, {"trace", spec.trace}, {"stages", spec.stages}};
  return doc;
}

void check_scenario_components(const ScenarioSpec& spec, const PartitionerRegistry& partitioners,
                               const SchedulerRegistry& schedulers) {
  try {
    partitioners.create(spec.partitioner, spec.partitioner_params, "", "partitioner.name");
    for (std::size_t i = 0; i < spec.users.size(); ++i)
      if (!spec.users[i].partitioner.is_null()) {
        const auto [name, params] =
            group_partitioner(spec.users[i], spec.partitioner, spec.partitioner_params);
        partitioners.create(name, params, "", join_path(index_path("users", i), "partitioner.name"));
      }
    schedulers.create(spec.scheduler, spec.scheduler_params, "", "scheduler.name");
    for (std::size_t i = 0; i < spec.users.size(); ++i)
      if (!spec.users[i].scheduler.is_null()) {
        const auto [name, params] = group_scheduler(spec.users[i], spec.scheduler, spec.scheduler_params);
        schedulers.create(name, params, "", join_path(index_path("users", i), "scheduler.name"));
      }
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(spec.file) : e;
  }
}

ScenarioPlan partition_scenario(const ScenarioSpec& spec, const PartitionerRegistry& partitioners) {
  try {
    auto partitioner = partitioners.create(spec.partitioner, spec.partitioner_params, "", "partitioner.name");
    ScenarioInputs inputs = load_scenario_inputs(spec);
    ScenarioPlan out{
        std::move(inputs.graph), std::move(inputs.platform), std::move(inputs.source), {}, {}, {}, {}};
    // A group's own partitioner (users[i].partitioner), created once per group. Each partitioner
    // the scenario plans with checks the model before the profile: one that cannot plan it fails
    // at once.
    std::map<std::size_t, std::unique_ptr<Partitioner>> own;
    bool scenario_partitioner_plans = spec.users.empty();
    for (std::size_t i = 0; i < spec.users.size(); ++i) {
      if (spec.users[i].partitioner.is_null()) {
        scenario_partitioner_plans = true;
        continue;
      }
      const auto [name, params] = group_partitioner(spec.users[i], spec.partitioner, spec.partitioner_params);
      auto& made = own[i] =
          partitioners.create(name, params, "", join_path(index_path("users", i), "partitioner.name"));
      made->check_model(out.graph);
    }
    if (scenario_partitioner_plans) partitioner->check_model(out.graph);
    HostProfiles profiles(spec, out.graph);
    const CostModel cost(out.graph, profiles.forward());
    const auto batch_cost = [&](std::int64_t batch) { return CostModel(out.graph, profiles.forward(batch)); };
    const auto backward_cost = [&](const HostProfile& forward) {
      return CostModel(out.graph, profiles.backward(forward), MeasuredProfile::AsMeasured);
    };
    fill_batch_times(out.platform, cost, batch_cost);
    const auto partition = [&](const Partitioner& p, const Platform& platform, const std::string& source) {
      return p.partition_variants(
          PartitionContext{out.graph, platform, cost, source, batch_cost, backward_cost});
    };
    if (spec.users.empty()) {
      out.variants = partition(*partitioner, out.platform, out.source);
    } else {
      out.users = expand_users(spec.users, spec.workload, out.platform, spec.seed);
      out.source = out.users.front().device;  // frame 0's (stage metrics read it)
      // A user that plans for its expected share sees the platform with its cells at that share
      // (one copy, set for each user in turn).
      const auto plans_on_share = [&](const UserGroupSpec& g) {
        return g.expected_share.value_or(spec.expected_share);
      };
      std::optional<ExpectedShares> shares;  // only when some group plans on its share
      if (std::any_of(spec.users.begin(), spec.users.end(), plans_on_share))
        shares.emplace(out.platform, out.users);
      std::optional<Platform> share_view;  // made for the first user that plans on its share
      PlanSharing sharing(out.platform);   // a group's users that plan alike share one plan
      PlanMemo memo(out.platform);         // ... and alike users plan once
      for (const auto& u : out.users) {
        const UserGroupSpec& g = spec.users[u.group];
        const Partitioner* p = partitioner.get();
        std::unique_ptr<Partitioner> mine;  // parameters naming the group's device: the user's own
        const auto [name, params] = group_partitioner(g, spec.partitioner, spec.partitioner_params);
        const Json params_for_user = for_user(params, g, u);
        const std::string path = g.partitioner.is_null()
                                     ? std::string("partitioner.name")
                                     : join_path(index_path("users", u.group), "partitioner.name");
        if (params_for_user != params) {
          mine = partitioners.create(name, params_for_user, "", path);
          p = mine.get();
        } else if (!g.partitioner.is_null()) {
          p = own.at(u.group).get();
        }
        // A user-specific partitioner (`mine`) is made for one user: no like plans with it.
        const auto kind = mine ? std::nullopt : memo.key(p, plans_on_share(g), u.device);
        if (auto alike = memo.find(kind)) {
          out.user_plans.push_back(std::move(alike));
          continue;
        }
        const Platform* platform = &out.platform;
        if (plans_on_share(g)) {
          if (!share_view) share_view = out.platform;
          shares->apply(*share_view, shares->media_of(u.device));
          platform = &*share_view;
        }
        try {
          const PartitionContext context{out.graph, *platform, cost, u.device, batch_cost, backward_cost};
          out.user_plans.push_back(sharing.add(u, p->partition_variants(context).front()));
          if (kind && p->plans_alike_sources_alike(context)) memo.keep(kind, out.user_plans.back());
        } catch (const InputError& e) {
          if (!e.file().empty()) throw;
          throw InputError("", e.path(),
                           fmt::format("for user '{}' on '{}': {}", u.name, u.device, e.message()));
        }
      }
      out.variants = plans_for(*out.user_plans.front(), out.users.front().device);
    }
    out.plan = out.variants.front();
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
    ScenarioPlan planned = partition_scenario(spec, partitioners);  // its user plans move into the run
    const Graph& graph = planned.graph;
    const Platform& platform = planned.platform;
    const std::string& source = planned.source;
    ScenarioRun run;
    run.plan = planned.plan;
    run.variants = planned.variants;
    SimOptions options;
    options.seed = spec.seed;
    options.record_trace = spec.stages;  // frame 0's events, for stage_metrics
    // The trace streams to an unnamed file during the run; write_run_outputs publishes it.
    if (spec.trace) options.trace_writer = std::make_shared<ChromeTraceWriter>();
    if (planned.users.empty()) {
      run.variants = scheduler->plan_variants(std::move(run.variants), platform);
      Workload workload = workload_from_json(spec.workload, "workload");
      workload.seed = derive_seed(spec.seed, "arrivals");
      run.simulation = simulate(platform, run.variants, workload, options, scheduler.get());
    } else {
      UserSchedulers user_schedulers(spec, schedulers);
      std::vector<UserSource> sources;
      for (std::size_t i = 0; i < planned.users.size(); ++i) {
        const PopulationUser& u = planned.users[i];
        UserSource& user_source = sources.emplace_back(UserSource{u.name, u.device, {}, u.workload});
        user_source.scheduler = user_schedulers.make(u);
        if (user_source.scheduler != nullptr)  // its own variants, from its own scheduler
          user_source.variants = user_scheduled_variants(
              *user_source.scheduler, plans_for(*planned.user_plans[i], u.device), platform, u);
        else
          user_source.shared = std::move(planned.user_plans[i]);  // shared, not copied: 10,000 users
      }
      run.variants = sources.front().shared ? plans_for(*sources.front().shared, sources.front().device)
                                            : sources.front().variants;
      run.simulation = simulate_population(platform, sources, options);
    }
    run.results = run_metrics(spec.name, run.simulation);
    if (!planned.users.empty()) run.results["population"] = population_metrics(run.simulation);
    run.results.update(effective_accuracy_metrics(run.variants, run.simulation));
    if (run.variants.size() > 1 || run.plan.facts) {
      Json variants = Json::array();
      for (const auto& v : run.variants)
        variants.push_back({{"name", v.name}, {"metadata", v.facts ? v.facts->to_json() : Json::object()}});
      run.results["plan_variants"] = std::move(variants);
    }
    run.results["model"] = graph.name();
    run.results["platform"] = platform.name;
    run.results["partitioner"] = spec.partitioner;
    run.results["scheduler"] = spec.scheduler;
    run.results["host_profile"] = spec.profile_basis;
    if (!run.simulation.scheduler_metrics.empty())
      run.results["scheduler_metrics"] = run.simulation.scheduler_metrics;
    run.results["resolved_scenario"] = resolved_scenario(spec, source, partitioners, schedulers);
    if (spec.stages) run.results.update(stage_metrics(run.plan, run.simulation, graph, source));
    return run;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(spec.file) : e;
  }
}

}  // namespace coinfer
