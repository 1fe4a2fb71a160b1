#pragma once
/// Rows of a PyTorch profiler Chrome trace (`torch.profiler.profile(...).export_chrome_trace(path)`).
/// Private to sim/calibration; `parse_profile(text, file, ProfileFormat::TorchTrace)` calls it.
///
/// Layouts read (the Trace Event Format: a JSON array of events, or an object whose `traceEvents`
/// holds them; complete events have `ph: "X"`, `ts` and `dur` in microseconds, `pid`, `tid`):
/// - Kineto (PyTorch builds with Kineto, the usual ones): `{"schemaVersion": 1, "traceEvents": [...]}`,
///   each event with a `cat`: `cpu_op` for operators (`aten::conv2d`), `user_annotation` for
///   `record_function(name)` ranges and the `ProfilerStep#k` ranges a schedule adds.
/// - Legacy (PyTorch built without Kineto: torch.autograd.profiler_util.EventList.export_chrome_trace):
///   a bare array of `{"name", "ph": "X", "ts", "dur", "tid", "pid": "CPU functions", "args": {}}`
///   with no `cat`; an event whose name holds `::` is an operator, any other an annotation.
///
/// Rows: the annotations other than `ProfilerStep#k` when there are any (in start order), else the
/// top-level operators: not nested in another operator of the same thread. Nesting goes by start:
/// an event that starts before an enclosing event of its thread ends is inside it (a trace in whole
/// microseconds can show a child ending a microsecond after its parent). An annotation row's
/// `op_type` is the longest top-level operator inside it (`conv1` -> `aten::conv2d`); an operator
/// row's is its own name. With `ProfilerStep#k` events, every step must hold the same row names in
/// the same order; a row's time is the mean over the steps, its line the first step's event; events
/// outside every step are not rows. Errors name the event as `traceEvents[i]` (0-based);
/// `ProfileRow::line` is i + 1.
#include <string>
#include <vector>

#include "sim/calibration/profile_import.hpp"

namespace coinfer {

/// The rows of the trace `text` read from `file`; throws `InputError` for a JSON that is not a
/// Chrome trace, a malformed complete event, steps that differ, or a trace with no rows.
std::vector<ProfileRow> torch_trace_rows(const std::string& text, const std::string& file);

}  // namespace coinfer
