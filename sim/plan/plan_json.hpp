#pragma once
/// Plan JSON:
///
///     {"name": "remote",
///      "tasks": [
///        {"id": "upload", "kind": "transfer", "src": "phone", "dst": "server", "bytes": 150528,
///         "network": "wlan", "label": "input", "deps": []},
///        {"id": "infer", "kind": "compute", "device": "server", "duration_s": 0.012,
///         "label": "conv1..fc8", "deps": ["upload"]}]}
///
/// An optional `"metadata": {"gamma": 4, "accuracy": 0.885}` maps names to finite numbers (plan.hpp
/// `Plan::facts`, as variant_facts.hpp's `PlanFileFacts`; `accuracy`, a pre-trained accuracy, must
/// lie in [0, 1]). A plan with facts of a family writes them as its `metadata`.
/// `network`, `channel` (a transfer's logical channel, plan.hpp `Task::channel`; non-empty when
/// given), `label` and `deps` are optional. Structure is checked here (types, ranges,
/// unknown keys); names of devices and the DAG are checked by `compile_plan`.
#include <string>

#include "sim/core/json_access.hpp"
#include "sim/plan/plan.hpp"

namespace coinfer {

Json plan_to_json(const Plan& plan);
/// Throws `InputError(file, "tasks[2].bytes", ...)` on malformed input.
Plan plan_from_json(const Json& json, const std::string& file = "");
/// Reads a plan JSON file. Example: `Plan p = load_plan_file("out/plan.json");`
Plan load_plan_file(const std::string& path);

}  // namespace coinfer
