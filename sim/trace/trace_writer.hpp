#pragma once
/// The sink the replay streams its timeline into while it runs (SimOptions::trace_writer): tracks
/// (one per device, link and radio), slices on them (a compute task, a transfer on a link, a radio
/// wake-up) and counters sampled when their value changes (a link's rate, a device's queue, a
/// radio's state). Nothing is kept: memory does not grow with the frames of a run.
/// ChromeTraceWriter (chrome_trace_writer.hpp) writes the Chrome trace JSON file.
///
///     auto writer = std::make_shared<ChromeTraceWriter>("out/trace.json");
///     SimOptions options;
///     options.trace_writer = writer;          // simulate() calls finish(): the file appears
///     simulate(platform, plan, stream_workload(10, 1000), options);
#include <cstddef>
#include <string>
#include <string_view>

namespace coinfer {

/// The group (Chrome process) a track or counter belongs to.
enum class TraceGroup : int {
  Devices = 1,  ///< devices: compute slices, queue counters
  Network = 2,  ///< links and radios: transfer and wake-up slices, rate and radio state counters
};

/// One slice of a track. The views need only live during the call.
struct TraceSlice {
  std::size_t track = 0;
  std::string_view name;      ///< the task id ("wake-up" for a radio wake-up)
  std::string_view category;  ///< "compute", "transfer", "wake-up"
  double start_s = 0.0;
  double end_s = 0.0;
  std::size_t frame = 0;
  std::string_view label;  ///< the task label (a channel wake-up: the channel); may be empty
};

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  /// Declares track `id` (ids are 0, 1, 2, ... in declaration order) before its first slice.
  virtual void add_track(std::size_t id, TraceGroup group, std::string_view name) = 0;
  /// Declares counter `id` (0, 1, 2, ...): samples of `series` (e.g. "mbps") of the quantity `name`.
  virtual void add_counter(std::size_t id, TraceGroup group, std::string_view name,
                           std::string_view series) = 0;
  /// A slice; slices come in the order they end, not sorted by start.
  virtual void slice(const TraceSlice& slice) = 0;
  /// Counter `id` holds `value` from `time_s` on (samples of one counter come in time order).
  virtual void sample(std::size_t id, double time_s, double value) = 0;
  /// Completes the trace; a writer given a path publishes its file now. Throws `Error` when the
  /// file cannot be written. A writer destroyed without finish() leaves no file behind.
  virtual void finish() = 0;
  /// Puts the finished trace at `path` (replacing it, atomically), for a writer created without a
  /// path. Throws `Error` when it cannot, or when this writer has no file.
  virtual void publish(const std::string& path) = 0;
};

}  // namespace coinfer
