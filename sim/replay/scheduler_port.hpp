#pragma once
/// Internal to sim/replay (no SimGrid): the one place the replay talks to its Scheduler
/// (sim/workload/scheduler.hpp). It builds the SchedulerView from the dispatcher's snapshot and
/// what the devices measured of their transfers (it owns those measurements), checks every
/// answer (a variant out of range, an unknown stalled device, a probe without a route, a decision
/// on a frame not held: an Error naming the scheduler), keeps which frames are held, and writes
/// the frames' scores and the scheduler's summary into the results.
///
///     SchedulerPort port(scheduler, topology, plans, workload, series, result);
///     const SchedulerView v = port.view({now_s, k, current_variant, queued, in_flight});
///     const FrameDecision d = port.on_frame(v);  // throws Error for a variant out of range
///
/// A population user's port (one scheduler per user) is scoped to the user's stream (PortScope):
/// its scheduler sees the user's frames as frames 0, 1, ... and the user's plan variants as
/// variants 0, 1, ...; the port takes and gives the replay's frame indices (SimulationResult::frames)
/// and the scheduler's variant indices, and measures only what the user's own device sent.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/plan/compiled_plan.hpp"
#include "sim/platform/bandwidth_series.hpp"
#include "sim/platform/topology.hpp"
#include "sim/replay/simulation_result.hpp"
#include "sim/workload/scheduler.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer::replay {

/// The dispatcher's state a SchedulerView shows.
struct ReplaySnapshot {
  double now_s = 0.0;
  std::size_t frame = 0;  ///< SchedulerView::frame
  std::size_t current_variant = 0;
  std::size_t queued_frames = 0;
  std::size_t frames_in_flight = 0;
};

/// A transfer in flight as its sender knows it (SchedulerView's MeasuredLink in-flight fields).
struct InFlightTransfer {
  const Route* route = nullptr;
  double bytes = 0.0;
  double delivered_bytes = 0.0;  ///< what the links have taken so far
  double elapsed_s = 0.0;        ///< since it started sending
};

/// A background job the scheduler asked for, checked (Scheduler::take_background).
struct BackgroundRequest {
  std::size_t device = 0;  ///< Platform::devices index
  double seconds = 0.0;
  std::size_t tag = 0;
  std::string label;
};

/// This frame's per-task values (FrameDecision / Continuation::run), per task of its variant
/// (NaN: the plan's); a vector stays empty when the scheduler set none.
struct FrameTaskValues {
  std::vector<double> bytes;
  std::vector<double> seconds;
};

/// A probe the scheduler asked for, checked: its route and the channel a frame's transfer between
/// the two devices uses (Task::channel "").
struct ProbeRoute {
  const Route* route = nullptr;
  std::string channel;
  double bytes = 0.0;
};

/// The frames a port's scheduler sees: SimulationResult::frames first .. first + count - 1, as its
/// frames 0 .. count - 1 (count kAllFrames: every frame of the results, however many).
struct PortScope {
  static constexpr std::size_t kAllFrames = static_cast<std::size_t>(-1);
  std::size_t first = 0;
  std::size_t count = kAllFrames;
  /// The link names every port of a run shares (null: the port lists the topology's own).
  std::shared_ptr<const std::vector<std::string>> link_names;
};

class SchedulerPort {
 public:
  /// `scheduler` may be null (no scheduler: every frame runs the current variant and finishes with
  /// its plan). `plans` are the stream's variants, in the scheduler's order. Everything else must
  /// outlive the port; `series` has one entry per Topology link.
  SchedulerPort(Scheduler* scheduler, const Topology& topology, std::span<const CompiledPlan> plans,
                const Workload& workload, std::vector<BandwidthSeries>& series, SimulationResult& out,
                PortScope scope = {});

  /// The topology's link names, in link order (what PortScope::link_names shares).
  static std::shared_ptr<const std::vector<std::string>> link_names_of(const Topology& topology);

  bool active() const { return scheduler_ != nullptr; }
  /// Scheduler::period_s, 0 without a scheduler.
  double period_s() const { return scheduler_ == nullptr ? 0.0 : scheduler_->period_s(); }
  /// The view of `s` (s.frame a replay index, shown scoped), with the links' true rates at s.now_s
  /// and what the devices measured; the in-flight fields stay 0 (add_in_flight fills them for a
  /// scheduler that sees_in_flight).
  SchedulerView view(const ReplaySnapshot& s);
  bool sees_in_flight() const { return scheduler_ != nullptr && scheduler_->sees_in_flight(); }
  /// What the sender of `x` knows of it, added to its links: per link, how many are in flight,
  /// and for the one sending the longest (the first added on a tie) its progress.
  static void add_in_flight(std::vector<MeasuredLink>& links, const InFlightTransfer& x);

  /// Scheduler::on_frame; throws Error for a variant out of range.
  FrameDecision on_frame(const SchedulerView& v);
  /// Scheduler::on_period; throws Error for a variant out of range.
  std::optional<std::size_t> on_period(const SchedulerView& v);
  /// Scheduler::take_stalls as (device index, seconds); throws Error for an unknown device or
  /// seconds not >= 0.
  std::vector<std::pair<std::size_t, double>> take_stalls();
  /// Scheduler::take_probes; throws Error for unknown devices or network, no route between them,
  /// or bytes not > 0 and finite.
  std::vector<ProbeRoute> take_probes(const SchedulerView& v);

  /// Scheduler::on_plan_end (`frame`: a replay index).
  Continuation on_plan_end(std::size_t frame, const SchedulerView& v) {
    return scheduler_->on_plan_end(frame - scope_.first, v);
  }
  /// Scheduler::take_decisions on the held frames (to apply in order: each one may end a hold),
  /// by replay index.
  std::vector<std::pair<std::size_t, Continuation>> take_decisions(const SchedulerView& v);
  /// Throws Error naming the scheduler when it decided on `frame`, which is not held.
  void expect_held(std::size_t frame) const;
  /// Frame `frame` waits for a decision; throws Error when the workload has no deadline to end
  /// the wait. False when it was held already.
  bool hold(std::size_t frame);
  /// Frame `frame` is decided (held or not).
  void release(std::size_t frame) {
    if (!held_.empty()) held_.erase(frame);
  }
  bool is_held(std::size_t frame) const { return held_.count(frame) > 0; }
  bool holds_any() const { return !held_.empty(); }
  /// The sizes a Run continuation sets for this frame, per task of its variant (NaN: the plan's),
  /// or empty when it sets none; throws Error for a variant out of range or an id that is no
  /// transfer of the variant.
  std::vector<double> continuation_bytes(std::size_t frame, const Continuation& c) const;
  /// The durations a Run continuation sets for this frame, like continuation_bytes (an id that is no
  /// compute task of the variant, or seconds not >= 0 and finite: an Error).
  std::vector<double> continuation_seconds(std::size_t frame, const Continuation& c) const;
  /// The sizes and durations `d` sets for a frame released on `variant` (checked as above).
  FrameTaskValues decision_values(std::size_t variant, const FrameDecision& d) const;

  /// True when the scheduler asks for background jobs (Scheduler::runs_background).
  bool runs_background() const { return scheduler_ != nullptr && scheduler_->runs_background(); }
  /// Scheduler::take_background; throws Error for an unknown device or seconds not > 0 and finite.
  std::vector<BackgroundRequest> take_background(const SchedulerView& v);
  /// Scheduler::on_background_end.
  void on_background_end(std::size_t tag, const SchedulerView& v) { scheduler_->on_background_end(tag, v); }

  /// The sender times a transfer of `bytes` over `route` from `start_s` to its arrival at `end_s`
  /// and takes out the route's latency; its links' MeasuredLink follow.
  void measure_transfer(const Route& route, double bytes, double start_s, double end_s);
  /// Frame `frame` is resolved: its score (Scheduler::frame_score) and values
  /// (Scheduler::frame_values; a count other than frame_value_names' is an Error) into the results.
  void record_score(std::size_t frame);
  /// Scheduler::on_frame_end.
  void on_frame_end(std::size_t frame, const SchedulerView& next) {
    scheduler_->on_frame_end(out_.frames[frame], next);
  }
  /// Scheduler::summary (empty without a scheduler).
  std::map<std::string, double> summary() const {
    return scheduler_ == nullptr ? std::map<std::string, double>{} : scheduler_->summary();
  }

 private:
  std::size_t checked_variant(std::size_t variant) const;
  /// c.variant; throws Error naming `frame` when it is out of range.
  std::size_t continued_variant(std::size_t frame, const Continuation& c) const;
  void record_values(std::size_t frame);
  /// `values` per task of `variant`, each id a task of `kind` (see continuation_bytes).
  std::vector<double> task_values(std::size_t variant, const TaskValues& values, TaskKind kind) const;

  /// The frame as the scheduler knows it.
  std::size_t local(std::size_t frame) const { return frame - scope_.first; }

  Scheduler* scheduler_;
  const Topology& topology_;
  std::span<const CompiledPlan> plans_;
  const Workload& workload_;
  std::vector<BandwidthSeries>& series_;
  SimulationResult& out_;
  PortScope scope_;
  std::shared_ptr<const std::vector<std::string>> link_names_;
  /// Per link: what the devices measured (SchedulerView); empty until the first measurement.
  std::vector<MeasuredLink> measured_;
  std::set<std::size_t> held_;  ///< frames waiting for the scheduler's decision
};

}  // namespace coinfer::replay
