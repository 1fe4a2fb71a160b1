#include "cli/run_outputs.hpp"

#include "sim/core/atomic_file.hpp"
#include "sim/metrics/metrics.hpp"
#include "sim/trace/chrome_trace.hpp"

namespace coinfer::cli {

void write_run_outputs(const ScenarioSpec& spec, const ScenarioRun& run, const std::string& dir,
                       const std::string& trace_file, bool frames) {
  write_file_atomic(dir + "/results.json", run.results.dump(2) + "\n");
  if (frames || spec.frames_csv) write_file_atomic(dir + "/frames.csv", frames_csv(run.simulation));
  const auto trace_path = !trace_file.empty() ? trace_file : spec.trace ? dir + "/trace.json" : "";
  if (!trace_path.empty()) write_file_atomic(trace_path, chrome_trace_json(run.simulation).dump() + "\n");
}

}  // namespace coinfer::cli
