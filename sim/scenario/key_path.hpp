#pragma once
/// Dotted key paths into JSON documents, as used by `--set` and sweep axes:
/// `partitioner.workers`, `platform.networks[0].rate_mbps`.
///
///     set_at_path(scenario, "partitioner.workers", 4);
///     apply_override(scenario, "workload.rate_fps=30");   // value parsed as YAML
#include <string>
#include <variant>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// One step of a key path: an object key or an array index.
using PathStep = std::variant<std::string, std::size_t>;

/// Splits `a.b[2].c`; a malformed path throws `InputError("", path, ...)`.
std::vector<PathStep> parse_key_path(const std::string& path);

/// Sets the value at `path`, creating objects on the way; array indices must exist.
/// Throws `InputError` naming the path when a step meets a non-container or a bad index.
void set_at_path(Json& doc, const std::string& path, Json value);
/// Null when the path does not resolve.
const Json* find_at_path(const Json& doc, const std::string& path);

/// `key=value`: value parsed as a YAML flow scalar or collection (`4`, `lte`, `[1, 2]`, `{a: 1}`).
void apply_override(Json& doc, const std::string& assignment);

}  // namespace coinfer
