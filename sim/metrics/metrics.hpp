#pragma once
/// Run metrics: what `results.json` holds and what a sweep row is made of.
///
///     {"scenario", "seed", "frames", "completed", "dropped",
///      "latency_ms": {"mean", "p50", "p95", "max"},   // completed frames, release -> end
///      "throughput_fps",                              // completed / (last end - first release)
///      "energy_j": {device: J}, "bytes": {link: B}, "busy_s": {device: s},
///      "analytic_latency_ms",                          // critical path of plan variant 0
///      "deadline_met", "simulated_s", "wake_ups": {device: n}, "warnings": [..]}
///
/// Percentiles are nearest-rank: p-th = the ceil(p/100 * n)-th smallest latency. Latency
/// fields are null when no frame completed.
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

/// Nearest-rank percentile of `values` (need not be sorted); `p` in (0, 100]. NaN when empty.
double percentile_nearest_rank(std::vector<double> values, double p);

/// The results.json document of one run.
Json run_metrics(const std::string& scenario, const SimulationResult& result);

/// Per-frame CSV: frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met.
std::string frames_csv(const SimulationResult& result);

}  // namespace coinfer
