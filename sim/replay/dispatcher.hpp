#pragma once
/// Internal to sim/replay (includes SimGrid): the actor that replays a workload.
///
/// Why one dispatcher actor rather than one actor per device: every device still runs its
/// compute tasks one at a time in dependency order (a per-device ready queue served by
/// (frame, plan order)), but the events that cross devices (a transfer arriving, a serialized
/// radio handing over, a frame admitted, a radio waking up, a rate change) would need
/// cross-actor wake-ups. A single actor with a timer heap keeps the semantics exact and needs no
/// extra messages.
///
/// How it waits (dispatcher_wait.cpp), in O(log n) per event however many activities are in flight,
/// and in constant time for events whose dates come in rising runs (a stream's releases, equal
/// transfers' ends: EventQueue's lanes): transfers are SimGrid comms, and SimGrid's kernel tells
/// when one finishes (Link::on_communication_state_change, in maestro); an execution runs alone on
/// one unit of a host of constant speed, so its end date is known when it starts and it is kept as
/// that date (no SimGrid execution). The actor suspends itself; a finished comm, or a kernel timer
/// at the next timer or execution end, resumes it. (`Activity::wait_any_for` over every activity in
/// flight cost O(n) per event: 10 times the per-frame cost at 10,000 users.)
///
/// Per frame it keeps only the frame's 32-byte record: the state of a frame in flight (pending
/// dependencies) lives in a pooled FrameState from admission to completion, so memory grows with
/// the frames in flight, not with the run.
///
/// The dispatcher keeps the event loop: activities, timers, frames, compute queues, transfers and
/// bandwidth changes. Three parts own the rest and need no SimGrid, so each is tested alone: the
/// TraceRecorder (trace_recorder.hpp) every trace track and counter, the RadioModel
/// (radio_model.hpp) radios, channels, wake-ups, serialized networks and radio energy, and the
/// SchedulerPort (scheduler_port.hpp) everything said to and heard from the Scheduler.
/// Background jobs (Scheduler::take_background) share the devices' queues with the frames' tasks.
#include <cmath>
#include <cstdint>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <simgrid/kernel/Timer.hpp>

#include "sim/core/event_queue.hpp"
#include "sim/core/index_set.hpp"
#include "sim/plan/compiled_plan.hpp"
#include "sim/platform/bandwidth_series.hpp"
#include "sim/replay/dispatcher_common.hpp"
#include "sim/replay/private_flows.hpp"
#include "sim/replay/radio_model.hpp"
#include "sim/replay/scheduler_port.hpp"
#include "sim/replay/simgrid_platform.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/replay/trace_recorder.hpp"

namespace coinfer::replay {

/// One stream of frames: its plan variants (plans first_variant .. first_variant + variants - 1),
/// its workload and its scheduler. A single-source run has one; a population one per user.
struct ReplayUser {
  std::size_t first_variant = 0;
  std::size_t variants = 1;
  const Workload* workload = nullptr;
  /// May be null (its frames run variant 0 and finish with their plan). With a scheduler each user
  /// talks to its own through its own SchedulerPort, scoped to its frames and variants.
  Scheduler* scheduler = nullptr;
};

struct ReplayInput {
  const Topology* topology = nullptr;
  const std::vector<CompiledPlan>* plans = nullptr;
  std::vector<ReplayUser> users;  ///< at least one (the Dispatcher empties its own once read)
  const SimOptions* options = nullptr;
  /// Per link, whether PrivateFlows carries its transfers rather than SimGrid (private_flows.hpp;
  /// the SimGridPlatform was built without them). Empty: none.
  std::vector<char> private_links;
};

class Dispatcher {
 public:
  Dispatcher(ReplayInput input, const SimGridPlatform& sg, SimulationResult& out);
  /// The actor body. Never throws into SimGrid: an exception is kept for `rethrow_if_failed`.
  void operator()();
  void rethrow_if_failed() const;
  /// Transfers and computations started and not yet handled (for a deadlock's error message).
  std::size_t pending_activities() const { return activities_.size(); }
  /// Sets the run's end once the engine has stopped; finishes the trace. Returns the devices' and
  /// links' counts, for `write_stats` once the replay is gone.
  Tally finish(double end_s);

 private:
  /// TaskRef::job of a frame's task, and TaskRef::task of a job (after every task of its frame).
  static constexpr std::uint32_t kNoJobRef = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kJobTask = std::numeric_limits<std::uint32_t>::max();
  /// A frame's task, or a background job (Scheduler::take_background): `frame` is then the newest
  /// frame released when it was asked, `task` kJobTask and `job` its index in jobs_, so a device's
  /// queue serves it after that frame's tasks, jobs among themselves in the order asked.
  /// A device's queue serves by `key_s` first (make_ready sets it: the frame's release time, or
  /// its deadline on an `edf` device), then by release time, then (frame, task, job): one stream's
  /// frames in release order, a population's users' frames interleaved by when they were released.
  struct FrameState;
  /// A compiled plan's shape and placements: what a frame's admission and its tasks' events read
  /// of it (plan_refs_).
  struct PlanRef {
    const PlanShape* shape = nullptr;
    const TaskPlacement* placements = nullptr;
  };
  struct TaskRef {
    std::size_t frame = 0;
    std::uint32_t task = 0;
    std::uint32_t job = kNoJobRef;
    double key_s = 0.0;
    double release_s = 0.0;
    double ready_s = 0.0;  ///< when it joined the device's queue (not part of the order)
    /// Its frame's state (a task's frame is in flight while the task is active), so the events
    /// of a task reach it without looking its user up; null for a job or a probe.
    FrameState* state = nullptr;
    auto operator<=>(const TaskRef& o) const {
      if (key_s != o.key_s)
        return key_s < o.key_s ? std::strong_ordering::less : std::strong_ordering::greater;
      if (release_s != o.release_s)
        return release_s < o.release_s ? std::strong_ordering::less : std::strong_ordering::greater;
      return std::tie(frame, task, job) <=> std::tie(o.frame, o.task, o.job);
    }
    bool operator==(const TaskRef& o) const { return (*this <=> o) == 0; }
    bool background() const { return job != kNoJobRef; }
  };
  /// A frame between admission and completion (pooled: reused by later frames).
  struct FrameState {
    std::uint32_t variant = 0;  ///< index into the compiled plans
    std::uint32_t user = 0;     ///< whose frame it is (index in users_)
    std::uint32_t tasks_left = 0;
    std::uint32_t first_stage_left = 0;
    std::uint32_t active = 0;  ///< tasks made ready and not yet completed (queued, running, moving)
    bool expired = false;      ///< dropped by a device's admission control: its active tasks drain
    bool continuing = false;   ///< runs a continuation (Scheduler::on_plan_end): no first-stage gate
    double plan_end_s = 0.0;   ///< when its last plan variant ended
    /// Its plan variant's shape and placements (plan_refs_): a task's events read its plan here.
    PlanRef plan;
    std::vector<std::uint32_t> pending;  ///< unfinished dependencies per task
    /// Per task, this frame's transfer sizes and compute durations where its scheduler set them
    /// (NaN: the plan's); null when it set none, as for most frames.
    std::unique_ptr<FrameTaskValues> values;

    /// Starts running `variant_plan` (compiled plan `variant`'s): every task pending on all its
    /// dependencies; a continuation has no first-stage gate.
    void begin(std::size_t variant, const PlanRef& variant_plan, bool continuation,
               std::unique_ptr<FrameTaskValues> task_values);

    double bytes_or(std::size_t task, double plan_bytes) const {
      return values == nullptr || values->bytes.empty() || std::isnan(values->bytes[task])
                 ? plan_bytes
                 : values->bytes[task];
    }
    double seconds_or(std::size_t task, double plan_s) const {
      return values == nullptr || values->seconds.empty() || std::isnan(values->seconds[task])
                 ? plan_s
                 : values->seconds[task];
    }
  };
  /// One stream's frames (ReplayUser): frames first_frame(u) .. first_frame(u) + frames - 1, admitted in
  /// their release order through the stream's own first-stage gate and queue.
  ///
  /// A frame's release, admission and end read this record and no other of its user: what they
  /// need of the Workload is copied in, and the whole is one 128-byte block, the fields of every
  /// frame first (a city's users' records and workloads are far apart in memory, and at 10,000
  /// users each frame of bench/population_bench.cpp found them out of the second-level cache).
  struct alignas(128) UserState {
    /// Frames live_base, live_base + 1, ... in flight; null once done (or never admitted).
    FifoVector<FrameState*> live;
    std::size_t live_base = 0;
    double deadline_s = 0.0;            ///< Workload::deadline_s
    std::uint32_t first_variant = 0;    ///< ReplayUser::first_variant
    std::uint32_t current_variant = 0;  ///< for new frames (the scheduler's on_period sets it)
    std::uint32_t in_flight = 0;        ///< frames admitted and not yet resolved
    bool gate_busy = false;
    bool stream = false;          ///< Workload::kind is Stream
    bool training = false;        ///< Workload::kind is Training
    bool drop_when_busy = false;  ///< Workload::policy is DropWhenBusy
    FifoVector<std::size_t> waiting;
    std::size_t frames = 0;
    std::size_t resolved = 0;          ///< frames resolved (finished or dropped)
    std::uint32_t max_in_flight = 0;   ///< Workload::max_in_flight (0: unbounded)
    std::uint32_t queue_capacity = 0;  ///< Workload::queue_capacity (0: unbounded)
    const Workload* spec = nullptr;    ///< its workload, for what a frame does not read (start, arrivals)

    explicit UserState(const ReplayUser& user);
    const Workload& workload() const { return *spec; }
  };
  static_assert(sizeof(UserState) == 128);
  /// Whether frame `k` of `u` is in flight (admitted, its state not yet released).
  static bool is_live(const UserState& u, std::size_t k) {
    return k >= u.live_base && k < u.live_base + u.live.size() && u.live[k - u.live_base] != nullptr;
  }
  static constexpr std::uint32_t kNoUnit = static_cast<std::uint32_t>(-1);
  /// One execution unit of a device (units_ holds every device's, a device's in a row, so a
  /// phone's one unit costs no allocation of its own).
  struct Unit {
    std::vector<TaskRef> running;  ///< its task, or its batch (oldest first)
    double started_s = 0.0;
    std::uint32_t pos = 0;              ///< its execution's index in activities_
    std::uint32_t next_free = kNoUnit;  ///< the device's free units: a stack threaded through them
  };
  /// A device runs up to Device::slots executions at once, one per unit; an execution runs one
  /// task, or a batch of equal tasks on a batching device (Device::batching).
  struct DeviceState {
    std::uint32_t first_unit = 0;       ///< its units: units_[first_unit .. first_unit + slots - 1]
    std::uint32_t free_unit = kNoUnit;  ///< the top of its free units' stack (unit index in the device)
    std::uint32_t batch = kNoUnit;      ///< a batching device's index in batch_clocks_
    /// Its Device's queue discipline and admission control, kept here so that a task joining the
    /// queue touches only this record.
    bool edf = false;
    bool drop_expired = false;
    std::priority_queue<TaskRef, std::vector<TaskRef>, std::greater<>> ready;
    double stalled_until_s = -std::numeric_limits<double>::infinity();  ///< Scheduler::take_stalls
    bool batches() const { return batch != kNoUnit; }
  };
  /// A batching device's BatchWait timers.
  struct BatchClock {
    double wait_until_s = -std::numeric_limits<double>::infinity();  ///< the one armed
    double waited_s = -std::numeric_limits<double>::infinity();      ///< the last one fired
  };
  struct Transfer {
    bool in_use = false;
    std::uint64_t generation = 0;
    TaskRef ref;
    const Route* route = nullptr;
    std::size_t channel = 0;  ///< RadioModel's channel index
    double bytes = 0.0;
    double comm_start_s = 0.0;
    double latency_end_s = 0.0;
    bool restart_pending = false;
    simgrid::s4u::CommPtr comm;
    bool private_flow = false;     ///< moving in PrivateFlows (then `comm` is null)
    std::size_t activity_pos = 0;  ///< index of `comm` in activities_
    std::size_t user = 0;          ///< whose device sent it (its port measures it)
    /// A scheduler's probe (Scheduler::take_probes): it belongs to no frame (ref.frame == kNoFrame).
    bool probe() const { return ref.frame == kNoFrame; }
  };
  enum class TimerKind {
    Release,
    RadioAwake,
    BandwidthChange,
    LatencyEnd,
    SchedulerPeriod,
    HoldExpiry,
    StallEnd,
    BatchWait
  };
  /// A timer (timers_ serves them by date, those of one date in the order they were added).
  struct Timer {
    TimerKind kind = TimerKind::Release;
    /// A release's user (index in users_), so that neither the release nor its warming looks the
    /// frame's user up; 0 in the other kinds' timers.
    std::uint32_t user = 0;
    std::size_t ref = 0;
    std::uint64_t generation = 0;
  };
  struct Slot {
    bool exec = false;
    std::size_t index = 0;  ///< device (exec) or transfer slot (comm)
    std::size_t unit = 0;   ///< exec: the device's unit running it
  };
  /// The execution running on a device's unit; exec_ends_ holds it by its end date (executions
  /// are not SimGrid activities: see the top of this file).
  struct ExecEnd {
    std::uint32_t device = 0;
    std::uint32_t unit = 0;
  };

  void run();
  // activities and timers; waiting for them (dispatcher_wait.cpp)
  void add_activity(simgrid::s4u::CommPtr comm, Slot slot);
  void add_exec(std::size_t device, std::size_t unit, double seconds);
  void remove_activity(std::size_t pos);
  void on_activity_done(std::size_t pos);
  /// Connects the kernel's comm-completion signal to this dispatcher (once, from its actor).
  void listen_for_completions();
  /// Marks the executions and the private flows that ended by now as done.
  void collect_exec_ends();
  /// Suspends the actor until an activity is done or a timer is due.
  void wait_for_next();
  void wake();
  /// Arms the kernel timer that resumes the actor at `at_s` (kInf: disarms it).
  void arm_alarm(double at_s);
  /// Arms a timer of any kind but Release.
  void add_timer(double time_s, TimerKind kind, std::size_t ref, std::uint64_t generation = 0);
  /// Arms the release of `u`'s frame `k` (its timer carries the user).
  void add_release(const UserState& u, std::size_t k);
  /// Handles `timer`, due at `time_s`.
  void on_timer(const Timer& timer, double time_s);
  // tasks
  /// The user frame `k` belongs to: an index (user_bucket_) narrows the search to the users of
  /// a few users' frames, so it touches a few cache lines however many users there are.
  std::size_t user_of(std::size_t k) const;
  /// Builds user_of's index once user_first_ is complete.
  void index_users();
  UserState& user(std::size_t k) { return users_[user_of(k)]; }
  /// A frame task's user and state, through the state it carries.
  UserState& user(const TaskRef& ref) { return users_[ref.state->user]; }
  /// `u`'s index in users_.
  std::size_t index_of(const UserState& u) const { return static_cast<std::size_t>(&u - users_.data()); }
  FrameState& frame_state(const TaskRef& ref) const { return *ref.state; }
  /// `u`'s first frame (user_first_ holds them, for user_of's search).
  std::size_t first_frame(const UserState& u) const { return user_first_[index_of(u)]; }
  /// The frame a view is about when it is about none in particular: the next one to resolve.
  std::size_t next_frame(const UserState& u) const { return first_frame(u) + u.resolved; }
  Unit& unit(std::size_t device, std::size_t u) { return units_[devices_[device].first_unit + u]; }
  /// Puts unit `u` of `device` on top of the device's free units.
  void release_unit(std::size_t device, std::size_t u);
  const UserState& user(std::size_t k) const { return users_[user_of(k)]; }
  FrameState& frame_state(std::size_t k) const {
    const UserState& u = user(k);
    return *u.live[k - u.live_base];
  }
  CompiledTask task(const TaskRef& ref) const;
  const Task& task_spec(const TaskRef& ref) const;
  /// Task `task` of frame `k` (its state `f`) is ready: it joins its device's queue or moves.
  void make_ready(FrameState& f, std::size_t k, std::size_t task);
  void complete_task(const TaskRef& ref);
  /// How long the task runs: this frame's duration (FrameState::seconds), the plan's, or the job's.
  double duration_s(const TaskRef& ref) const;
  void try_start(std::size_t device);
  /// Takes the next execution's tasks off the device's queue into `members`: its oldest task and,
  /// on a batching device, the ready tasks doing the same work. False (and the queue unchanged)
  /// while the batch should wait for more (Batching::max_wait_s; a BatchWait timer is armed).
  bool take_execution(std::size_t device, std::vector<TaskRef>& members);
  bool same_work(const TaskRef& a, const TaskRef& b) const;
  /// Device::drop_expired: whether `ref`'s frame is already dropped, or its deadline has passed
  /// (then it is dropped now); either way the task is discarded.
  bool discard_expired(std::size_t device, const TaskRef& ref);
  /// An expired frame's active task ended (discarded or completed); the last one releases it.
  void drain_expired(std::size_t k);
  void release_state(UserState& u, std::size_t k);
  void settle_expired();
  void on_exec_done(std::size_t device, std::size_t u);
  void apply_stalls(SchedulerPort& port);
  // transfers
  std::size_t new_transfer_slot();
  /// Wake-up (radio or channel), then the network: the path every transfer takes.
  void launch_transfer(std::size_t slot);
  void begin_transfer(const TaskRef& ref);
  void on_radio_awake(std::size_t radio);
  void enter_network(std::size_t slot);
  void start_comm(std::size_t slot);
  void on_comm_done(std::size_t slot);
  /// Arms the link's next rate change after now() and after `fired_s` (the change just handled).
  void arm_link(std::size_t link, double fired_s = -std::numeric_limits<double>::infinity());
  void on_bandwidth_change(std::size_t link);
  void restart_comm(std::size_t slot);
  // frames
  void release_frame(UserState& u, std::size_t k);
  void admit(UserState& u, std::size_t k);
  void drop(UserState& u, std::size_t k, DropReason reason);
  void on_first_stage_done(UserState& u);
  /// True when a new frame of `u` may enter: its first stage is free and, with
  /// Workload::max_in_flight, fewer of its frames than that are in flight.
  bool gate_open(const UserState& u) const;
  void admit_waiting(UserState& u);
  void finish_frame(UserState& u, std::size_t k, double end_s);
  // decision points (dispatcher_decisions.cpp)
  /// Frame `k` (its state `f`) ended its plan variant.
  void plan_ended(std::size_t k, FrameState& f);
  void apply_continuation(std::size_t k, const Continuation& c);
  void start_continuation(std::size_t k, const Continuation& c);
  void on_hold_expiry(std::size_t k);
  void poll_scheduler();
  /// What user `u`'s device knows of its transfers in flight.
  void add_in_flight(std::size_t u, std::vector<MeasuredLink>& links) const;
  // probes (dispatcher_probes.cpp)
  void send_probes(std::size_t u, const SchedulerView& v);
  void begin_probe(std::size_t u, const ProbeRoute& probe);
  void probe_arrived(std::size_t slot);
  // warming what the next events read (dispatcher_warm.cpp)
  /// One step of prefetching what the next frame release will read, if a release is next.
  void warm_next_release();
  /// How far warm_next_release has gone for `frame` (kNoFrame: none yet).
  struct Warming {
    std::size_t frame = kNoFrame;
    std::size_t user = 0;
    PlanRef plan;
    std::size_t tasks = 0;  ///< of its first placements, those warmed
    unsigned step = 0;
  };
  /// One step of prefetching what the next end of a private transfer, and the next end of an
  /// execution, will read.
  void warm_next_ends();
  /// How far warm_next_ends has gone for one end: the transfer slot and its generation (or the
  /// unit running the execution), the frame and task that end, and the transfer's route (null for
  /// an execution); a null state: nothing to warm.
  struct EndWarming {
    std::size_t key = kNoFrame;
    std::uint64_t generation = 0;
    const FrameState* state = nullptr;
    std::size_t frame = 0;
    std::size_t task = 0;
    const Route* route = nullptr;
    unsigned step = 0;
  };
  void warm_end(EndWarming& w);
  /// Prefetches what a transfer on `r` reads at its start and end: its radios, both ends' counts,
  /// its links' tallies and sharers.
  void prefetch_route(const Route& r);
  // background jobs (dispatcher_background.cpp)
  void start_background(std::size_t u);
  void background_done(const TaskRef& ref, std::size_t device, double start_s);
  // what the scheduler sees and hears
  /// User `u`'s port: its own, or the one every user shares when no user has a scheduler.
  SchedulerPort& port(std::size_t u) { return ports_[ports_.size() == 1 ? 0 : u]; }
  void make_ports(const std::vector<ReplayUser>& users);
  /// SimulationResult::scheduler_metrics: the scheduler's summary, or with a scheduler per user the
  /// mean of the users' summaries, key by key.
  void scheduler_summary();
  void frame_resolved(UserState& u, std::size_t k);
  /// User `u`'s view, about frame `frame` (a replay index).
  SchedulerView view(std::size_t u, std::size_t frame);
  double now() const;
  // what the trace is told
  void sample_queue(std::size_t device);
  void sample_admission();

  ReplayInput in_;
  const SimGridPlatform& sg_;
  SimulationResult& out_;
  std::exception_ptr failure_;
  std::vector<BandwidthSeries> series_;  ///< per link
  Tally tally_;                          ///< devices' and links' counts (named after the run)
  TraceRecorder trace_;
  RadioModel radios_;
  PrivateFlows flows_;
  std::vector<std::size_t> flows_ended_;  ///< collect_exec_ends' scratch
  std::vector<SchedulerPort> ports_;      ///< one per user when any has a scheduler, else one for all
  std::vector<std::size_t> scheduled_;    ///< users with a scheduler, increasing

  /// The activities in flight, in the order the event loop prefers among those done at one date
  /// (the lowest index first): a comm, or null for an execution (exec_ends_ holds its end date) or a
  /// private flow (flows_ holds it).
  std::vector<simgrid::s4u::CommPtr> activities_;
  std::vector<Slot> slots_;
  IndexSet done_;  ///< indices in activities_ of those done, not yet handled
  std::unordered_map<const void*, std::size_t> comm_slots_;  ///< a comm's kernel object -> transfer slot
  EventQueue<ExecEnd> exec_ends_;
  simgrid::s4u::ActorPtr self_;
  bool suspended_ = false;
  simgrid::kernel::timer::Timer* alarm_ = nullptr;  ///< the kernel timer armed to resume the actor
  double alarm_s_ = std::numeric_limits<double>::infinity();
  EventQueue<Timer> timers_;
  std::size_t period_timers_ = 0;  ///< SchedulerPeriod timers in timers_ (they alone move no frame)
  Warming warming_;
  EndWarming flow_warming_;
  EndWarming exec_warming_;
  /// Per plan variant, its shape and placements, 16 bytes: a frame reaches them in one step from
  /// here, where through its CompiledPlan (72 bytes a user, out of the cache between a city's
  /// user's frames) it takes two.
  std::vector<PlanRef> plan_refs_;

  std::vector<UserState> users_;
  std::vector<std::size_t> user_first_;  ///< per user, its first frame (user_of's search)
  /// user_of's index: entry b is the user of frame b << user_shift_, where 2^user_shift_ is
  /// above the mean frames per user and at most twice it (empty with one user).
  std::vector<std::uint32_t> user_bucket_;
  unsigned user_shift_ = 0;
  std::deque<FrameState> state_pool_;  ///< in place: spare_states_ and live point into it
  std::vector<FrameState*> spare_states_;
  std::vector<DeviceState> devices_;
  std::vector<BatchClock> batch_clocks_;
  std::vector<Unit> units_;
  std::vector<TaskRef> set_aside_;            ///< take_execution's scratch
  std::vector<TaskRef> finished_;             ///< on_exec_done's: the execution's tasks
  std::vector<std::size_t> expired_pending_;  ///< frames discard_expired dropped tasks of, to settle
  std::vector<Transfer> transfers_;
  std::vector<std::size_t> free_transfers_;

  std::size_t frame_count_ = 0;
  std::size_t resolved_ = 0;
  std::size_t in_flight_ = 0;
  std::size_t waiting_ = 0;           ///< frames queued at their stream's gate, all users
  std::size_t probes_in_flight_ = 0;  ///< probes sent, not yet arrived (the run waits for them)
  std::size_t released_ = 0;          ///< the frame released last, plus one (0: none yet)
  /// Sizes and durations a FrameDecision set for frames released but not yet admitted.
  std::map<std::size_t, FrameTaskValues> decided_values_;
  std::vector<BackgroundRequest> jobs_;  ///< every background job asked for, by TaskRef::job
  std::vector<std::size_t> job_users_;   ///< per job, the user whose scheduler asked for it
  std::size_t background_left_ = 0;      ///< jobs asked for, not yet finished (the run waits for them)
};

}  // namespace coinfer::replay
