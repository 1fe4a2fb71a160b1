#include "sim/scenario/scenario_paths.hpp"

#include "sim/models/zoo.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer {
namespace fs = std::filesystem;
namespace {

bool is_path_param(const std::string& key) { return key == "file" || key.ends_with("_file"); }

void visit_params(Json& component, const std::function<void(Json&)>& fn) {
  if (!component.is_object()) return;
  for (auto& [key, value] : component.items())
    if (is_path_param(key) && value.is_string()) fn(value);
}

void visit_bandwidth(Json& link, const std::function<void(Json&)>& fn) {
  if (!link.is_object() || !link.contains("bandwidth")) return;
  Json& bw = link["bandwidth"];
  if (bw.is_object() && bw.contains("file") && bw["file"].is_string()) fn(bw["file"]);
}

void visit_platform(Json& platform, const std::function<void(Json&)>& fn) {
  if (platform.is_string()) return fn(platform);
  if (!platform.is_object()) return;
  if (platform.contains("devices") && platform["devices"].is_array())
    for (auto& d : platform["devices"])
      if (d.is_object() && d.contains("calibration") && d["calibration"].is_string()) fn(d["calibration"]);
  if (platform.contains("networks") && platform["networks"].is_array())
    for (auto& n : platform["networks"]) {
      visit_bandwidth(n, fn);
      for (const char* side : {"uplink", "downlink"})
        if (n.is_object() && n.contains(side)) visit_bandwidth(n[side], fn);
    }
}

}  // namespace

void for_each_scenario_path(Json& doc, const std::function<void(Json& path)>& fn) {
  if (!doc.is_object()) return;
  if (doc.contains("model") && doc["model"].is_string() && !is_zoo_model(doc["model"].get<std::string>()))
    fn(doc["model"]);
  if (doc.contains("platform")) visit_platform(doc["platform"], fn);
  for (const char* key : {"partitioner", "scheduler", "workload"})
    if (doc.contains(key)) visit_params(doc[key], fn);
}

std::string rebase_path(const std::string& path, const fs::path& from_dir, const fs::path& to_dir) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  const fs::path absolute = fs::absolute(from_dir / path).lexically_normal();
  if (to_dir.empty()) return absolute.string();
  return absolute.lexically_relative(fs::absolute(to_dir).lexically_normal()).string();
}

void rebase_scenario_paths(Json& doc, const fs::path& from_dir, const fs::path& to_dir) {
  for_each_scenario_path(doc, [&](Json& p) { p = rebase_path(p.get<std::string>(), from_dir, to_dir); });
}

void inline_platform_for_key(Json& doc, const std::string& key, const fs::path& doc_dir) {
  if (!key.starts_with("platform.") && !key.starts_with("platform[")) return;
  if (!doc.is_object() || !doc.contains("platform") || !doc["platform"].is_string()) return;
  const fs::path file = (doc_dir / doc["platform"].get<std::string>()).lexically_normal();
  Json wrapper{{"platform", read_yaml_file(file.string())}};
  rebase_scenario_paths(wrapper, file.parent_path(), doc_dir);
  doc["platform"] = std::move(wrapper["platform"]);
}

}  // namespace coinfer
