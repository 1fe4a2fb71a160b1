#pragma once
/// Streams a run's timeline as a Chrome trace event JSON file (the format ui.perfetto.dev and
/// chrome://tracing open): events are formatted into a 1 MiB buffer and appended to a staged file
/// as the replay produces them; finish() writes the closing bracket and publishes the file, whole
/// (staged_file.hpp: a run killed midway leaves no file at the path). Memory stays at the buffer
/// whatever the number of frames.
///
/// Format (coinfer-trace/1). One event per line; times `ts` and `dur` in microseconds of simulated
/// time; slices appear in the order they end, counters in time order per counter (viewers sort):
///
///     {"traceEvents":[
///     {"name":"process_name","ph":"M","pid":1,"args":{"name":"devices"}},
///     {"name":"process_name","ph":"M","pid":2,"args":{"name":"network"}},
///     {"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"phone"}},
///     {"name":"thread_sort_index","ph":"M","pid":1,"tid":0,"args":{"sort_index":0}},
///     {"name":"lte/phone/up rate","ph":"C","pid":2,"ts":0,"args":{"mbps":5.85}},
///     {"name":"up","cat":"transfer","ph":"X","pid":2,"tid":2,"ts":260000,"dur":858402,
///      "args":{"frame":0,"label":"input"}},
///     ...
///     ],"displayTimeUnit":"ms"}
///
/// - Tracks (`tid`, metadata "M" events): every device (pid 1 "devices"), then every link (pid 2
///   "network", named as in results.json's `bytes`), then each radio `radio DEVICE@NETWORK` when it
///   first wakes up (pid 2). `thread_sort_index` keeps that order.
/// - Slices ("X"): `compute` (a task on its device's track), `transfer` (a transfer on the track of
///   every link it crosses, from the start of its latency to its last byte), `wake-up` (a radio
///   waking or setting up a channel, on the radio's track). `name` is the task id ("wake-up" for
///   wake-ups); `args.frame` the frame; `args.label` the task label (a channel wake-up: the
///   channel), absent when empty.
/// - Counters ("C", sampled when the value changes; Perfetto shows "NAME SERIES" tracks):
///   - `LINK rate`, series `mbps` (pid 2): the link's rate from its bandwidth model, from t = 0
///     and at each change (one sample per link when constant).
///   - `DEVICE queue`, series `tasks` (pid 1): compute tasks ready and waiting for the device, the
///     running one not counted.
///   - `admission queue`, series `frames` (pid 1): frames released and waiting for the plan's
///     first stage (policy queue).
///   - `radio DEVICE@NETWORK`, series `state` (pid 2), for each radio of a network with a
///     wake-up (`wake_up_s` > 0): 0 asleep (idle longer than `power_save_timeout_s`: its next
///     transfer pays a wake-up), 1 waking (a wake-up or channel set-up under way), 2 on (a
///     transfer under way, or idle within the timeout). Falling asleep is sampled at the time it
///     happened, once the radio's next change (or the run's end) shows it stayed idle that long.
///
///     auto writer = std::make_shared<ChromeTraceWriter>("out/trace.json");
///     options.trace_writer = writer;   // simulate() finishes it: out/trace.json appears
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/trace/staged_file.hpp"
#include "sim/trace/trace_writer.hpp"

namespace coinfer {

class ChromeTraceWriter final : public TraceWriter {
 public:
  /// Writes the trace to `path` (published by finish()), or with an empty path to an unnamed file
  /// in the system's temp folder that `publish` places once finished. Throws `Error` when the file
  /// cannot be created.
  explicit ChromeTraceWriter(std::string path = "");

  void add_track(std::size_t id, TraceGroup group, std::string_view name) override;
  void add_counter(std::size_t id, TraceGroup group, std::string_view name, std::string_view series) override;
  void slice(const TraceSlice& slice) override;
  void sample(std::size_t id, double time_s, double value) override;
  void finish() override;
  void publish(const std::string& path) override;

  /// Events written so far (metadata included).
  std::size_t events() const { return events_; }

 private:
  void begin_event();
  void flush();

  std::string path_;
  StagedFile file_;
  fmt::memory_buffer buffer_;
  std::vector<std::string> track_keys_;    ///< per track: `"ph":"X","pid":P,"tid":T,"ts":`
  std::vector<std::string> counter_head_;  ///< per counter: `{"name":"N","ph":"C","pid":P,"ts":`
  std::vector<std::string> counter_tail_;  ///< per counter: `,"args":{"SERIES":`
  std::size_t events_ = 0;
  bool finished_ = false;
};

}  // namespace coinfer
