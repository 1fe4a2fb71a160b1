#pragma once
/// What one simulation produced: per-frame records (32 bytes each), per-device time and energy,
/// per-link traffic, frame 0's trace events when asked, and the streamed trace's writer. Plain
/// data; `simulation_result_to_json` gives a canonical JSON (the same seed gives the same bytes).
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/trace/trace_writer.hpp"
#include "sim/workload/frame_record.hpp"

namespace coinfer {

/// What a run counts on a device while it runs (DeviceStats without its name and the energies
/// worked out at the end: the replay keeps these, and the rest is added when its state is gone, so
/// that a city's device names are not held twice).
struct DeviceCounts {
  double busy_s = 0.0;  ///< time spent executing compute tasks
  std::size_t executions = 0;
  double radio_energy_j = 0.0;  ///< JointDNN eq. 21 over the transfers it sent and received
  double bytes_sent = 0.0;
  double bytes_received = 0.0;
  std::size_t wake_ups = 0;           ///< radio wake-ups paid (all networks)
  double probe_radio_energy_j = 0.0;  ///< of radio_energy_j, the probes' (Scheduler::take_probes)
  std::size_t background_jobs = 0;    ///< of executions, background jobs (Scheduler::take_background)
  double background_busy_s = 0.0;     ///< of busy_s, the background jobs'
  std::size_t batches = 0;            ///< of executions, batches of 2 or more tasks (Device::batching)
  std::size_t batched_tasks = 0;      ///< the tasks those batches ran
};

struct DeviceStats : DeviceCounts {
  std::string device;
  double compute_energy_j = 0.0;  ///< busy_w * busy_s + idle_w * (end_s - busy_s)
  double energy_j = 0.0;          ///< compute + radio
  /// busy_w * busy_s + radio: the energy of working, without idle_w while waiting (JointDNN's
  /// mobile energy, [JointDNN §2.4.2]).
  double active_energy_j = 0.0;
};

/// A per-frame value a scheduler adds to each frame's record (Scheduler::frame_value_names).
struct FrameColumn {
  std::string name;
  std::vector<double> values;  ///< per frame, by index (NaN: none)
};

/// What a run counts on a link (LinkStats without its names, as DeviceCounts).
struct LinkCounts {
  double bytes = 0.0;
  std::size_t messages = 0;
  double busy_s = 0.0;       ///< time with at least one transfer on the link (latency included)
  std::size_t probes = 0;    ///< of the messages, probes (Scheduler::take_probes)
  double probe_bytes = 0.0;  ///< of the bytes, the probes'
};

struct LinkStats : LinkCounts {
  std::string link;  ///< Topology link name ("wlan", "lte/phone/up", "eth/server/in")
  std::string network;
};

/// One slice of frame 0's timeline, kept in memory (SimOptions::record_trace) for stage metrics.
struct TraceEvent {
  std::size_t track = 0;  ///< index into SimulationResult::trace_tracks
  std::string name;       ///< the task id ("wake-up" for radio wake-ups)
  std::string category;   ///< "compute", "transfer", "wake-up"
  double start_s = 0.0;
  double end_s = 0.0;
  std::size_t frame = 0;
  std::string label;  ///< the task label (a channel wake-up: the channel)
};

/// One user of a population (simulate_population): its frames are
/// SimulationResult::frames[first_frame, first_frame + frames).
struct UserRange {
  std::string name;
  std::string device;
  std::size_t first_frame = 0;
  std::size_t frames = 0;
};

struct SimulationResult {
  std::uint64_t seed = 0;
  std::vector<FrameRecord> frames;   ///< one per released frame, by index
  std::vector<DeviceStats> devices;  ///< platform order
  std::vector<LinkStats> links;      ///< Topology order
  double end_s = 0.0;                ///< simulated time when the workload was done
  std::size_t executions = 0;        ///< SimGrid executions run
  std::size_t messages = 0;          ///< transfers sent (probes too; each one SimGrid comm or more)
  /// Critical path of each plan variant (a population's: its first user's).
  std::vector<double> analytic_latency_s;
  std::vector<std::string> warnings;      ///< e.g. a device without a radio power model
  std::vector<std::string> trace_tracks;  ///< devices, then links, then radios (when traced)
  std::vector<TraceEvent> trace;          ///< frame 0's events, when SimOptions::record_trace
  /// Per frame, the scheduler's score (Scheduler::frame_score: 1 right, 0 wrong; NaN: none).
  /// Empty when the scheduler scored no frame.
  std::vector<double> frame_scores;
  /// The scheduler's per-frame values (Scheduler::frame_values), in frame_value_names order.
  /// Empty when the scheduler names none.
  std::vector<FrameColumn> frame_columns;
  std::map<std::string, double> scheduler_metrics;  ///< Scheduler::summary() at the end of the run
  std::vector<UserRange> users;  ///< a population's users, in frame order (empty: one source)
  /// SimOptions::trace_writer, finished (null without one). Its file, when the writer was made
  /// without a path, waits for `trace_writer->publish(path)`. Not part of the JSON form.
  std::shared_ptr<TraceWriter> trace_writer;

  std::size_t completed_frames() const;
  std::size_t dropped_frames() const;
};

Json simulation_result_to_json(const SimulationResult& result);
/// Inverse of simulation_result_to_json (used to bring a result back from a child process).
SimulationResult simulation_result_from_json(const Json& json);

}  // namespace coinfer
