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
///     columns: [scheduler_metrics.accuracy]           # optional: more results.json paths as columns
///
/// Runs are numbered in row-major order: the last axis varies fastest. A base with `compare`
/// variants adds one more, fastest axis, `variant`: each run is one variant of one point (the
/// variant's `set` first, then the axis values), so every run is one process and one row.
///
/// Paths: the base's relative paths are rebased onto the sweep file's folder when it is loaded,
/// so every path in a run's scenario (base, inline `scenario:`, axis values) is relative to the
/// sweep file's folder, whichever file wrote it.
///
/// Identity: a run's `point_hash` is a hash of its whole scenario document (as resolved against
/// the sweep's folder), so a results row is tied to exactly the point that produced it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/scenario/compare.hpp"

namespace coinfer {

struct SweepRun {
  std::size_t index = 0;
  std::string variant;                ///< the compare label, empty without variants
  Json assignments = Json::object();  ///< key path -> value (keys sorted)
  Json scenario;                      ///< the base with the variant and the assignments applied
  std::string point_hash;             ///< 16 hex digits identifying `scenario`
};

struct SweepSpec {
  std::string name;
  std::string file;  ///< the sweep file (errors name it; relative paths resolve from its folder)
  Json base;         ///< the base scenario (loaded, paths rebased, `compare` and `report` removed)
  /// Per axis, the list of points; a point assigns one or more keys (zip axes assign several).
  std::vector<std::vector<Json>> points;
  std::vector<CompareEntry> variants;  ///< the base's `compare` entries (the fastest axis)
  bool dropped_report = false;         ///< the base had a `report:` block, which a sweep does not draw
  /// `columns:` extra results.json paths (e.g. `scheduler_metrics.accuracy`), after the metrics.
  std::vector<std::string> columns;
  /// The folder relative paths in a run's scenario are relative to.
  std::string dir() const;
};

/// The most runs a sweep may have (the product of its axes and variants); an axis alone holds at
/// most as many points. Each run is a process, and every point is checked before the first starts.
inline constexpr std::size_t kMaxSweepRuns = 100'000;

/// Parses a sweep document (`file` names it in errors and resolves `base`).
/// Throws `InputError(file, "axes[1].range.step", ...)` on a malformed axis, and at `axes[i]` when
/// the axes up to i make more than `kMaxSweepRuns` runs.
SweepSpec parse_sweep(const Json& doc, const std::string& file);

/// Number of runs (product of the axis sizes).
std::size_t sweep_size(const SweepSpec& spec);
/// The run with row-major index `index` < sweep_size(spec).
SweepRun sweep_run(const SweepSpec& spec, std::size_t index);
/// Every run, in order.
std::vector<SweepRun> expand_sweep(const SweepSpec& spec);

/// The hash `point_hash` uses: FNV-1a 64 over the compact JSON text (object keys sorted), as 16
/// lowercase hex digits. Stable across machines and runs.
std::string json_hash(const Json& doc);

/// `partitioner.name=local, seed=3` (and `variant=wifi` first when there is one), for messages.
std::string describe_run(const SweepRun& run);

}  // namespace coinfer
