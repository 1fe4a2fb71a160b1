#include "sim/check/suite.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "sim/check/plain_name.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer::check {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kCommonKeys{"name", "tier", "description"};
const std::vector<std::string> kResultKeys{"scenario", "sweep",   "claims",    "set",
                                           "jobs",     "metrics", "tolerance", "baseline"};
const std::vector<std::string> kTimingKeys{"a",           "b",         "command",   "ratios",    "measure",
                                           "repetitions", "warmup",    "seed",      "threshold", "alpha",
                                           "better",      "max_ratio", "min_ratio", "baseline",  "exact"};

std::vector<std::string> keys_of(const std::vector<std::string>& kind) {
  auto keys = kCommonKeys;
  keys.insert(keys.end(), kind.begin(), kind.end());
  return keys;
}

// `obj[key]` as one of `allowed`, `fallback` when absent.
std::string enum_or(const Json& obj, const char* key, const std::string& path, const std::string& fallback,
                    const std::vector<std::string>& allowed) {
  return obj.contains(key) ? json_enum(obj, key, path, allowed) : fallback;
}

std::string existing_file(const Json& check, const char* key, const std::string& path,
                          const std::string& dir) {
  const auto text = json_string(check, key, path);
  const auto resolved = (fs::path(dir) / text).lexically_normal();
  if (!fs::is_regular_file(resolved))
    throw InputError("", join_path(path, key),
                     fmt::format("file '{}' not found (looked for '{}')", text, resolved.string()));
  return resolved.string();
}

Tolerance parse_tolerance(const Json& v, const std::string& path, Tolerance fallback) {
  json_reject_unknown_keys(v, path, {"relative", "absolute"});
  Tolerance t = fallback;
  t.relative = json_number_or(v, "relative", path, t.relative, 0.0, 1e300);
  t.absolute = json_number_or(v, "absolute", path, t.absolute, 0.0, 1e300);
  return t;
}

// `label/a.b.*`, `*/x`, `3/latency_ms.mean`, `latency_ms.mean`, `bytes.wlan/phone/up`: no empty
// label or key-path segment.
void check_metric_syntax(const std::string& pattern, const std::string& path) {
  bool ok = !pattern.empty() && pattern.front() != '/' && pattern.back() != '/' && pattern.back() != '.';
  for (std::size_t i = 0; ok && i < pattern.size(); ++i) {
    const bool sep = pattern[i] == '.' || pattern[i] == '/';
    const bool after_sep = i == 0 || pattern[i - 1] == '.' || pattern[i - 1] == '/';
    ok = !(sep && after_sep);
  }
  if (!ok)
    throw InputError("", path,
                     fmt::format("'{}': expected [LABEL/]KEY.PATH (a compare label or sweep run, '*' for "
                                 "all, then a key path into results.json or a results.csv column)",
                                 pattern));
}

std::vector<MetricSpec> parse_metrics(const Json& check, const std::string& path, Tolerance fallback) {
  const Json& list = json_at(check, "metrics", path);
  const auto mpath = join_path(path, "metrics");
  if (!list.is_array() || list.empty()) throw InputError("", mpath, "expected a non-empty list of metrics");
  std::vector<MetricSpec> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto ipath = index_path(mpath, i);
    MetricSpec m{"", fallback, ipath};
    if (list[i].is_string()) {
      m.pattern = list[i].get<std::string>();
    } else if (list[i].is_object()) {
      json_reject_unknown_keys(list[i], ipath, {"metric", "tolerance"});
      m.pattern = json_string(list[i], "metric", ipath);
      if (const Json* t = json_find(list[i], "tolerance", ipath))
        m.tolerance = parse_tolerance(*t, join_path(ipath, "tolerance"), fallback);
    } else {
      throw InputError("", ipath, "expected a metric (LABEL/KEY.PATH) or {metric, tolerance}");
    }
    check_metric_syntax(m.pattern, ipath);
    if (!seen.insert(m.pattern).second)
      throw InputError("", ipath, fmt::format("'{}' listed twice", m.pattern));
    out.push_back(std::move(m));
  }
  return out;
}

ResultCheck parse_result_check(const Json& check, const std::string& path, const std::string& dir) {
  ResultCheck r;
  r.sweep = check.contains("sweep");
  r.claims = check.contains("claims");
  if ((r.sweep ? 1 : 0) + (r.claims ? 1 : 0) + (check.contains("scenario") ? 1 : 0) != 1)
    throw InputError("", path, "expected one of 'scenario', 'sweep' or 'claims'");
  r.file = existing_file(check, r.sweep ? "sweep" : r.claims ? "claims" : "scenario", path, dir);
  if (const Json* set = json_find(check, "set", path)) {
    const auto spath = join_path(path, "set");
    if (r.sweep || r.claims)
      throw InputError("", spath,
                       "only a scenario takes overrides (change a sweep's axes or a ledger's scenarios)");
    if (!set->is_object()) throw InputError("", spath, "expected a mapping of key paths to values");
    for (const auto& [key, value] : set->items()) {
      if (key.empty()) throw InputError("", spath, "empty key path");
      r.overrides.push_back(key + "=" + value.dump());
    }
  }
  if (check.contains("jobs") && !r.sweep && !r.claims)
    throw InputError("", join_path(path, "jobs"),
                     "only a sweep or a ledger runs jobs (a scenario's variants run in turn)");
  r.jobs = static_cast<int>(json_int_or(check, "jobs", path, 1, 1, 1024));
  Tolerance tolerance;
  if (const Json* t = json_find(check, "tolerance", path))
    tolerance = parse_tolerance(*t, join_path(path, "tolerance"), tolerance);
  r.metrics = parse_metrics(check, path, tolerance);
  return r;
}

std::vector<std::string> parse_argv(const Json& check, const char* key, const std::string& path) {
  const Json& v = json_at(check, key, path);
  const auto apath = join_path(path, key);
  if (!v.is_array() || v.empty())
    throw InputError("", apath, "expected a non-empty list: the program, then its arguments (no shell)");
  std::vector<std::string> argv;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].is_string())
      argv.push_back(v[i].get<std::string>());
    else if (v[i].is_number())
      argv.push_back(v[i].dump());
    else
      throw InputError("", index_path(apath, i), "expected a string (an argument)");
  }
  if (argv.front().empty()) throw InputError("", index_path(apath, 0), "expected a program");
  return argv;
}

std::vector<std::pair<std::string, std::string>> parse_ratios(const Json& check, const std::string& path) {
  const Json& v = json_at(check, "ratios", path);
  const auto rpath = join_path(path, "ratios");
  if (!v.is_object() || v.empty())
    throw InputError("", rpath, "expected a mapping of ratio names to regular expressions");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, pattern] : v.items()) {
    const auto ppath = join_path(rpath, name);
    if (!is_plain_name(name)) throw InputError("", ppath, "expected a name of letters, digits and _-.+");
    if (!pattern.is_string()) throw InputError("", ppath, "expected a regular expression");
    try {
      const std::regex re(pattern.get<std::string>());
      if (re.mark_count() < 1)
        throw InputError("", ppath, "expected a regular expression with a group capturing the number");
    } catch (const std::regex_error& e) {
      throw InputError("", ppath, fmt::format("not a valid regular expression: {}", e.what()));
    }
    out.emplace_back(name, pattern.get<std::string>());
  }
  return out;
}

TimingCheck parse_timing_check(const Json& check, const std::string& path) {
  TimingCheck t;
  if (check.contains("command")) {
    if (check.contains("a") || check.contains("b"))
      throw InputError("", path, "expected either 'a' and 'b' (two commands) or 'command' with 'ratios'");
    t.command = parse_argv(check, "command", path);
    t.ratios = parse_ratios(check, path);
    if (check.contains("measure"))
      throw InputError("", join_path(path, "measure"), "a 'command' check reads its ratios from its output");
    t.exact = json_bool_or(check, "exact", path, false);
  } else {
    if (check.contains("exact"))
      throw InputError("", join_path(path, "exact"), "only a 'command' check prints exact ratios");
    if (!check.contains("b"))
      throw InputError("", join_path(path, "b"), "missing key (the reference command)");
    if (check.contains("ratios"))
      throw InputError("", join_path(path, "ratios"), "only a 'command' check reads ratios from its output");
    t.a = parse_argv(check, "a", path);
    t.b = parse_argv(check, "b", path);
    const auto measure = enum_or(check, "measure", path, "wall", {"wall", "cpu", "benchmark"});
    t.measure = measure == "wall" ? Measure::Wall : measure == "cpu" ? Measure::Cpu : Measure::Benchmark;
  }
  // Counts need one run; times need enough for a test.
  t.repetitions =
      static_cast<int>(json_int_or(check, "repetitions", path, t.exact ? 1 : 9, t.exact ? 1 : 9, 10000));
  t.warmup = static_cast<int>(json_int_or(check, "warmup", path, t.exact ? 0 : 1, 0, 100));
  t.seed = static_cast<std::uint64_t>(json_int_or(check, "seed", path, 1, 0));
  t.threshold = json_number_or(check, "threshold", path, 0.10, 1e-6, 10.0);
  t.alpha = json_number_or(check, "alpha", path, 0.05, 1e-12, 0.5);
  t.better = enum_or(check, "better", path, "lower", {"lower", "higher"}) == "lower" ? Better::Lower
                                                                                     : Better::Higher;
  const char* bound_key = t.better == Better::Lower ? "max_ratio" : "min_ratio";
  const char* other_key = t.better == Better::Lower ? "min_ratio" : "max_ratio";
  if (check.contains(other_key))
    throw InputError("", join_path(path, other_key),
                     fmt::format("with better: {} the bound is '{}'",
                                 t.better == Better::Lower ? "lower" : "higher", bound_key));
  if (check.contains(bound_key)) {
    t.bound = json_number(check, bound_key, path, 1e-300, 1e300);
    if (check.contains("baseline"))
      throw InputError(
          "", join_path(path, "baseline"),
          fmt::format("a check with '{}' is tested against that bound, not a baseline", bound_key));
  } else if (t.exact) {
    throw InputError("", join_path(path, "exact"),
                     fmt::format("an exact check is judged against a bound: expected '{}'", bound_key));
  }
  return t;
}

Check parse_check(const Json& doc, const std::string& path, const std::string& dir) {
  if (!doc.is_object()) throw InputError("", path, "expected a mapping (a check)");
  Check c;
  c.path = path;
  c.name = json_string(doc, "name", path);
  if (!is_plain_name(c.name))
    throw InputError(
        "", join_path(path, "name"),
        fmt::format("'{}': expected letters, digits and _-.+ (it names the baseline file)", c.name));
  c.tier = enum_or(doc, "tier", path, "quick", {"quick", "full"}) == "quick" ? Tier::Quick : Tier::Full;
  (void)json_string_or(doc, "description", path, "");
  const bool result = doc.contains("scenario") || doc.contains("sweep") || doc.contains("claims");
  const bool timing = doc.contains("a") || doc.contains("b") || doc.contains("command");
  if (result == timing)
    throw InputError(
        "", path,
        result ? "expected a result check (scenario, sweep or claims) or a timing check (a + b, or command), "
                 "not both"
               : "expected 'scenario', 'sweep' or 'claims' (a result check), or 'a' and 'b' or 'command' "
                 "(a timing check)");
  json_reject_unknown_keys(doc, path, keys_of(result ? kResultKeys : kTimingKeys));
  if (result)
    c.body = parse_result_check(doc, path, dir);
  else
    c.body = parse_timing_check(doc, path);
  if (c.timing() == nullptr || !c.timing()->bound) {
    c.baseline_text = json_string_or(doc, "baseline", path, "baselines/" + c.name + ".json");
    if (c.baseline_text.empty()) throw InputError("", join_path(path, "baseline"), "expected a file path");
    c.baseline = (fs::path(dir) / c.baseline_text).lexically_normal().string();
  }
  return c;
}

}  // namespace

Suite parse_suite(const Json& doc, const std::string& file) {
  try {
    json_reject_unknown_keys(doc, "", {"name", "description", "checks"});
    Suite suite;
    suite.file = file;
    const auto parent = fs::path(file).parent_path();
    suite.dir = parent.empty() ? "." : parent.string();
    suite.name = json_string_or(doc, "name", "", fs::path(file).stem().string());
    (void)json_string_or(doc, "description", "", "");
    const Json& checks = json_at(doc, "checks", "");
    if (!checks.is_array() || checks.empty())
      throw InputError("", "checks", "expected a non-empty list of checks");
    std::map<std::string, std::string> names, baselines;
    for (std::size_t i = 0; i < checks.size(); ++i) {
      auto check = parse_check(checks[i], index_path("checks", i), suite.dir);
      if (auto [it, fresh] = names.emplace(check.name, check.path); !fresh)
        throw InputError("", join_path(check.path, "name"),
                         fmt::format("'{}' is already the name of {}", check.name, it->second));
      if (!check.baseline.empty())
        if (auto [it, fresh] = baselines.emplace(check.baseline, check.name); !fresh)
          throw InputError("", join_path(check.path, "baseline"),
                           fmt::format("'{}' is already the baseline of check '{}' (one file per check)",
                                       check.baseline_text, it->second));
      suite.checks.push_back(std::move(check));
    }
    return suite;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
}

Suite load_suite(const std::string& file) {
  if (fs::is_directory(file)) throw InputError(file, "", "is a directory, expected a suite YAML file");
  return parse_suite(read_yaml_file(file), file);
}

Tier parse_tier(const std::string& text) {
  if (text == "quick") return Tier::Quick;
  if (text == "full") return Tier::Full;
  throw InputError("", "--tier", fmt::format("expected quick or full, got '{}'", text));
}

std::string tier_name(Tier tier) { return tier == Tier::Quick ? "quick" : "full"; }

std::string measure_name(Measure measure) {
  switch (measure) {
    case Measure::Wall:
      return "wall";
    case Measure::Cpu:
      return "cpu";
    case Measure::Benchmark:
      return "benchmark";
  }
  return "wall";
}

std::vector<const Check*> select_checks(const Suite& suite, Tier tier, const std::vector<std::string>& only) {
  std::vector<const Check*> out;
  if (!only.empty()) {
    std::vector<std::string> known;
    for (const auto& c : suite.checks) known.push_back(c.name);
    for (const auto& name : only) {
      const auto it = std::find(known.begin(), known.end(), name);
      if (it == known.end())
        throw InputError(suite.file, "--only",
                         fmt::format("unknown check '{}'; known: {}", name, fmt::join(known, ", ")));
    }
    for (const auto& c : suite.checks)
      if (std::find(only.begin(), only.end(), c.name) != only.end()) out.push_back(&c);
    return out;
  }
  for (const auto& c : suite.checks)
    if (tier == Tier::Full || c.tier == Tier::Quick) out.push_back(&c);
  return out;
}

}  // namespace coinfer::check
