#pragma once
/// Sweep expansion: a base scenario plus axes whose cartesian product gives the runs.
///
///     name: bandwidth-sweep
///     base: quickstart.yaml                 # relative to the sweep file (or `scenario:` inline)
///     axes:
///       - key: partitioner.name
///         values: [local, remote]
///       - key: platform.networks[0].rate_mbps
///         range: {from: 10, to: 100, step: 10}       # inclusive
///       - zip:                                        # advance together
///           - {key: partitioner.name, values: [bodp, grid2d]}
///           - {key: partitioner.workers, values: [4, 4]}
///       - seeds: [1, 2, 3]                            # or {from: 1, count: 5}; sets `seed`
///
/// Runs are numbered in row-major order: the last axis varies fastest.
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

struct SweepRun {
  std::size_t index = 0;
  Json assignments = Json::object();  ///< key path -> value (keys sorted)
  Json scenario;                      ///< the base with the assignments applied
};

struct SweepSpec {
  std::string name;
  Json base;  ///< the base scenario (already loaded)
  /// Per axis, the list of points; a point assigns one or more keys (zip axes assign several).
  std::vector<std::vector<Json>> points;
};

/// Parses a sweep document (`file` names it in errors and resolves `base`).
/// Throws `InputError(file, "axes[1].range.step", ...)` on a malformed axis.
SweepSpec parse_sweep(const Json& doc, const std::string& file);

/// Number of runs (product of the axis sizes).
std::size_t sweep_size(const SweepSpec& spec);
/// The run with row-major index `index` < sweep_size(spec).
SweepRun sweep_run(const SweepSpec& spec, std::size_t index);
/// Every run, in order.
std::vector<SweepRun> expand_sweep(const SweepSpec& spec);

}  // namespace coinfer
