#pragma once
/// Host time of each layer of a model (and of runs of consecutive layers executed as one
/// group), the input the cost model scales to target devices. Filled either by the profiler
/// (real kernels timed on this host, basis "profile") or by the MACs-based estimate
/// (`estimate_host_profile`, basis "estimate").
///
///     HostProfile p = estimate_host_profile(graph, HostSpeed::nominal());
///     double t = p.range_sum_s(0, graph.size() - 1);     // sum of per-layer medians
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Robust statistics of repeated timings of one layer or group (seconds).
struct TimingStats {
  double median_s = 0.0;
  double iqr_s = 0.0;   ///< interquartile range (q3 - q1)
  int repeats = 0;      ///< timed runs behind the statistics (0 for an estimate)
  double mean_s = 0.0;  ///< arithmetic mean (sums over layers to the mean pass time; not robust)

  bool operator==(const TimingStats&) const = default;
};

/// A run of consecutive layers [first, last] (topological positions) timed as one unit.
struct GroupTiming {
  std::size_t first = 0;
  std::size_t last = 0;
  TimingStats stats;

  bool operator==(const GroupTiming&) const = default;
};

struct HostProfile {
  std::string model;     ///< graph name
  std::string host_cpu;  ///< `model name` of /proc/cpuinfo (or "unknown")
  std::string basis;     ///< "profile" (measured), "estimate" (MACs-based) or "normalized"
                         ///< (measured, rescaled to the estimate: estimate_normalization.hpp)
  std::string build_id;  ///< kernel build the timings came from (empty for an estimate)
  /// Inputs each timing runs together (profiler.hpp `ProfileOptions::batch`, host_estimate.hpp):
  /// every time is that of a batch of this many inputs.
  std::int64_t batch = 1;
  /// Per layer, indexed by topological position.
  std::vector<TimingStats> layers;
  std::vector<GroupTiming> groups;

  /// Sum of the per-layer medians over [first, last]; throws `Error` on a bad range.
  double range_sum_s(std::size_t first, std::size_t last) const;
  /// The group timing of exactly [first, last], or null.
  const GroupTiming* group_or_null(std::size_t first, std::size_t last) const;

  bool operator==(const HostProfile&) const = default;
};

/// JSON form (also the profiler's cache format):
/// {"model", "host_cpu", "basis", "build_id", ["batch" when > 1,]
///  "layers": [{"median_s", "iqr_s", "mean_s", "repeats"}],
///  "groups": [{"first", "last", "median_s", "iqr_s", "mean_s", "repeats"}]}.
Json host_profile_to_json(const HostProfile& profile);
/// Inverse of `host_profile_to_json`; throws `InputError` with the JSON path.
HostProfile host_profile_from_json(const Json& json);

/// This host's CPU model from /proc/cpuinfo ("unknown" when unavailable).
std::string host_cpu_model();

}  // namespace coinfer
