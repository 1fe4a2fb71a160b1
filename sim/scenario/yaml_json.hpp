#pragma once
/// YAML enters coinfer here and only here: a YAML document becomes JSON once, and every later
/// step (scenario, platform, sweep) reads JSON with the checked accessors of json_access.hpp.
///
///     Json scenario = read_yaml_file("scenarios/quickstart.yaml");
#include <string>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Plain scalars become numbers, booleans or null where YAML 1.2 core schema says so
/// (`4` -> 4, `2.5e6` -> 2500000.0, `true`, `null`/`~`); quoted scalars stay strings.
/// Syntax errors throw `InputError(file, "line L, column C", ...)`; a number beyond double
/// (`1e400`) throws `InputError(file, "workload.deadline_s", "number out of range (1e400)")`, and
/// nesting deeper than kMaxJsonDepth (256) throws `... nested too deeply ...`.
Json yaml_to_json(const std::string& text, const std::string& file);
/// Reads a YAML (or JSON, a YAML subset) file; a missing file throws `InputError`.
Json read_yaml_file(const std::string& file);

}  // namespace coinfer
