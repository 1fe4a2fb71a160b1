#pragma once
/// The hook through which runtime schedulers (adaptive compression, CBO online, AdaLearner...)
/// steer a running workload. The replay calls the scheduler at each frame release (choose the
/// plan variant for that frame, or drop it), after each frame ends, and every `period_s()` if
/// positive (choose the variant for the frames that follow). Schedulers see a snapshot, never
/// SimGrid; their choices index the plan variants passed to `simulate`.
///
/// Decision points (continuations). A decision may also come *after* part of a frame has run
/// (CBO, Tan & Cao: the NPU classifies the frame, then the scheduler decides whether to offload
/// it and at which resolution). When the plan variant a frame runs has finished every task, the
/// replay asks `on_plan_end`, which answers one of:
/// - `Finish` (the default): the frame is done, its end time is now;
/// - `Run{variant, transfer_bytes}`: the frame continues with that plan variant (a continuation,
///   e.g. upload -> server -> download), whose transfer sizes may be set for this frame only
///   (`transfer_bytes`, by task id: a per-frame size from a trace); the frame's record then names
///   the continuation's variant and ends when it does; plan ends of continuations are asked too;
/// - `Hold`: the frame waits undecided (its answer so far stands). After every event the scheduler
///   hears of (release, plan end, transfer end, frame end, period, hold expiry) the replay calls
///   `take_decisions`, which may resume held frames with `Run` or close them with `Finish`. A frame
///   still held at its release + the workload's deadline is finished by the replay; Hold needs a
///   finite deadline. A held frame that finishes ends when its plan ended (its answer's time).
///
/// Measured throughput. `SchedulerView::measured_links` is what the devices could measure about
/// their own completed transfers on each link (bytes / time, the route's known latency taken out),
/// computed by the replay from transfers that completed — not the simulator's true rate, which
/// `link_rates_bps` gives as the explicit oracle view.
///
/// Transfers in flight. A scheduler whose `sees_in_flight()` is true also gets, per link, what the
/// senders know of the transfers still travelling on it (MeasuredLink::in_flight and the oldest
/// one's size, bytes the link has taken so far — a TCP stack's acknowledged bytes — time since it
/// started sending and its route's latency), so it can notice a slow upload before it completes
/// (MeasuredLink::in_flight_rate_bps). No completion time, no true rate. The replay fills them only
/// when it builds a view for such a scheduler (reading a transfer's progress touches SimGrid's lazy
/// state, so every other run stays byte-identical); otherwise they stay 0.
///
/// Outcomes. `frame_score` lets a scheduler that knows each frame's answer (a per-frame trace) give
/// the frame a score when it is resolved (1 right, 0 wrong); `summary` adds the scheduler's own
/// metrics to the results (`scheduler_metrics`). Both are kept in SimulationResult.
///
/// Device stalls. Right after each `on_period` the replay calls `take_stalls`: each (device,
/// seconds) it returns makes that device start no compute task until now + seconds (tasks already
/// running finish; frames queue meanwhile), e.g. the devices reloading their layers after a plan
/// switch (Hu & Krishnamachari, Algorithm 2 line 7). An unknown device name is an error.
///
/// Probes. A scheduler that decides on measured throughput stops measuring when its plan stops
/// sending (a variant that keeps everything local). Right after each `on_frame` (with the view it
/// got) and each `on_period` (after `take_stalls`) the replay calls `take_probes`: each
/// ProbeRequest becomes one real transfer of `bytes` from device `from` to `to` over `network`,
/// belonging to no frame. It takes the same path as a frame's transfer on that route: the sender's
/// radio (or the pair's channel) wakes up first if asleep, a serialized radio queues it, SimGrid
/// shares the links with the frames' traffic and charges the route's latency, the radios pay JointDNN
/// eq. 21 for its duration, and on completion it counts in `measured_links` like any transfer. Results
/// count probes per link (LinkStats::probes / probe_bytes, and in the link's bytes and messages);
/// frame records never see them. The run ends once every frame is resolved and every probe arrived
/// (no probe is asked for after the last frame is resolved). Unknown devices or network, no route
/// between them, or `bytes` not > 0 and finite is an Error naming the scheduler.
///
/// Background compute. Some work belongs to no frame: MobiEye's key-frame FeatNet runs on a
/// second GPU while the frames go on ([Mao-PhD §4.3.2]). A scheduler whose `runs_background()` is
/// true is asked `take_background` after every event it hears of (where take_decisions is asked):
/// each BackgroundJob becomes one compute task of `seconds` on `device`, belonging to no frame. It
/// queues on the device like a frame's task (same slots; in the device's (frame, plan order) queue
/// it ranks after the tasks of every frame released so far, jobs among themselves in the order
/// asked), the device pays its busy power for it, the trace shows it as a `background` slice
/// (named by `label`) on the device's track, and results count jobs and busy seconds per device
/// (DeviceStats::background_jobs / background_busy_s, shown only when a run had any); frame records
/// never see them. When one ends the replay calls `on_background_end(tag)`. The run ends once every
/// frame is resolved and every job has finished (no job is asked for after the last frame is
/// resolved). An unknown device or `seconds` not > 0 and finite is an Error naming the scheduler.
///
/// Per-frame sizes and durations. `FrameDecision` and `Continuation::run` may set, for this frame
/// only, the sizes of the variant's transfer tasks (`transfer_bytes`) and the durations of its
/// compute tasks (`task_seconds`), by task id: e.g. a frame's encoded size from a video trace, or
/// an inter pass scaled by the frame's mask density. An id that is no such task of the variant, or
/// a value not >= 0 and finite, is an Error naming the scheduler.
///
/// Per-frame values. `frame_value_names` names columns a scheduler adds to each frame's record
/// (frames.csv, after `score`); `frame_values(frame)`, asked when the frame is resolved, gives one
/// value per name (NaN: none), e.g. MobiEye's feature age. Kept in SimulationResult::frame_columns.
///
/// Populations. In a population (simulate_population) each user may have its own scheduler
/// (UserSource::scheduler), a separate instance that decides for the user's stream alone: its view
/// shows the user's frames as frames 0, 1, ... (`frames` holds the user's records only), the user's
/// plan variants as 0, 1, ..., the user's own queued and in-flight frames, and in `measured_links`
/// only what the user's own device sent; its periods, stalls, probes, holds and background jobs are
/// its own. `link_rates_bps` is still every link's true rate (the oracle). The run's
/// `scheduler_metrics` are the users' summaries averaged key by key.
///
///     class Fixed : public Scheduler {
///       FrameDecision on_frame(const SchedulerView&) override { return {1, false}; }
///     };
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/workload/frame_record.hpp"

namespace coinfer {

struct Plan;
struct Platform;

/// What the devices measured on one link from their own completed transfers (the link's
/// transfers, whoever sent them: a link belongs to one sender, except a shared medium).
/// A transfer's measured duration is its completion time minus its start minus the route's
/// latency (a device knows its round-trip latency); its rate is 8 * bytes / that duration.
struct MeasuredLink {
  std::size_t transfers = 0;     ///< transfers completed over the link so far
  double last_bytes = 0.0;       ///< size of the last completed one
  double last_duration_s = 0.0;  ///< its measured duration (latency taken out)
  double last_rate_bps = 0.0;    ///< 8 * last_bytes / last_duration_s (0 before the first)
  /// Exponentially weighted mean of the per-transfer rates: the first transfer's rate, then
  /// ewma = kMeasuredEwmaWeight * rate + (1 - kMeasuredEwmaWeight) * ewma. 0 before the first.
  double ewma_rate_bps = 0.0;
  double last_end_s = 0.0;  ///< when the last one completed (0 before the first)

  // What the senders know of the link's transfers in flight (see the file comment; 0 unless the
  // scheduler's sees_in_flight()). A transfer is in flight from when it starts sending (after any
  // radio wake-up or serialized-radio queue) until it arrives; probes count.
  std::size_t in_flight = 0;            ///< transfers over the link in flight now
  double oldest_bytes = 0.0;            ///< size of the one in flight the longest
  double oldest_delivered_bytes = 0.0;  ///< bytes of it the link has taken so far
  double oldest_elapsed_s = 0.0;        ///< time since it started sending (latency included)
  double oldest_latency_s = 0.0;        ///< its route's latency
  /// Its rate so far, 8 * oldest_delivered_bytes / (oldest_elapsed_s - oldest_latency_s), once it is
  /// past its latency; 0 before, or with nothing in flight.
  double in_flight_rate_bps() const {
    const double sending_s = oldest_elapsed_s - oldest_latency_s;
    return in_flight > 0 && sending_s > 0.0 ? 8.0 * oldest_delivered_bytes / sending_s : 0.0;
  }
};

/// Weight of the newest transfer in MeasuredLink::ewma_rate_bps.
inline constexpr double kMeasuredEwmaWeight = 0.5;

/// The state a scheduler sees.
struct SchedulerView {
  double now_s = 0.0;
  std::size_t frame = 0;  ///< the frame being released (on_frame), or the next one
  std::size_t variant_count = 1;
  std::size_t current_variant = 0;   ///< the default for new frames (set by on_period)
  std::size_t queued_frames = 0;     ///< released, waiting for the first stage
  std::size_t frames_in_flight = 0;  ///< admitted, not yet completed
  double deadline_s = 0.0;           ///< the workload's per-frame deadline (inf: none)
  /// Every frame record of the stream so far, by frame index (a population user's own frames only).
  std::span<const FrameRecord> frames;
  const std::vector<std::string>* link_names = nullptr;
  std::vector<double> link_rates_bps;        ///< ORACLE: true current rate of each link (link_names order)
  std::vector<MeasuredLink> measured_links;  ///< what devices measured per link (link_names order)
};

/// A device that computes nothing for `seconds` from now (Scheduler::take_stalls).
struct DeviceStall {
  std::string device;
  double seconds = 0.0;
};

/// A probe transfer a scheduler asks for (Scheduler::take_probes; see the file comment).
struct ProbeRequest {
  std::string network;  ///< the network's name (Platform::networks)
  std::string from;     ///< sending device
  std::string to;       ///< receiving device
  double bytes = 0.0;   ///< > 0
};

/// A compute task belonging to no frame (Scheduler::take_background; see the file comment).
struct BackgroundJob {
  std::string device;    ///< the device that runs it (Platform::devices)
  double seconds = 0.0;  ///< > 0, finite
  std::size_t tag = 0;   ///< handed back to on_background_end
  std::string label;     ///< its name on the trace
};

/// Per-task values for one frame, by task id (see the file comment).
using TaskValues = std::vector<std::pair<std::string, double>>;

struct FrameDecision {
  std::optional<std::size_t> variant;  ///< empty: the current variant
  bool drop = false;
  TaskValues transfer_bytes = {};  ///< this frame's transfer sizes, by task id (others: the plan's)
  TaskValues task_seconds = {};    ///< this frame's compute durations, by task id (others: the plan's)
};

/// What happens to a frame whose plan variant has finished (see the file comment).
struct Continuation {
  enum class Kind { Finish, Run, Hold };
  Kind kind = Kind::Finish;
  std::size_t variant = 0;  ///< Run: the plan variant that continues the frame
  /// Run: this frame's sizes of the continuation's transfer tasks, by task id (others: the plan's).
  TaskValues transfer_bytes;
  /// Run: this frame's durations of the continuation's compute tasks, by task id (others: the plan's).
  TaskValues task_seconds;

  static Continuation finish() { return {}; }
  static Continuation hold() { return {Kind::Hold, 0, {}, {}}; }
  static Continuation run(std::size_t variant, TaskValues bytes = {}, TaskValues seconds = {}) {
    return {Kind::Run, variant, std::move(bytes), std::move(seconds)};
  }
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string name() const = 0;
  /// The plan variants to simulate, given the partitioner's plan(s) and the platform (default: as
  /// given). A scheduler whose system has its own stages (CBO's local pass and offload variants)
  /// builds them here. Throws InputError for parameters that do not fit the platform.
  virtual std::vector<Plan> plan_variants(std::vector<Plan> partitioned, const Platform& platform);
  /// A frame is released.
  virtual FrameDecision on_frame(const SchedulerView& view) {
    (void)view;
    return {};
  }
  /// Frame `frame`'s current plan variant has finished every task.
  virtual Continuation on_plan_end(std::size_t frame, const SchedulerView& view) {
    (void)frame;
    (void)view;
    return {};
  }
  /// Decisions on held frames: (frame, Run or Finish). Called after every event.
  virtual std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView& view) {
    (void)view;
    return {};
  }
  /// A frame completed (or was dropped).
  virtual void on_frame_end(const FrameRecord& record, const SchedulerView& view) {
    (void)record;
    (void)view;
  }
  /// Seconds between on_period calls (0: never).
  virtual double period_s() const { return 0.0; }
  /// Periodic decision: a new current variant, or empty to keep it.
  virtual std::optional<std::size_t> on_period(const SchedulerView& view) {
    (void)view;
    return std::nullopt;
  }
  /// Devices to stall, asked right after each on_period (see the file comment).
  virtual std::vector<DeviceStall> take_stalls() { return {}; }
  /// True when the scheduler reads MeasuredLink's in-flight fields (see the file comment). Default:
  /// false (they stay 0).
  virtual bool sees_in_flight() const { return false; }
  /// Probe transfers to send now, asked right after each on_frame and each on_period (see the file
  /// comment). Default: none.
  virtual std::vector<ProbeRequest> take_probes(const SchedulerView& view) {
    (void)view;
    return {};
  }
  /// True when the scheduler asks for background jobs (see the file comment): only then is
  /// take_background asked. Default: false.
  virtual bool runs_background() const { return false; }
  /// Background jobs to start now, asked after every event (see the file comment). Default: none.
  virtual std::vector<BackgroundJob> take_background(const SchedulerView& view) {
    (void)view;
    return {};
  }
  /// The background job tagged `tag` has finished.
  virtual void on_background_end(std::size_t tag, const SchedulerView& view) {
    (void)tag;
    (void)view;
  }
  /// Names of the values the scheduler adds to each frame's record (see the file comment).
  virtual std::vector<std::string> frame_value_names() const { return {}; }
  /// One value per frame_value_names() entry for a resolved frame (NaN: none).
  virtual std::vector<double> frame_values(std::size_t frame) const {
    (void)frame;
    return {};
  }
  /// Score of a resolved frame (1: right answer, 0: wrong; NaN: the scheduler has none).
  virtual double frame_score(std::size_t frame, const FrameRecord& record) {
    (void)frame;
    (void)record;
    return std::numeric_limits<double>::quiet_NaN();
  }
  /// The scheduler's own metrics at the end of the run (accuracy, offload fraction, ...).
  virtual std::map<std::string, double> summary() const { return {}; }
};

/// Runs every frame with variant 0 and never drops.
class NoopScheduler final : public Scheduler {
 public:
  std::string name() const override { return "none"; }
};

}  // namespace coinfer
