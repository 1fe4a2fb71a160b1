#include "sim/plan/plan_json.hpp"

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

/// The optional list of task ids at `path.key`.
std::vector<std::string> task_ids(const Json& j, const char* key, const std::string& path) {
  std::vector<std::string> ids;
  const Json* list = json_find(j, key, path);
  if (list == nullptr) return ids;
  const auto p = join_path(path, key);
  if (!list->is_array()) throw InputError("", p, "expected a list of task ids");
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) throw InputError("", index_path(p, i), "expected a task id");
    ids.push_back((*list)[i].get<std::string>());
  }
  return ids;
}

Task task_from_json(const Json& j, const std::string& path) {
  Task t;
  t.id = json_string(j, "id", path);
  if (t.id.empty()) throw InputError("", join_path(path, "id"), "expected a non-empty id");
  const auto kind = json_enum(j, "kind", path, {"compute", "transfer"});
  if (kind == "compute") {
    json_reject_unknown_keys(j, path, {"id", "kind", "device", "duration_s", "label", "deps", "after"});
    t.kind = TaskKind::Compute;
    t.device = json_string(j, "device", path);
    t.duration_s = json_number(j, "duration_s", path, 0.0);
  } else {
    json_reject_unknown_keys(
        j, path, {"id", "kind", "src", "dst", "network", "channel", "bytes", "label", "deps", "after"});
    t.kind = TaskKind::Transfer;
    t.src = json_string(j, "src", path);
    t.dst = json_string(j, "dst", path);
    t.network = json_string_or(j, "network", path, "");
    if (json_find(j, "channel", path) != nullptr) {
      t.channel = json_string(j, "channel", path);
      if (t.channel.empty())
        throw InputError("", join_path(path, "channel"), "expected a non-empty channel name");
    }
    t.bytes = json_number(j, "bytes", path, 0.0);
  }
  t.label = json_string_or(j, "label", path, "");
  t.deps = task_ids(j, "deps", path);
  t.after = task_ids(j, "after", path);
  return t;
}

/// `metadata`: a mapping of names to finite numbers; `accuracy`, when given, in [0, 1].
/// Null when absent or empty.
std::shared_ptr<const VariantFacts> facts_from_json(const Json& json) {
  std::map<std::string, double> out;
  const Json* m = json_find(json, "metadata", "");
  if (m == nullptr) return nullptr;
  if (!m->is_object()) throw InputError("", "metadata", "expected a mapping of names to numbers");
  for (const auto& [key, value] : m->items())
    out[key] =
        key == "accuracy" ? json_number(*m, key, "metadata", 0.0, 1.0) : json_number(*m, key, "metadata");
  if (out.empty()) return nullptr;
  return std::make_shared<const PlanFileFacts>(std::move(out));
}

}  // namespace

Json plan_to_json(const Plan& plan) {
  Json tasks = Json::array();
  for (const auto& t : plan.tasks) {
    Json j = {{"id", t.id}};
    if (t.kind == TaskKind::Compute) {
      j["kind"] = "compute";
      j["device"] = t.device;
      j["duration_s"] = t.duration_s;
    } else {
      j["kind"] = "transfer";
      j["src"] = t.src;
      j["dst"] = t.dst;
      if (!t.network.empty()) j["network"] = t.network;
      if (!t.channel.empty()) j["channel"] = t.channel;
      j["bytes"] = t.bytes;
    }
    if (!t.label.empty()) j["label"] = t.label;
    j["deps"] = t.deps;
    if (!t.after.empty()) j["after"] = t.after;
    tasks.push_back(std::move(j));
  }
  Json out = {{"name", plan.name}, {"tasks", std::move(tasks)}};
  if (plan.facts) out["metadata"] = plan.facts->to_json();
  return out;
}

Plan plan_from_json(const Json& json, const std::string& file) {
  try {
    json_reject_unknown_keys(json, "", {"name", "metadata", "tasks"});
    Plan plan;
    plan.file = file;
    plan.name = json_string_or(json, "name", "", "plan");
    plan.facts = facts_from_json(json);
    const Json& tasks = json_at(json, "tasks", "");
    if (!tasks.is_array()) throw InputError("", "tasks", "expected a list of tasks");
    for (std::size_t i = 0; i < tasks.size(); ++i)
      plan.tasks.push_back(task_from_json(tasks[i], index_path("tasks", i)));
    return plan;
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw e.with_file(file);
  }
}

Plan load_plan_file(const std::string& path) { return plan_from_json(read_json_file(path), path); }

}  // namespace coinfer
