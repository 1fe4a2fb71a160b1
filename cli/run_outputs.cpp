#include "cli/run_outputs.hpp"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/metrics/metrics.hpp"
#include "sim/metrics/user_metrics.hpp"
#include "sim/trace/staged_file.hpp"

namespace coinfer::cli {
namespace {

// A cell of a per-frame value: empty for NaN (a frame without one).
void append_value_cell(fmt::memory_buffer& buffer, double value) {
  buffer.push_back(',');
  if (!std::isnan(value)) fmt::format_to(fmt::appender(buffer), "{}", value);
}

// frames.csv row by row through a 1 MiB buffer: memory stays flat however many frames ran.
void write_frames_csv(const std::string& path, const SimulationResult& result) {
  constexpr std::size_t kFlushBytes = 1 << 20;
  StagedFile file(path);
  fmt::memory_buffer buffer;
  // A scheduler that scored frames (Scheduler::frame_score) adds a column, `score`; one that
  // names per-frame values (Scheduler::frame_value_names) adds one column each after it.
  const bool scored = !result.frame_scores.empty();
  const bool extended = scored || !result.frame_columns.empty();
  std::string_view header = kFramesCsvHeader;
  if (extended) header.remove_suffix(1);
  buffer.append(header.data(), header.data() + header.size());
  if (scored) buffer.append(std::string_view(",score"));
  for (const auto& column : result.frame_columns) fmt::format_to(fmt::appender(buffer), ",{}", column.name);
  if (extended) buffer.push_back('\n');
  for (std::size_t k = 0; k < result.frames.size(); ++k) {
    append_frames_csv_row(buffer, k, result.frames[k]);
    if (extended) {
      buffer.resize(buffer.size() - 1);  // the row's newline
      if (scored) append_value_cell(buffer, result.frame_scores[k]);
      for (const auto& column : result.frame_columns) append_value_cell(buffer, column.values[k]);
      buffer.push_back('\n');
    }
    if (buffer.size() < kFlushBytes) continue;
    file.append({buffer.data(), buffer.size()});
    buffer.clear();
  }
  file.append({buffer.data(), buffer.size()});
  file.publish(path);
}

}  // namespace

void write_run_outputs(const ScenarioSpec& spec, const ScenarioRun& run, const std::string& dir,
                       const std::string& trace_file, bool frames) {
  write_file_atomic(dir + "/results.json", run.results.dump(2) + "\n");
  if (frames || spec.frames_csv) write_frames_csv(dir + "/frames.csv", run.simulation);
  if (!run.simulation.users.empty()) write_file_atomic(dir + "/users.csv", users_csv(run.simulation));
  const auto trace_path = !trace_file.empty() ? trace_file : spec.trace ? dir + "/trace.json" : "";
  if (trace_path.empty()) return;
  if (!run.simulation.trace_writer)
    throw Error(
        fmt::format("no trace was streamed for {} (execute_scenario records one when the scenario's "
                    "outputs.trace is set)",
                    trace_path));
  run.simulation.trace_writer->publish(trace_path);
}

}  // namespace coinfer::cli
