#pragma once
/// Internal to sim/replay (no SimGrid): the replay's timeline. The dispatcher tells it what
/// happened (a slice ended, a queue changed, a radio changed state, time went by for the link
/// rates); it owns every track and counter, streams them into SimOptions::trace_writer
/// (format: sim/trace/chrome_trace_writer.hpp) and keeps frame 0's slices in
/// SimulationResult::trace when asked. Every hook returns at once when nothing is traced.
///
/// Tracks: devices, then links, then radios (added when they first wake). Counters, each sampled
/// at t = 0: link rates (counter id = link index), device queues, the admission queue, the
/// state of every radio of a network with a wake-up (radio index: Topology::radio_of),
/// then the batch size of every batching device (Device::batching: the tasks of each execution
/// it starts).
///
///     TraceRecorder trace(topology, series, -kInf, writer.get(), false, result);
///     trace.compute(0, "conv1", 0.0, 0.2, 0, "");
///     trace.finish(1.0);  // the writer's finish()
#include <cstddef>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "sim/platform/bandwidth_series.hpp"
#include "sim/platform/topology.hpp"
#include "sim/replay/simulation_result.hpp"
#include "sim/trace/trace_writer.hpp"

namespace coinfer::replay {

/// What the recorder reads of a radio to tell its state: waking, on (in use, or idle no longer
/// than the network's power_save_timeout_s) or asleep.
struct RadioActivity {
  bool waking = false;
  std::size_t active = 0;                                           ///< transfers using the radio
  double last_active_s = -std::numeric_limits<double>::infinity();  ///< when it was last in use
};

class TraceRecorder {
 public:
  /// Declares the tracks and counters and samples them at t = 0 (radios as idle since
  /// `radios_idle_since_s`). `series` (one per Topology link) must outlive the recorder; nothing
  /// is traced when `writer` is null and `record_frame0` false.
  TraceRecorder(const Topology& topology, std::vector<BandwidthSeries>& series, double radios_idle_since_s,
                TraceWriter* writer, bool record_frame0, SimulationResult& out);

  /// Slices are traced (streamed, or frame 0's kept).
  bool tracing() const { return tracing_; }
  /// Counters are streamed: only then are queue, admission and rate samples wanted.
  bool streams() const { return writer_ != nullptr; }

  /// A compute task of `frame` ran on `device` over [start_s, end_s].
  void compute(std::size_t device, std::string_view id, double start_s, double end_s, std::size_t frame,
               std::string_view label);
  /// A background job (Scheduler::take_background) named `label` ran on `device` over [start_s, end_s].
  void background(std::size_t device, std::string_view label, double start_s, double end_s);
  /// A frame's transfer crossed `links` over [start_s, end_s].
  void transfer(std::span<const std::uint32_t> links, std::string_view id, double start_s, double end_s,
                std::size_t frame, std::string_view label);
  /// A scheduler's probe (it belongs to no frame) crossed `links`.
  void probe(std::span<const std::uint32_t> links, double start_s, double end_s);
  /// `radio` woke up (label: the channel set up, or "" for the radio) for a transfer of `frame`.
  void wake_up(std::size_t radio, double start_s, double end_s, std::size_t frame, std::string_view label);

  /// Every rate change of a varying link up to `t`, in order.
  void rates(double t) {
    if (!varying_links_.empty()) sample_rates(t);
  }
  /// `device`'s ready queue holds `tasks` at `t` (sampled when it changed).
  void queue(std::size_t device, double t, std::size_t tasks);
  /// The admission queue holds `frames` at `t` (sampled when it changed).
  void admission(double t, std::size_t frames);
  /// A batching `device` started an execution of `tasks` tasks at `t` (sampled when it changed).
  void batch(std::size_t device, double t, std::size_t tasks);
  /// `radio` changed at `t` (a wake-up began or ended, a transfer began or ended on it).
  void radio(std::size_t radio, double t, const RadioActivity& now) {
    if (writer_ != nullptr && radio_trace_[radio].counter != kNone) sample_radio(radio, t, now);
  }
  /// The run ended at `end_s`: the counters' last samples, then the writer's finish().
  void finish(double end_s);

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  /// A link's rate counter: the series segment last sampled and when the next one starts.
  struct RateTrace {
    std::size_t segment = 0;
    double next_s = std::numeric_limits<double>::infinity();
    double rate_bps = 0.0;
  };
  /// A radio's state counter (0 asleep, 1 waking, 2 on) and when it falls asleep if left idle.
  struct RadioTrace {
    std::size_t counter = kNone;  ///< kNone: not traced
    int state = -1;
    double sleep_at_s = std::numeric_limits<double>::infinity();
  };

  void declare_counters(double radios_idle_since_s);
  void add_track(TraceGroup group, const std::string& name);
  std::size_t radio_track(std::size_t radio);
  void slice(std::size_t track, std::string_view name, const char* category, double start_s, double end_s,
             std::size_t frame, std::string_view label);
  void sample_rates(double t);
  void sample_radio(std::size_t radio, double t, const RadioActivity& now);

  const Topology& topology_;
  std::vector<BandwidthSeries>& series_;
  TraceWriter* writer_;  ///< SimOptions::trace_writer
  bool record_frame0_;   ///< SimOptions::record_trace
  bool tracing_;         ///< a writer, or frame 0's slices recorded
  SimulationResult& out_;
  std::size_t first_link_track_ = 0;
  std::vector<std::size_t> radio_track_;  ///< per radio (kNone: no track yet); empty unless tracing
  std::vector<std::size_t> varying_links_;
  std::vector<RateTrace> rate_trace_;       ///< per link (counter id = link index)
  std::size_t first_queue_counter_ = 0;     ///< + device index
  std::vector<std::size_t> queue_sampled_;  ///< per device: the last queue length sampled
  std::size_t admission_counter_ = 0;
  std::vector<std::size_t> batch_counter_;  ///< per device: kNone when it does not batch
  std::vector<std::size_t> batch_sampled_;  ///< per device: the batch size last sampled
  std::size_t admission_sampled_ = 0;
  std::vector<RadioTrace> radio_trace_;  ///< per radio; empty without a writer
};

}  // namespace coinfer::replay
