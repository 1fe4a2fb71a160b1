#pragma once
/// Run metrics: what `results.json` holds and what a sweep row is made of.
///
///     {"scenario", "seed", "frames", "completed", "dropped",
///      "latency_ms": {"mean", "p50", "p95", "max"},   // completed frames, release -> end
///      "throughput_fps",                              // completed / (last end - first release)
///      "energy_j": {device: J}, "bytes": {link: B}, "busy_s": {device: s},
///      "active_energy_j": {device: J},                 // busy_w x busy_s + radio (no idle)
///      "analytic_latency_ms",                          // critical path of plan variant 0
///      "deadline_met", "simulated_s", "wake_ups": {device: n}, "warnings": [..],
///      "batch_size_mean": {device: tasks per execution}}   // only devices that ran a batch
///
/// A scenario run adds (sim/scenario/scenario.cpp) "plan_variants": [{"name", "metadata"}] when the
/// partitioner offered several variants or facts (`metadata`: `VariantFacts::to_json`, plan.hpp), and
/// effective accuracy (sim/metrics/effective_accuracy.hpp) when every variant carries an `accuracy`.
///
/// Percentiles are nearest-rank: p-th = the ceil(p/100 * n)-th smallest latency (percentile.hpp:
/// selected in place from the frame records, no copy of the latencies). Latency fields are null
/// when no frame completed.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/core/json_access.hpp"
#include "sim/metrics/percentile.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

/// The results.json document of one run.
Json run_metrics(const std::string& scenario, const SimulationResult& result);

/// The first line of frames.csv.
inline constexpr std::string_view kFramesCsvHeader =
    "frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met\n";

/// Appends frame `index`'s frames.csv row (newline included) to `out`: times as the shortest
/// decimal that reads back exactly, blank when absent (a dropped frame's start, end, latency).
void append_frames_csv_row(fmt::memory_buffer& out, std::size_t index, const FrameRecord& frame);

/// Per-frame CSV, header and one row per frame, as one string (small runs; files of large runs
/// are written row by row: cli/run_outputs.cpp).
std::string frames_csv(const SimulationResult& result);

}  // namespace coinfer
