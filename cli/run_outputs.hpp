#pragma once
/// The files one simulated scenario leaves in its output folder, written the same way by
/// `coinfer run` and by a sweep's forked runs: results.json, frames.csv (when asked) and a trace.
#include <string>

#include "sim/scenario/scenario.hpp"

namespace coinfer::cli {

/// Writes `dir`/results.json, `dir`/frames.csv when `frames` or the scenario asks (row by row), and
/// publishes the trace the run streamed (`trace_file`, or `dir`/trace.json when the scenario records
/// one; execute_scenario gives the run a ChromeTraceWriter when `spec.trace`). Each file whole or not
/// at all; throws `Error` when a trace is asked for but the run streamed none.
void write_run_outputs(const ScenarioSpec& spec, const ScenarioRun& run, const std::string& dir,
                       const std::string& trace_file, bool frames);

}  // namespace coinfer::cli
