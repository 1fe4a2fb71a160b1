#include "sim/scenario/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/hash.hpp"
#include "sim/scenario/compare.hpp"
#include "sim/scenario/key_path.hpp"
#include "sim/scenario/scenario_doc.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer {
namespace {

constexpr std::size_t kMaxAxisPoints = kMaxSweepRuns;  // a longer axis alone exceeds the runs' limit

std::string checked_key(const Json& obj, const std::string& path) {
  auto key = json_string(obj, "key", path);
  try {
    parse_key_path(key);
  } catch (const InputError& e) {
    throw InputError("", join_path(path, "key"), e.message());
  }
  return key;
}

std::vector<Json> range_values(const Json& r, const std::string& path) {
  json_reject_unknown_keys(r, path, {"from", "to", "step"});
  const double from = json_number(r, "from", path), to = json_number(r, "to", path);
  const double step = json_number(r, "step", path, 1e-300);
  if (to < from) throw InputError("", join_path(path, "to"), "expected to >= from");
  const double count = std::floor((to - from) / step * (1 + 1e-12)) + 1;
  if (count > static_cast<double>(kMaxAxisPoints))
    throw InputError("", path, fmt::format("range has {} points; at most {}", count, kMaxAxisPoints));
  const bool integral = r["from"].is_number_integer() && r["step"].is_number_integer();
  std::vector<Json> out;
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const double v = from + static_cast<double>(i) * step;
    out.push_back(integral ? Json(static_cast<std::int64_t>(std::llround(v))) : Json(v));
  }
  return out;
}

// The values of one {key, values | range} entry.
std::pair<std::string, std::vector<Json>> key_values(const Json& axis, const std::string& path) {
  json_reject_unknown_keys(axis, path, {"key", "values", "range"});
  const auto key = checked_key(axis, path);
  const Json* values = json_find(axis, "values", path);
  const Json* range = json_find(axis, "range", path);
  if ((values != nullptr) == (range != nullptr))
    throw InputError("", path, "expected exactly one of 'values' or 'range'");
  if (range) return {key, range_values(*range, join_path(path, "range"))};
  if (!values->is_array() || values->empty())
    throw InputError("", join_path(path, "values"), "expected a non-empty list");
  return {key, std::vector<Json>(values->begin(), values->end())};
}

std::vector<Json> seed_points(const Json& seeds, const std::string& path) {
  std::vector<Json> out;
  if (seeds.is_array()) {
    if (seeds.empty()) throw InputError("", path, "expected a non-empty list of seeds");
    for (std::size_t i = 0; i < seeds.size(); ++i)
      out.push_back(Json{{"seed", json_as_int(seeds[i], index_path(path, i), 0)}});
    return out;
  }
  json_reject_unknown_keys(seeds, path, {"from", "count"});
  const auto from = json_int_or(seeds, "from", path, 1, 0);
  const auto count = json_int(seeds, "count", path, 1, kMaxAxisPoints);
  for (std::int64_t i = 0; i < count; ++i) out.push_back(Json{{"seed", from + i}});
  return out;
}

// A point is a JSON object {key path: value}.
std::vector<Json> axis_points(const Json& axis, const std::string& path) {
  if (!axis.is_object()) throw InputError("", path, "expected a mapping with key/values, zip or seeds");
  if (const Json* seeds = json_find(axis, "seeds", path)) {
    json_reject_unknown_keys(axis, path, {"seeds"});
    return seed_points(*seeds, join_path(path, "seeds"));
  }
  if (const Json* zip = json_find(axis, "zip", path)) {
    json_reject_unknown_keys(axis, path, {"zip"});
    const auto zpath = join_path(path, "zip");
    if (!zip->is_array() || zip->empty())
      throw InputError("", zpath, "expected a non-empty list of {key, values}");
    std::vector<Json> points;
    for (std::size_t i = 0; i < zip->size(); ++i) {
      auto [key, values] = key_values((*zip)[i], index_path(zpath, i));
      if (i == 0) points.assign(values.size(), Json::object());
      if (values.size() != points.size())
        throw InputError(
            "", index_path(zpath, i),
            fmt::format("zipped lists must have equal lengths: {} vs {}", values.size(), points.size()));
      for (std::size_t p = 0; p < values.size(); ++p) points[p][key] = values[p];
    }
    return points;
  }
  auto [key, values] = key_values(axis, path);
  std::vector<Json> points;
  for (auto& v : values) points.push_back(Json{{key, std::move(v)}});
  return points;
}

}  // namespace

std::string SweepSpec::dir() const {
  const auto parent = std::filesystem::path(file).parent_path();
  return parent.empty() ? "." : parent.string();
}

SweepSpec parse_sweep(const Json& doc, const std::string& file) {
  try {
    json_reject_unknown_keys(doc, "", {"name", "base", "scenario", "axes", "columns"});
    SweepSpec spec;
    spec.file = file;
    spec.name = json_string_or(doc, "name", "", std::filesystem::path(file).stem().string());
    if (const Json* base = json_find(doc, "base", "")) {
      if (!base->is_string()) throw InputError("", "base", "expected a scenario file path");
      const auto base_file = std::filesystem::path(spec.dir()) / base->get<std::string>();
      if (std::error_code ec; !std::filesystem::is_regular_file(base_file, ec))
        throw InputError("", "base",
                         fmt::format("scenario file '{}' not found (looked for '{}')",
                                     base->get<std::string>(), base_file.string()));
      spec.base = read_yaml_file(base_file.string());
      if (!spec.base.is_object()) throw InputError(base_file.string(), "", "expected a scenario mapping");
      // The base's paths are relative to its own folder: make them relative to the sweep's.
      rebase_scenario_paths(spec.base, base_file.parent_path(), spec.dir());
      if (!spec.base.contains("name")) spec.base["name"] = base_file.stem().string();
    }
    if (const Json* inline_scenario = json_find(doc, "scenario", "")) {
      if (!inline_scenario->is_object()) throw InputError("", "scenario", "expected a mapping");
      if (spec.base.is_null()) spec.base = Json::object();
      spec.base.merge_patch(*inline_scenario);
    }
    if (spec.base.is_null()) throw InputError("", "base", "expected 'base' (a scenario file) or 'scenario'");
    expand_scenario_shorthands(spec.base);
    if (!spec.base.contains("name")) spec.base["name"] = spec.name;
    spec.variants = parse_compare(spec.base);
    spec.dropped_report = spec.base.contains("report");
    spec.base.erase("compare");
    spec.base.erase("report");
    if (const Json* columns = json_find(doc, "columns", "")) {
      if (!columns->is_array()) throw InputError("", "columns", "expected a list of results.json paths");
      for (std::size_t i = 0; i < columns->size(); ++i) {
        const Json& c = (*columns)[i];
        if (!c.is_string() || c.get<std::string>().empty())
          throw InputError("", index_path("columns", i),
                           "expected a results.json path such as scheduler_metrics.accuracy");
        spec.columns.push_back(c.get<std::string>());
      }
    }
    const Json& axes = json_at(doc, "axes", "");
    if (!axes.is_array()) throw InputError("", "axes", "expected a list of axes");
    std::size_t runs = std::max<std::size_t>(spec.variants.size(), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) {
      spec.points.push_back(axis_points(axes[i], index_path("axes", i)));
      runs *= spec.points.back().size();
      if (runs > kMaxSweepRuns)
        throw InputError(
            "", index_path("axes", i),
            fmt::format("axes[0..{}] make {} runs, more than a sweep's limit of {} (every run is "
                        "a process and every point is checked first): narrow an axis or split "
                        "the sweep",
                        i, runs, kMaxSweepRuns));
    }
    return spec;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
}

std::size_t sweep_size(const SweepSpec& spec) {
  std::size_t n = std::max<std::size_t>(spec.variants.size(), 1);
  for (const auto& axis : spec.points) n *= axis.size();
  return n;
}

SweepRun sweep_run(const SweepSpec& spec, std::size_t index) {
  SweepRun run;
  run.index = index;
  run.scenario = spec.base;
  // Row-major: decode the index from the fastest axis (the variant, if any) to the first.
  if (!spec.variants.empty()) {
    const auto& variant = spec.variants[index % spec.variants.size()];
    index /= spec.variants.size();
    run.variant = variant.label;
    try {
      run.scenario = compare_variant_doc(spec.base, variant);
      expand_scenario_shorthands(run.scenario);
    } catch (const InputError& e) {
      throw e.with_file(spec.file);
    }
    run.scenario["name"] = spec.base["name"].get<std::string>() + "/" + variant.label;
  }
  std::vector<std::size_t> coord(spec.points.size());
  for (std::size_t a = spec.points.size(); a-- > 0;) {
    coord[a] = index % spec.points[a].size();
    index /= spec.points[a].size();
  }
  for (std::size_t a = 0; a < spec.points.size(); ++a)
    for (const auto& [key, value] : spec.points[a][coord[a]].items()) {
      try {
        inline_platform_for_key(run.scenario, key, spec.dir());
        set_at_path(run.scenario, key, value);
      } catch (const InputError& e) {
        throw InputError(spec.file, fmt::format("axes[{}] ({})", a, key), e.message());
      }
      run.assignments[key] = value;
    }
  run.point_hash = json_hash(run.scenario);
  return run;
}

std::vector<SweepRun> expand_sweep(const SweepSpec& spec) {
  std::vector<SweepRun> runs;
  const auto n = sweep_size(spec);
  runs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) runs.push_back(sweep_run(spec, i));
  return runs;
}

std::string json_hash(const Json& doc) { return fmt::format("{:016x}", fnv1a64(doc.dump())); }

std::string describe_run(const SweepRun& run) {
  std::vector<std::string> parts;
  if (!run.variant.empty()) parts.push_back("variant=" + run.variant);
  for (const auto& [key, value] : run.assignments.items())
    parts.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  return parts.empty() ? "the base scenario" : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace coinfer
