#pragma once
/// Per-stage metrics of a single inference: the plan's tasks grouped by label (a partitioner that
/// labels every task with its stage, as MoDNN's does with the head layer's name, gets one entry per
/// conv / fc stage). Needs a run with a recorded trace (SimOptions::record_trace) of frame 0.
///
///     {"stages": {label: {"compute_ms", "transfer_ms", "bytes", "bytes_to_source", "transfers",
///                         "transfer_ms_to_source_per_sender", "bytes_to_source_per_sender"}},
///      "stage_order": [labels in plan order],
///      "stage_kinds": {op: {"stages", "mean_<each stage number above but transfers>"}},
///      "stage_summary": {"max_compute_ms", "max_transfer_ms", "first_transfer_ms", "last_transfer_ms"},
///      "compute_ms", "delivery_ms", "exposed_delivery_ms",
///      "bytes_to_source", "bytes_from_source", "bytes_between_others"}
///
/// - compute_ms of a stage: the largest total of its compute tasks' durations on one device (the
///   stage's parallel computing time, without data delivery: MoDNN Fig. 2.9's bars).
/// - transfer_ms: the summed on-air time of its transfers (first to last trace event of each),
///   without radio wake-ups: the transmission time.
/// - bytes_to_source / bytes_from_source: plan bytes of transfers into / out of `source` (the
///   scenario's source device: MoDNN's GO, so these are the reduce and the map traffic);
///   bytes_to_source_per_sender divides a stage's by the devices sending to the source (MoDNN: per
///   worker channel), transfer_ms_to_source_per_sender its on-air time into the source likewise.
/// - stage_kinds: stages whose label names a layer of the graph, grouped by that layer's op
///   (e.g. "conv2d"): the mean per stage.
/// - stage_summary: the slowest stage's compute_ms, the largest transfer_ms, and the transfer_ms of
///   the first and the last stage (in stage_order) with a transfer; the transfer ones are 0 when no
///   stage transfers. A report can name these instead of stage labels that depend on the split.
/// - run level, frame 0: compute_ms = time during which some device computes; delivery_ms = time
///   during which some radio wakes up or some transfer is on the air (MoDNN's data delivery time:
///   wake-up plus transmission); exposed_delivery_ms = latency - compute_ms, the delivery not
///   hidden behind computation.
#include "sim/core/json_access.hpp"
#include "sim/graph/graph.hpp"
#include "sim/plan/plan.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

/// Throws `Error` when the result holds no frame or no trace.
Json stage_metrics(const Plan& plan, const SimulationResult& result, const Graph& graph,
                   const std::string& source);

}  // namespace coinfer
