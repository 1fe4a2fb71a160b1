#pragma once
/// Chrome trace event JSON (the format Perfetto and chrome://tracing open) of a simulation run
/// with SimOptions::record_trace: one process for devices and one for links (plus radios),
/// one track (tid) per device, link and radio, one complete ("X") slice per compute task,
/// transfer and wake-up, named after the task, with the frame and label in its args.
/// Times are in microseconds.
///
///     Json trace = chrome_trace_json(result);     // write trace.dump() to a .json file
#include "sim/core/json_access.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

Json chrome_trace_json(const SimulationResult& result);

}  // namespace coinfer
