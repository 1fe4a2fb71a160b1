#pragma once
/// The file paths a scenario document holds, and moving them between folders.
///
/// A relative path in a scenario resolves against the folder of the file that wrote it. A sweep
/// mixes documents from several files (a `base:` scenario in one folder, axes in the sweep file),
/// so before it combines them it rebases every path onto one folder. The path-valued keys are:
/// `model` (unless it names a zoo model), `platform` (a file), and in an inline platform
/// `devices[i].calibration` and every bandwidth `file` of `networks[i]` (direct, `uplink`,
/// `downlink`); in `partitioner`, `scheduler` and `workload`, a parameter named `file` or ending
/// in `_file`.
///
///     Json doc = read_yaml_file("scenarios/paper/x.yaml");
///     rebase_scenario_paths(doc, "scenarios/paper", "scenarios");   // "../p.yaml" -> "../../p.yaml"
#include <filesystem>
#include <functional>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Calls `fn` on every path-valued string of a scenario document (see above).
void for_each_scenario_path(Json& doc, const std::function<void(Json& path)>& fn);

/// Rewrites every relative path of `doc` written relative to `from_dir` so that it means the
/// same file relative to `to_dir`; an empty `to_dir` makes them absolute. Absolute paths and
/// zoo model names are left alone.
void rebase_scenario_paths(Json& doc, const std::filesystem::path& from_dir,
                           const std::filesystem::path& to_dir);

/// When `key` (a `--set` or sweep axis key path) reaches into `platform` (`platform.devices[0].x`)
/// and `doc` names a platform file, that file's document replaces the name, its paths rebased
/// onto `doc_dir` (the folder `doc`'s relative paths mean), so that the key can set one of its
/// values. Otherwise `doc` is left alone.
void inline_platform_for_key(Json& doc, const std::string& key, const std::filesystem::path& doc_dir);

/// `path` (relative to `from_dir`) expressed relative to `to_dir` (empty: absolute), lexically.
std::string rebase_path(const std::string& path, const std::filesystem::path& from_dir,
                        const std::filesystem::path& to_dir);

}  // namespace coinfer
