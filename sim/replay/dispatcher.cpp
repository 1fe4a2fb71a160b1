#include "sim/replay/dispatcher.hpp"
#include "sim/replay/dispatcher_common.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::replay {
namespace sg4 = simgrid::s4u;

namespace {

std::vector<BandwidthSeries> link_series(const Topology& topology, std::uint64_t seed) {
  std::vector<BandwidthSeries> series;
  series.reserve(topology.links().size());
  for (const auto& l : topology.links()) series.emplace_back(*l.spec, link_seed(seed, l.name()));
  return series;
}

// Checked before any member reads users.front().
ReplayInput with_users(ReplayInput input) {
  if (input.users.empty()) throw Error("replay: no stream of frames");
  return input;
}

/// When the radios were last active at the start (SimOptions::radios_start_awake).
double radios_idle_since_s(const ReplayInput& input) {
  return input.options->radios_start_awake ? input.users.front().workload->start_s : -kInf;
}

}  // namespace

Dispatcher::Dispatcher(ReplayInput input, const SimGridPlatform& sg, SimulationResult& out)
    : in_(with_users(std::move(input))),
      sg_(sg),
      out_(out),
      series_(link_series(*in_.topology, in_.options->seed)),
      trace_(*in_.topology, series_, radios_idle_since_s(in_), in_.options->trace_writer.get(),
             in_.options->record_trace, out),
      radios_(*in_.topology, *in_.plans, radios_idle_since_s(in_), trace_, tally_, out),
      flows_(*in_.topology, in_.private_links) {
  const Topology& topo = *in_.topology;
  const Platform& platform = topo.platform();
  const auto n_dev = platform.devices.size();
  devices_.resize(n_dev);
  std::size_t unit_count = 0;
  for (const auto& device : platform.devices) unit_count += device.slots;
  if (unit_count >= kNoUnit)
    throw Error(fmt::format("replay: the devices have {} slots, at most 2^32 - 2", unit_count));
  units_.reserve(unit_count);
  for (std::size_t d = 0; d < n_dev; ++d) {
    const Device& device = platform.devices[d];
    if (device.batching && device.batching->time_ratio.size() < device.batching->max_batch)
      throw Error(
          fmt::format("replay: device '{}' batches up to {} tasks but has batch times for {} (scenarios "
                      "fill them from the cost model: fill_batch_times)",
                      device.name, device.batching->max_batch, device.batching->time_ratio.size()));
    devices_[d].first_unit = static_cast<std::uint32_t>(units_.size());
    devices_[d].edf = device.queue == QueueDiscipline::Edf;
    if (device.batching) {
      devices_[d].batch = static_cast<std::uint32_t>(batch_clocks_.size());
      batch_clocks_.emplace_back();
    }
    devices_[d].drop_expired = device.drop_expired;
    units_.resize(units_.size() + device.slots);
    // Unit 0 on top, then 1, ...: the order units are taken in.
    for (std::size_t u = device.slots; u-- > 0;) release_unit(d, u);
  }
  plan_refs_.reserve(in_.plans->size());
  for (const auto& plan : *in_.plans) plan_refs_.push_back({plan.shape.get(), plan.placements.data()});
  tally_.links.resize(topo.links().size());
  for (std::size_t l = 0; l < tally_.links.size(); ++l) tally_.links[l].varies = series_[l].varies();

  users_.reserve(in_.users.size());
  user_first_.reserve(in_.users.size());
  for (const auto& spec : in_.users) {
    const UserState& u = users_.emplace_back(spec);
    user_first_.push_back(frame_count_);
    frame_count_ += u.frames;
  }
  index_users();
  out_.frames.resize(frame_count_);
  for (const auto& u : users_) {
    ReleaseClock releases(u.workload());
    for (std::size_t k = 0; k < u.frames; ++k) out_.frames[first_frame(u) + k].release_s = releases.next();
  }
  make_ports(in_.users);
  in_.users = {};  // users_ and ports_ hold what the run needs of them
  tally_.devices.resize(n_dev);
}

namespace {

/// A count kept in 32 bits: one of 2^32 - 1 or more never binds (no user has that many frames).
std::uint32_t count32(std::size_t n) {
  return static_cast<std::uint32_t>(std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace

Dispatcher::UserState::UserState(const ReplayUser& user)
    : deadline_s(user.workload->deadline_s),
      first_variant(static_cast<std::uint32_t>(user.first_variant)),
      stream(user.workload->kind == WorkloadKind::Stream),
      training(user.workload->kind == WorkloadKind::Training),
      drop_when_busy(user.workload->policy == DropPolicy::DropWhenBusy),
      frames(user.workload->frame_count()),
      max_in_flight(count32(user.workload->max_in_flight)),
      queue_capacity(count32(user.workload->queue_capacity)),
      spec(user.workload) {
  if (user.first_variant + user.variants > std::numeric_limits<std::uint32_t>::max())
    throw Error(
        fmt::format("replay: {} plan variants, at most 2^32 - 1", user.first_variant + user.variants));
}

// Without any scheduler, one inert port serves every user (a city's users need no port each).
void Dispatcher::make_ports(const std::vector<ReplayUser>& users) {
  const std::span<const CompiledPlan> plans(*in_.plans);
  for (std::size_t i = 0; i < users.size(); ++i)
    if (users[i].scheduler != nullptr) scheduled_.push_back(i);
  if (scheduled_.empty()) {
    ports_.emplace_back(nullptr, *in_.topology, plans, users_.front().workload(), series_, out_);
    return;
  }
  const auto names = SchedulerPort::link_names_of(*in_.topology);
  ports_.reserve(users.size());
  for (std::size_t i = 0; i < users.size(); ++i) {
    const ReplayUser& spec = users[i];
    const UserState& u = users_[i];
    ports_.emplace_back(spec.scheduler, *in_.topology, plans.subspan(spec.first_variant, spec.variants),
                        u.workload(), series_, out_, PortScope{first_frame(u), u.frames, names});
  }
}

double Dispatcher::now() const { return sg4::Engine::get_clock(); }

std::size_t Dispatcher::user_of(std::size_t k) const {
  if (user_bucket_.empty()) return 0;
  // The answer lies between the users of frames b << shift and (b + 1) << shift.
  const std::size_t b = k >> user_shift_;
  const auto lo = user_first_.begin() + user_bucket_[b];
  const auto hi = user_first_.begin() + std::min<std::size_t>(user_bucket_[b + 1] + 1, user_first_.size());
  return static_cast<std::size_t>(std::upper_bound(lo, hi, k) - user_first_.begin()) - 1;
}

void Dispatcher::index_users() {
  if (users_.size() < 2) return;
  if (users_.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error(fmt::format("replay: {} users, at most 2^32 - 1", users_.size()));
  const std::size_t mean = std::max<std::size_t>(1, frame_count_ / users_.size());
  while ((std::size_t{1} << user_shift_) <= mean) ++user_shift_;
  user_bucket_.resize((frame_count_ >> user_shift_) + 2);
  std::size_t u = 0;
  for (std::size_t b = 0; b < user_bucket_.size(); ++b) {
    const std::size_t first = b << user_shift_;
    while (u + 1 < users_.size() && user_first_[u + 1] <= first) ++u;
    user_bucket_[b] = static_cast<std::uint32_t>(u);
  }
}

void Dispatcher::operator()() {
  try {
    run();
  } catch (...) {
    failure_ = std::current_exception();
    for (auto& a : activities_)
      if (a) a->cancel();
  }
}

void Dispatcher::rethrow_if_failed() const {
  if (failure_) std::rethrow_exception(failure_);
}

void Dispatcher::add_timer(double time_s, TimerKind kind, std::size_t ref, std::uint64_t generation) {
  assert(kind != TimerKind::Release && "a release's timer is add_release's: it carries the user");
  timers_.push(time_s, {kind, 0, ref, generation});
  if (kind == TimerKind::SchedulerPeriod) ++period_timers_;
}

void Dispatcher::add_release(const UserState& u, std::size_t k) {
  timers_.push(out_.frames[k].release_s, {TimerKind::Release, static_cast<std::uint32_t>(index_of(u)), k, 0});
}

void Dispatcher::on_timer(const Timer& timer, double time_s) {
  switch (timer.kind) {
    case TimerKind::Release: {
      UserState& u = users_[timer.user];
      release_frame(u, timer.ref);
      if (u.stream && timer.ref + 1 < first_frame(u) + u.frames) add_release(u, timer.ref + 1);
      break;
    }
    case TimerKind::HoldExpiry:
      on_hold_expiry(timer.ref);
      break;
    case TimerKind::RadioAwake:
      on_radio_awake(timer.ref);
      break;
    case TimerKind::BandwidthChange:
      on_bandwidth_change(timer.ref);
      break;
    case TimerKind::LatencyEnd: {
      Transfer& x = transfers_[timer.ref];
      if (x.in_use && x.generation == timer.generation && x.restart_pending) {
        x.restart_pending = false;
        restart_comm(timer.ref);
      }
      break;
    }
    case TimerKind::SchedulerPeriod: {  // ref: the user
      UserState& u = users_[timer.ref];
      if (u.resolved == u.frames) break;  // only probes left to arrive: no more decisions
      SchedulerPort& p = port(timer.ref);
      const SchedulerView v = view(timer.ref, next_frame(u));
      if (auto choice = p.on_period(v)) u.current_variant = static_cast<std::uint32_t>(*choice);
      apply_stalls(p);
      send_probes(timer.ref, v);
      add_timer(time_s + p.period_s(), TimerKind::SchedulerPeriod, timer.ref);
      break;
    }
    case TimerKind::StallEnd:
      try_start(timer.ref);
      break;
    case TimerKind::BatchWait:
      batch_clocks_[devices_[timer.ref].batch].waited_s = time_s;
      try_start(timer.ref);
      break;
  }
}

// ---------------------------------------------------------------- compute tasks

CompiledTask Dispatcher::task(const TaskRef& ref) const {
  const FrameState& f = frame_state(ref);
  return CompiledPlan::assemble(f.plan.shape->tasks[ref.task], f.plan.placements[ref.task]);
}

const Task& Dispatcher::task_spec(const TaskRef& ref) const {
  return (*in_.plans)[frame_state(ref).variant].plan->tasks[ref.task];
}

double Dispatcher::duration_s(const TaskRef& ref) const {
  if (ref.background()) return jobs_[ref.job].seconds;
  const FrameState& f = frame_state(ref);
  return f.seconds_or(ref.task, f.plan.shape->tasks[ref.task].duration_s);
}

void Dispatcher::make_ready(FrameState& f, std::size_t k, std::size_t task_index) {
  ++f.active;
  TaskRef queued{k, static_cast<std::uint32_t>(task_index)};
  queued.state = &f;
  const CompiledTask t = task(queued);
  if (t.kind == TaskKind::Transfer) {
    begin_transfer(queued);
    return;
  }
  DeviceState& d = devices_[t.device];
  queued.release_s = out_.frames[k].release_s;
  queued.key_s = queued.release_s;
  if (d.edf) queued.key_s += users_[f.user].deadline_s;
  queued.ready_s = now();
  d.ready.push(queued);
  try_start(t.device);
}

void Dispatcher::try_start(std::size_t device) {
  DeviceState& d = devices_[device];
  if (now() < d.stalled_until_s - kTimeEps) {
    sample_queue(device);
    return;
  }
  const Batching* batching = d.batches() ? &*in_.topology->platform().devices[device].batching : nullptr;
  while (d.free_unit != kNoUnit && !d.ready.empty()) {
    const std::size_t u = d.free_unit;
    Unit& idle = unit(device, u);
    if (!take_execution(device, idle.running)) break;
    d.free_unit = idle.next_free;
    idle.started_s = now();
    const auto& members = idle.running;
    const double seconds =
        duration_s(members.front()) * (members.size() > 1 ? batching->time_ratio[members.size() - 1] : 1.0);
    if (batching != nullptr && trace_.streams()) trace_.batch(device, now(), members.size());
    add_exec(device, u, seconds);
  }
  settle_expired();
  sample_queue(device);
}

// The scheduler's device stalls (Scheduler::take_stalls): no task starts before the stall ends.
void Dispatcher::apply_stalls(SchedulerPort& port) {
  for (const auto& [device, seconds] : port.take_stalls()) {
    const double until = now() + seconds;
    if (until <= devices_[device].stalled_until_s) continue;
    devices_[device].stalled_until_s = until;
    add_timer(until, TimerKind::StallEnd, device);
  }
}

bool Dispatcher::same_work(const TaskRef& a, const TaskRef& b) const {
  return !a.background() && !b.background() && task_spec(a).id == task_spec(b).id &&
         duration_s(a) == duration_s(b);
}

bool Dispatcher::take_execution(std::size_t device, std::vector<TaskRef>& members) {
  DeviceState& d = devices_[device];
  members.clear();
  while (!d.ready.empty() && discard_expired(device, d.ready.top())) d.ready.pop();
  if (d.ready.empty()) return false;
  members.push_back(d.ready.top());
  d.ready.pop();
  if (!d.batches() || members.front().background()) return true;
  const auto& batching = in_.topology->platform().devices[device].batching;
  set_aside_.clear();
  while (members.size() < batching->max_batch && !d.ready.empty()) {
    const TaskRef next = d.ready.top();
    d.ready.pop();
    if (discard_expired(device, next)) continue;
    if (same_work(next, members.front()))
      members.push_back(next);
    else
      set_aside_.push_back(next);
  }
  for (const auto& r : set_aside_) d.ready.push(r);
  // A batch short of max_batch starts from its BatchWait timer, so that the tasks made ready at
  // the same instant (frames released together) join it even when max_wait_s is 0.
  const double deadline = members.front().ready_s + batching->max_wait_s;
  BatchClock& clock = batch_clocks_[d.batch];
  if (members.size() == batching->max_batch || clock.waited_s >= deadline - kTimeEps) return true;
  for (const auto& r : members) d.ready.push(r);
  members.clear();
  if (clock.wait_until_s != deadline) {
    clock.wait_until_s = deadline;
    add_timer(deadline, TimerKind::BatchWait, device);
  }
  return false;
}

void Dispatcher::release_unit(std::size_t device, std::size_t u) {
  unit(device, u).next_free = devices_[device].free_unit;
  devices_[device].free_unit = static_cast<std::uint32_t>(u);
}

void Dispatcher::on_exec_done(std::size_t device, std::size_t u) {
  Unit& ended = unit(device, u);
  release_unit(device, u);
  // Moved out: completing a task may start the next execution on this unit. Executions end one
  // at a time (the event loop), so one scratch vector serves them all.
  std::vector<TaskRef>& members = finished_;
  members.swap(ended.running);
  const double t = now();
  DeviceCounts& stats = tally_.devices[device];
  const double started_s = ended.started_s;
  stats.busy_s += t - started_s;
  ++stats.executions;
  ++out_.executions;
  if (members.size() > 1) {
    ++stats.batches;
    stats.batched_tasks += members.size();
  }
  if (members.front().background()) {
    background_done(members.front(), device, started_s);
    try_start(device);
    return;
  }
  for (const auto& ref : members) {
    if (trace_.tracing()) {
      const Task& spec = task_spec(ref);
      trace_.compute(device, spec.id, started_s, t, ref.frame, spec.label);
    }
    complete_task(ref);
  }
  try_start(device);
}

// Successors first (so the same frame keeps a device before the next frame's first task),
// then the first-stage gate, then the frame's end.
void Dispatcher::complete_task(const TaskRef& ref) {
  FrameState& f = frame_state(ref);
  --f.active;
  if (f.expired) {  // dropped by a device's admission control: nothing follows
    drain_expired(ref.frame);
    return;
  }
  const bool first_stage = f.plan.shape->tasks[ref.task].first_stage;
  --f.tasks_left;
  for (auto s : f.plan.shape->succs(ref.task))
    if (--f.pending[s] == 0) make_ready(f, ref.frame, s);
  if (first_stage && !f.continuing && --f.first_stage_left == 0) on_first_stage_done(user(ref));
  if (f.tasks_left == 0) plan_ended(ref.frame, f);
}

// ---------------------------------------------------------------- transfers

SchedulerView Dispatcher::view(std::size_t u, std::size_t frame) {
  const UserState& user = users_[u];
  SchedulerPort& p = port(u);
  SchedulerView v = p.view({now(), frame, user.current_variant, user.waiting.size(), user.in_flight});
  if (p.sees_in_flight()) add_in_flight(u, v.measured_links);
  return v;
}

void Dispatcher::release_frame(UserState& u, std::size_t k) {
  const std::size_t ui = index_of(u);
  FrameRecord& rec = out_.frames[k];
  if (u.training) rec.release_s = now();
  rec.variant = static_cast<std::uint32_t>(u.current_variant);
  released_ = k + 1;
  if (SchedulerPort& p = port(ui); p.active()) {
    const SchedulerView v = view(ui, k);
    const FrameDecision decision = p.on_frame(v);
    send_probes(ui, v);
    if (decision.variant) rec.variant = static_cast<std::uint32_t>(*decision.variant);
    if (!decision.transfer_bytes.empty() || !decision.task_seconds.empty())
      decided_values_[k] = p.decision_values(rec.variant, decision);
    if (decision.drop) {
      drop(u, k, DropReason::Scheduler);
      return;
    }
  }
  if (gate_open(u) && u.waiting.empty()) {
    admit(u, k);
  } else if (u.stream &&
             (u.drop_when_busy || (u.queue_capacity > 0 && u.waiting.size() >= u.queue_capacity))) {
    drop(u, k, DropReason::Busy);
  } else {
    u.waiting.push_back(k);
    ++waiting_;
    sample_admission();
  }
}

void Dispatcher::FrameState::begin(std::size_t plan_variant, const PlanRef& variant_plan, bool continuation,
                                   std::unique_ptr<FrameTaskValues> task_values) {
  variant = static_cast<std::uint32_t>(plan_variant);
  plan = variant_plan;
  continuing = continuation;
  const std::size_t n = plan.shape->tasks.size();
  tasks_left = static_cast<std::uint32_t>(n);
  first_stage_left = continuation ? 0 : plan.shape->first_stage_size;
  pending.resize(n);
  for (std::size_t i = 0; i < n; ++i) pending[i] = plan.shape->tasks[i].deps_size;
  values = std::move(task_values);
}

void Dispatcher::admit(UserState& u, std::size_t k) {
  FrameRecord& rec = out_.frames[k];
  const std::size_t variant = u.first_variant + rec.variant;
  const PlanRef& plan = plan_refs_[variant];
  if (spare_states_.empty()) {
    spare_states_.push_back(&state_pool_.emplace_back());
  }
  FrameState* f = spare_states_.back();
  spare_states_.pop_back();
  std::unique_ptr<FrameTaskValues> values;
  if (const auto it = decided_values_.find(k); it != decided_values_.end()) {
    values = std::make_unique<FrameTaskValues>(std::move(it->second));
    decided_values_.erase(it);
  }
  f->begin(variant, plan, false, std::move(values));
  f->user = static_cast<std::uint32_t>(&u - users_.data());
  f->active = 0;
  f->expired = false;
  // A stream's frames are admitted in release order (its queue is FIFO), so its live window only
  // grows at its back.
  if (u.live.empty()) u.live_base = k;
  if (k < u.live_base + u.live.size()) throw Error("replay: a frame was admitted out of release order");
  u.live.resize(k - u.live_base + 1, nullptr);
  u.live.back() = f;
  rec.start_s = now();
  u.gate_busy = true;
  ++u.in_flight;
  ++in_flight_;
  for (auto e : plan.shape->entries()) make_ready(*f, k, e);
}

void Dispatcher::drop(UserState& u, std::size_t k, DropReason reason) {
  if (!decided_values_.empty()) decided_values_.erase(k);
  out_.frames[k].drop_reason = reason;
  frame_resolved(u, k);
}

bool Dispatcher::gate_open(const UserState& u) const {
  return !u.gate_busy && (u.max_in_flight == 0 || u.in_flight < u.max_in_flight);
}

// The first stage is free: the oldest queued frame enters, unless its deadline already passed.
void Dispatcher::on_first_stage_done(UserState& u) {
  u.gate_busy = false;
  admit_waiting(u);
}

// While the gate is open (first stage free, room under max_in_flight), queued frames enter.
void Dispatcher::admit_waiting(UserState& u) {
  while (gate_open(u) && !u.waiting.empty()) {
    const auto k = u.waiting.front();
    u.waiting.pop_front();
    --waiting_;
    if (now() > out_.frames[k].release_s + u.deadline_s)
      drop(u, k, DropReason::Late);
    else
      admit(u, k);
  }
  sample_admission();
}

void Dispatcher::finish_frame(UserState& u, std::size_t k, double end_s) {
  FrameRecord& rec = out_.frames[k];
  rec.end_s = end_s;
  rec.deadline_met = rec.latency_s() <= u.deadline_s + kTimeEps;
  release_state(u, k);
}

// The frame leaves (finished, or expired and drained): its state goes back to the pool, the window
// of live frames drops its finished front, a pipeline slot frees up, a training run goes on.
void Dispatcher::release_state(UserState& u, std::size_t k) {
  spare_states_.push_back(u.live[k - u.live_base]);
  u.live[k - u.live_base] = nullptr;
  while (!u.live.empty() && u.live.front() == nullptr) {
    u.live.pop_front();
    ++u.live_base;
  }
  --u.in_flight;
  --in_flight_;
  if (u.max_in_flight > 0) admit_waiting(u);
  frame_resolved(u, k);
  if (u.training && k + 1 < first_frame(u) + u.frames) release_frame(u, k + 1);
}

bool Dispatcher::discard_expired(std::size_t device, const TaskRef& ref) {
  if (ref.background() || !devices_[device].drop_expired) return false;
  FrameState& f = frame_state(ref);
  if (!f.expired) {
    if (now() <= out_.frames[ref.frame].release_s + user(ref).deadline_s + kTimeEps) return false;
    f.expired = true;
    out_.frames[ref.frame].drop_reason = DropReason::Expired;
  }
  --f.active;
  expired_pending_.push_back(ref.frame);  // settled once the device's queue is consistent again
  return true;
}

// Frames take_execution discarded tasks of: the gate an expired frame held opens, and a frame with
// nothing left active leaves.
void Dispatcher::settle_expired() {
  while (!expired_pending_.empty()) {
    const std::size_t k = expired_pending_.back();
    expired_pending_.pop_back();
    UserState& u = user(k);
    if (!is_live(u, k)) continue;
    FrameState& f = frame_state(k);
    if (!f.continuing && f.first_stage_left > 0) {
      f.first_stage_left = 0;
      on_first_stage_done(u);
    }
    drain_expired(k);
  }
}

void Dispatcher::drain_expired(std::size_t k) {
  UserState& u = user(k);
  if (is_live(u, k) && frame_state(k).active == 0) release_state(u, k);
}

void Dispatcher::frame_resolved(UserState& u, std::size_t k) {
  const std::size_t ui = index_of(u);
  ++resolved_;
  ++u.resolved;
  SchedulerPort& p = port(ui);
  p.record_score(k);
  if (p.active()) p.on_frame_end(k, view(ui, k + 1));
}

void Dispatcher::sample_queue(std::size_t device) {
  if (trace_.streams()) trace_.queue(device, now(), devices_[device].ready.size());
}

void Dispatcher::sample_admission() {
  if (trace_.streams()) trace_.admission(now(), waiting_);
}

Tally Dispatcher::finish(double end_s) {
  out_.end_s = end_s;
  radios_.warn_out_of_range();
  scheduler_summary();
  trace_.finish(end_s);
  return std::move(tally_);
}

}  // namespace coinfer::replay
