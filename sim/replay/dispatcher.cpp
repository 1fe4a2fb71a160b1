#include "sim/replay/dispatcher.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/replay/energy.hpp"

namespace coinfer::replay {
namespace {

namespace sg4 = simgrid::s4u;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Timers within this of the clock are due (SimGrid's default timing precision is 1e-9 s).
constexpr double kTimeEps = 1e-9;

std::uint64_t payload_bytes(double bytes) {
  return static_cast<std::uint64_t>(std::llround(std::max(0.0, bytes)));
}

}  // namespace

Dispatcher::Dispatcher(const ReplayInput& input, const SimGridPlatform& sg, SimulationResult& out)
    : in_(input), sg_(sg), out_(out) {
  const Topology& topo = *in_.topology;
  const Platform& platform = topo.platform();
  const auto n_dev = platform.devices.size();
  const auto n_net = platform.networks.size();
  devices_.resize(n_dev);
  for (std::size_t d = 0; d < n_dev; ++d) {
    const std::size_t units = platform.devices[d].slots;
    devices_[d].running.resize(units);
    devices_[d].started_s.resize(units);
    for (std::size_t u = units; u-- > 0;) devices_[d].free_units.push_back(u);
  }
  radios_.resize(n_net * n_dev);
  for (auto& r : radios_) r.last_active_s = in_.options->radios_start_awake ? in_.workload->start_s : -kInf;
  network_busy_.assign(n_net, false);
  network_queue_.resize(n_net);
  links_.resize(topo.links().size());
  measured_.resize(topo.links().size());
  for (const auto& l : topo.links()) {
    series_.emplace_back(*l.spec, link_seed(in_.options->seed, l.name));
    link_names_.push_back(l.name);
  }
  index_channels();
  radio_warned_.assign(n_dev, std::vector<bool>(n_net, false));

  frame_count_ = in_.workload->frame_count();
  out_.frames.resize(frame_count_);
  for (std::size_t k = 0; k < frame_count_; ++k) out_.frames[k].release_s = in_.workload->release_s(k);
  out_.devices.resize(n_dev);
  for (std::size_t d = 0; d < n_dev; ++d) out_.devices[d].device = platform.devices[d].name;
  for (const auto& l : topo.links())
    out_.links.push_back({l.name, platform.networks[l.network].name, 0.0, 0, 0.0, 0, 0.0});
  init_trace();
}

double Dispatcher::now() const { return sg4::Engine::get_clock(); }

void Dispatcher::operator()() {
  try {
    run();
  } catch (...) {
    failure_ = std::current_exception();
    for (auto& a : activities_) a->cancel();
  }
}

void Dispatcher::rethrow_if_failed() const {
  if (failure_) std::rethrow_exception(failure_);
}

// The event loop: activities that finished at the current date are handled before timers due
// at that date (a task ending exactly when a frame is released frees the first stage first).
void Dispatcher::run() {
  if (frame_count_ == 0) return;
  add_timer(in_.workload->release_s(0), TimerKind::Release, 0);
  if (in_.scheduler != nullptr && in_.scheduler->period_s() > 0.0)
    add_timer(in_.workload->start_s + in_.scheduler->period_s(), TimerKind::SchedulerPeriod, 0);
  while (resolved_ < frame_count_ || probes_in_flight_ > 0) {
    const double t = now();
    if (!varying_links_.empty()) sample_rates(t);
    if (!timers_.empty() && timers_.top().time_s <= t + kTimeEps) {
      if (!activities_.empty()) {
        const auto done = sg4::Activity::test_any(activities_);
        if (done >= 0) {
          on_activity_done(static_cast<std::size_t>(done));
          poll_scheduler();
          continue;
        }
      }
      const Timer timer = timers_.top();
      timers_.pop();
      if (timer.kind == TimerKind::SchedulerPeriod) --period_timers_;
      on_timer(timer);
      poll_scheduler();
      continue;
    }
    if (activities_.empty()) {
      // Only the scheduler's periodic calls left: they choose variants for frames to come, and none
      // will come, so the unfinished frames never end (without this, the periods would go on forever).
      if (timers_.size() == period_timers_)
        throw Error(fmt::format("replay stalled: {} frames are unfinished but nothing is running",
                                frame_count_ - resolved_));
      sg4::this_actor::sleep_until(timers_.top().time_s);
      continue;
    }
    const double timeout = timers_.empty() ? -1.0 : std::max(0.0, timers_.top().time_s - t);
    const auto done = sg4::Activity::wait_any_for(activities_, timeout);
    if (done >= 0) on_activity_done(static_cast<std::size_t>(done));
    poll_scheduler();
  }
}

// ---------------------------------------------------------------- activities and timers

void Dispatcher::add_activity(sg4::ActivityPtr activity, Slot slot) {
  if (!slot.exec) transfers_[slot.index].activity_pos = activities_.size();
  activities_.push_back(std::move(activity));
  slots_.push_back(slot);
}

void Dispatcher::remove_activity(std::size_t pos) {
  const auto last = activities_.size() - 1;
  if (pos != last) {
    activities_[pos] = std::move(activities_[last]);
    slots_[pos] = slots_[last];
    if (!slots_[pos].exec) transfers_[slots_[pos].index].activity_pos = pos;
  }
  activities_.pop_back();
  slots_.pop_back();
}

void Dispatcher::on_activity_done(std::size_t pos) {
  const Slot slot = slots_[pos];
  remove_activity(pos);
  if (slot.exec)
    on_exec_done(slot.index, slot.unit);
  else
    on_comm_done(slot.index);
}

void Dispatcher::add_timer(double time_s, TimerKind kind, std::size_t ref, std::uint64_t generation) {
  timers_.push({time_s, timer_seq_++, kind, ref, generation});
  if (kind == TimerKind::SchedulerPeriod) ++period_timers_;
}

void Dispatcher::on_timer(const Timer& timer) {
  switch (timer.kind) {
    case TimerKind::Release:
      release_frame(timer.ref);
      if (in_.workload->kind == WorkloadKind::Stream && timer.ref + 1 < frame_count_)
        add_timer(in_.workload->release_s(timer.ref + 1), TimerKind::Release, timer.ref + 1);
      break;
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
    case TimerKind::SchedulerPeriod: {
      if (resolved_ == frame_count_) break;  // only probes left to arrive: no more decisions
      const SchedulerView v = view(resolved_);
      if (auto choice = in_.scheduler->on_period(v)) {
        if (*choice >= in_.plans->size())
          throw Error(fmt::format("scheduler '{}' chose variant {} of {}", in_.scheduler->name(), *choice,
                                  in_.plans->size()));
        current_variant_ = *choice;
      }
      apply_stalls();
      send_probes(v);
      add_timer(timer.time_s + in_.scheduler->period_s(), TimerKind::SchedulerPeriod, 0);
      break;
    }
    case TimerKind::StallEnd:
      try_start(timer.ref);
      break;
  }
}

// ---------------------------------------------------------------- compute tasks

const CompiledTask& Dispatcher::task(const TaskRef& ref) const {
  return (*in_.plans)[frame_state(ref.frame).variant].tasks[ref.task];
}

const Task& Dispatcher::task_spec(const TaskRef& ref) const {
  return (*in_.plans)[frame_state(ref.frame).variant].plan->tasks[ref.task];
}

void Dispatcher::make_ready(const TaskRef& ref) {
  const CompiledTask& t = task(ref);
  if (t.kind == TaskKind::Transfer) {
    begin_transfer(ref);
    return;
  }
  devices_[t.device].ready.push(ref);
  try_start(t.device);
}

void Dispatcher::try_start(std::size_t device) {
  DeviceState& d = devices_[device];
  if (now() < d.stalled_until_s - kTimeEps) {
    sample_queue(device);
    return;
  }
  while (!d.free_units.empty() && !d.ready.empty()) {
    const std::size_t unit = d.free_units.back();
    d.free_units.pop_back();
    d.running[unit] = d.ready.top();
    d.ready.pop();
    ++d.busy;
    d.started_s[unit] = now();
    auto exec = sg4::Exec::init()
                    ->set_flops_amount(task(d.running[unit]).duration_s * kHostSpeedFlops)
                    ->set_host(sg_.compute[device]);
    exec->start();
    add_activity(exec, {true, device, unit});
  }
  sample_queue(device);
}

// The scheduler's device stalls (Scheduler::take_stalls): no task starts before the stall ends.
void Dispatcher::apply_stalls() {
  for (const auto& stall : in_.scheduler->take_stalls()) {
    const auto d = in_.topology->platform().device_index_or_null(stall.device);
    if (!d || !(stall.seconds >= 0.0))
      throw Error(fmt::format("scheduler '{}' stalled device '{}' for {} s", in_.scheduler->name(),
                              stall.device, stall.seconds));
    const double until = now() + stall.seconds;
    if (until <= devices_[*d].stalled_until_s) continue;
    devices_[*d].stalled_until_s = until;
    add_timer(until, TimerKind::StallEnd, *d);
  }
}

void Dispatcher::on_exec_done(std::size_t device, std::size_t unit) {
  DeviceState& d = devices_[device];
  --d.busy;
  d.free_units.push_back(unit);
  const TaskRef ref = d.running[unit];
  const double t = now();
  out_.devices[device].busy_s += t - d.started_s[unit];
  ++out_.devices[device].executions;
  ++out_.executions;
  if (tracing_) {
    const Task& spec = task_spec(ref);
    trace(device, spec.id, "compute", d.started_s[unit], t, ref.frame, spec.label);
  }
  complete_task(ref);
  try_start(device);
}

// Successors first (so the same frame keeps a device before the next frame's first task),
// then the first-stage gate, then the frame's end.
void Dispatcher::complete_task(const TaskRef& ref) {
  FrameState& f = frame_state(ref.frame);
  const CompiledTask& t = task(ref);
  --f.tasks_left;
  for (auto s : t.succs)
    if (--f.pending[s] == 0) make_ready({ref.frame, s});
  if (t.first_stage && !f.continuing && --f.first_stage_left == 0) on_first_stage_done();
  if (f.tasks_left == 0) plan_ended(ref.frame);
}

// ---------------------------------------------------------------- transfers

std::size_t Dispatcher::radio_index(std::size_t network, std::size_t device) const {
  return network * devices_.size() + device;
}

// Every (network, channel name) any plan variant uses gets a ChannelState.
void Dispatcher::index_channels() {
  for (const auto& plan : *in_.plans) {
    auto& of = channel_of_.emplace_back(plan.tasks.size(), 0);
    for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
      const CompiledTask& t = plan.tasks[i];
      if (t.kind == TaskKind::Transfer) of[i] = channel_index(t.route->network, t.channel);
    }
  }
}

std::size_t Dispatcher::channel_index(std::size_t network, const std::string& channel) {
  const auto [it, added] = channel_index_.emplace(std::pair{network, channel}, channels_.size());
  if (added) {
    channels_.push_back({});
    channels_.back().last_active_s = in_.options->radios_start_awake ? in_.workload->start_s : -kInf;
    channel_names_.push_back(channel);
  }
  return it->second;
}

std::size_t Dispatcher::new_transfer_slot() {
  if (free_transfers_.empty()) {
    transfers_.emplace_back();
    return transfers_.size() - 1;
  }
  const std::size_t slot = free_transfers_.back();
  free_transfers_.pop_back();
  return slot;
}

// A transfer first waits for its wake-up (per radio or per channel, Network::wake_up_per), then
// for its network when the network's radio is serialized, then travels in SimGrid.
void Dispatcher::begin_transfer(const TaskRef& ref) {
  const std::size_t slot = new_transfer_slot();
  const CompiledTask& t = task(ref);
  Transfer& x = transfers_[slot];
  x.in_use = true;
  ++x.generation;
  x.ref = ref;
  x.route = t.route;
  x.route_index = static_cast<std::size_t>(t.route - in_.topology->routes().data());
  x.channel = channel_of_[frame_state(ref.frame).variant][ref.task];
  const FrameState& fs = frame_state(ref.frame);
  x.bytes = fs.bytes.empty() || std::isnan(fs.bytes[ref.task]) ? t.bytes : fs.bytes[ref.task];
  x.restart_pending = false;
  x.probe = false;
  launch_transfer(slot);
}

void Dispatcher::launch_transfer(std::size_t slot) {
  const Network& network = in_.topology->platform().networks[transfers_[slot].route->network];
  if (network.wake_up_s > 0.0 &&
      (network.wake_up_per == WakeUpPer::Channel ? wait_for_channel(slot) : wait_for_radio(slot)))
    return;
  enter_network(slot);
}

// Radio mode: the sender's radio wakes when it has been idle longer than the timeout; every
// transfer from it meanwhile waits for the same wake-up. True when the transfer waits.
bool Dispatcher::wait_for_radio(std::size_t slot) {
  const Route& route = *transfers_[slot].route;
  const auto net = route.network;
  if (!in_.topology->has_radio(net, route.src)) return false;
  const Network& network = in_.topology->platform().networks[net];
  RadioState& r = radios_[radio_index(net, route.src)];
  const double idle_s = now() - r.last_active_s;
  if (!r.waking && (r.active > 0 || idle_s <= network.power_save_timeout_s)) return false;
  r.waiting.push_back(slot);
  if (!r.waking) {
    r.waking = true;
    r.wake_start_s = now();
    ++out_.devices[route.src].wake_ups;
    add_timer(now() + network.wake_up_s, TimerKind::RadioAwake, radio_index(net, route.src));
    sample_radio(radio_index(net, route.src));
  }
  return true;
}

// Channel mode: a channel idle longer than the timeout is set up again by the sender's radio (the
// receiver's when the sender has none, e.g. a cellular base), one channel at a time per radio;
// transfers on a channel being set up wait for it. True when the transfer waits.
bool Dispatcher::wait_for_channel(std::size_t slot) {
  const Transfer& x = transfers_[slot];
  ChannelState& c = channels_[x.channel];
  if (c.pending) {
    c.waiting.push_back(slot);
    return true;
  }
  const auto net = x.route->network;
  const double idle_s = now() - c.last_active_s;
  if (c.active > 0 || idle_s <= in_.topology->platform().networks[net].power_save_timeout_s) return false;
  const auto device = in_.topology->has_radio(net, x.route->src) ? x.route->src : x.route->dst;
  if (!in_.topology->has_radio(net, device)) return false;
  c.pending = true;
  c.waiting.push_back(slot);
  RadioState& r = radios_[radio_index(net, device)];
  r.setups.push_back(x.channel);
  if (r.setups.size() == 1) start_channel_setup(radio_index(net, device));
  return true;
}

void Dispatcher::start_channel_setup(std::size_t radio) {
  RadioState& r = radios_[radio];
  const auto net = radio / devices_.size();
  r.waking = true;
  r.wake_start_s = now();
  ++out_.devices[radio % devices_.size()].wake_ups;
  add_timer(now() + in_.topology->platform().networks[net].wake_up_s, TimerKind::RadioAwake, radio);
  sample_radio(radio);
}

void Dispatcher::on_radio_awake(std::size_t radio) {
  RadioState& r = radios_[radio];
  r.waking = false;
  r.last_active_s = now();
  sample_radio(radio);
  if (!r.setups.empty()) {
    on_channel_set_up(radio);
    return;
  }
  trace_wake_up(radio, transfers_[r.waiting.front()].ref.frame, "");
  auto waiting = std::move(r.waiting);
  r.waiting.clear();
  for (auto slot : waiting) enter_network(slot);
}

// The radio's first queued channel is up: its transfers go, the radio sets up the next one.
void Dispatcher::on_channel_set_up(std::size_t radio) {
  RadioState& r = radios_[radio];
  ChannelState& c = channels_[r.setups.front()];
  trace_wake_up(radio, transfers_[c.waiting.front()].ref.frame, channel_names_[r.setups.front()]);
  r.setups.pop_front();
  c.pending = false;
  c.last_active_s = now();
  auto waiting = std::move(c.waiting);
  c.waiting.clear();
  if (!r.setups.empty()) start_channel_setup(radio);
  for (auto slot : waiting) enter_network(slot);
}

void Dispatcher::enter_network(std::size_t slot) {
  const auto net = transfers_[slot].route->network;
  if (in_.topology->platform().networks[net].serialized_radio) {
    if (network_busy_[net]) {
      network_queue_[net].push_back(slot);
      return;
    }
    network_busy_[net] = true;
  }
  start_comm(slot);
}

void Dispatcher::start_comm(std::size_t slot) {
  Transfer& x = transfers_[slot];
  const double t = now();
  x.comm_start_s = t;
  x.latency_end_s = t + x.route->latency_s;
  const RouteHosts& hosts = sg_.routes[x.route_index];
  // At least one byte: SimGrid never completes a 0-byte comm (its engine reports a deadlock), and a
  // plan may carry an empty or sub-byte message (a download of a tiny updated fraction of weights).
  x.comm = sg4::Comm::sendto_async(hosts.src, hosts.dst, std::max<std::uint64_t>(1, payload_bytes(x.bytes)));
  add_activity(x.comm, {false, slot});
  touch_radios(x, true);
  touch_channel(x, true);
  for (auto l : x.route->links) {
    LinkState& ls = links_[l];
    if (ls.active++ == 0) ls.busy_since_s = t;
    out_.links[l].bytes += x.bytes;
    ++out_.links[l].messages;
    if (x.probe) {
      ++out_.links[l].probes;
      out_.links[l].probe_bytes += x.bytes;
    }
    arm_link(l);
  }
  ++out_.messages;
}

// Radios of both ends stay awake while a transfer runs; their idle time restarts at its end.
void Dispatcher::touch_radios(const Transfer& x, bool starting) {
  const auto net = x.route->network;
  for (auto device : {x.route->src, x.route->dst}) {
    if (!in_.topology->has_radio(net, device)) continue;
    RadioState& r = radios_[radio_index(net, device)];
    if (starting) {
      ++r.active;
    } else {
      --r.active;
      r.last_active_s = now();
    }
    sample_radio(radio_index(net, device));
  }
}

void Dispatcher::touch_channel(const Transfer& x, bool starting) {
  ChannelState& c = channels_[x.channel];
  if (starting) {
    ++c.active;
  } else {
    --c.active;
    c.last_active_s = now();
  }
}

void Dispatcher::add_radio_energy(const Transfer& x, double duration_s) {
  const Topology& topo = *in_.topology;
  const auto net = x.route->network;
  const Network& network = topo.platform().networks[net];
  const auto key = radio_power_key(network.kind);
  for (const bool sending : {true, false}) {
    const auto device = sending ? x.route->src : x.route->dst;
    if (!topo.has_radio(net, device)) continue;
    const RadioPowerModel* model =
        radio_power_model(topo.platform().devices[device].calibration, network.kind);
    if (model == nullptr) {
      if (!radio_warned_[device][net]) {
        radio_warned_[device][net] = true;
        out_.warnings.push_back(
            fmt::format("device '{}' has no '{}' radio power model: its radio energy on '{}' "
                        "is counted as 0",
                        topo.platform().devices[device].name, key, network.name));
      }
      continue;
    }
    const auto& m = *model;
    const double energy_j =
        sending ? radio_energy_j(m.uplink_alpha_mw_per_mbps, m.uplink_beta_mw, x.bytes, duration_s)
                : radio_energy_j(m.downlink_alpha_mw_per_mbps, m.downlink_beta_mw, x.bytes, duration_s);
    out_.devices[device].radio_energy_j += energy_j;
    if (x.probe) out_.devices[device].probe_radio_energy_j += energy_j;
  }
}

void Dispatcher::on_comm_done(std::size_t slot) {
  Transfer& x = transfers_[slot];
  const double t = now();
  x.comm = nullptr;
  touch_radios(x, false);
  touch_channel(x, false);
  add_radio_energy(x, t - x.comm_start_s);
  measure_transfer(x, t);
  out_.devices[x.route->src].bytes_sent += x.bytes;
  out_.devices[x.route->dst].bytes_received += x.bytes;
  for (auto l : x.route->links) {
    LinkState& ls = links_[l];
    if (--ls.active == 0) out_.links[l].busy_s += t - ls.busy_since_s;
  }
  if (tracing_ && !x.probe) {
    const Task& spec = task_spec(x.ref);
    for (auto l : x.route->links)
      trace(first_link_track_ + l, spec.id, "transfer", x.comm_start_s, t, x.ref.frame, spec.label);
  }
  const auto net = x.route->network;
  if (in_.topology->platform().networks[net].serialized_radio) {
    network_busy_[net] = false;
    if (!network_queue_[net].empty()) {
      const auto next = network_queue_[net].front();
      network_queue_[net].pop_front();
      network_busy_[net] = true;
      start_comm(next);
    }
  }
  if (x.probe) {
    probe_arrived(slot);
    return;
  }
  const TaskRef ref = x.ref;
  x.in_use = false;
  free_transfers_.push_back(slot);
  complete_task(ref);
}

// ---------------------------------------------------------------- time-varying rates

void Dispatcher::arm_link(std::size_t link, double fired_s) {
  LinkState& ls = links_[link];
  if (!series_[link].varies() || ls.armed_change_s < kInf) return;
  // A change timer may fire a hair before the change (float clock): look past the tolerance, and
  // past the change that just fired (now() + kTimeEps may round to just below it), so that change
  // is never armed again.
  const double next = series_[link].next_change_after(std::max(now(), fired_s) + kTimeEps);
  if (next == kInf) return;
  ls.armed_change_s = next;
  add_timer(next, TimerKind::BandwidthChange, link);
}

// SimGrid 3.32 bounds a flow's rate by the bandwidth its links had when it started, so after a
// rate change each flow crossing the link continues as a fresh flow (its remaining bytes on
// the route's latency-free twin). A flow still paying its latency is moved when it ends.
void Dispatcher::on_bandwidth_change(std::size_t link) {
  const double fired_s = links_[link].armed_change_s;
  links_[link].armed_change_s = kInf;
  const double t = now();
  for (std::size_t slot = 0; slot < transfers_.size(); ++slot) {
    Transfer& x = transfers_[slot];
    if (!x.in_use || !x.comm) continue;
    if (std::find(x.route->links.begin(), x.route->links.end(), link) == x.route->links.end()) continue;
    if (t + kTimeEps < x.latency_end_s) {
      if (!x.restart_pending) {
        x.restart_pending = true;
        add_timer(x.latency_end_s, TimerKind::LatencyEnd, slot, x.generation);
      }
    } else {
      restart_comm(slot);
    }
  }
  if (links_[link].active > 0) arm_link(link, fired_s);
}

void Dispatcher::restart_comm(std::size_t slot) {
  Transfer& x = transfers_[slot];
  if (!x.comm) return;
  const double remaining = x.comm->get_remaining();
  // Under a byte left: the flow ends within a byte's time at its old rate, so let it. A restart
  // would send 0 bytes, a SimGrid comm that never completes (the frame then never ended, and the
  // run went on forever while rate changes restarted that flow again and again).
  if (payload_bytes(remaining) == 0) return;
  remove_activity(x.activity_pos);
  x.comm->cancel();
  const RouteHosts& hosts = sg_.routes[x.route_index];
  x.comm = sg4::Comm::sendto_async(hosts.twin_src, hosts.twin_dst, payload_bytes(remaining));
  add_activity(x.comm, {false, slot});
}

// ---------------------------------------------------------------- frames

SchedulerView Dispatcher::view(std::size_t frame) {
  SchedulerView v;
  v.now_s = now();
  v.frame = frame;
  v.variant_count = in_.plans->size();
  v.current_variant = current_variant_;
  v.queued_frames = waiting_.size();
  v.frames_in_flight = in_flight_;
  v.deadline_s = in_.workload->deadline_s;
  v.frames = &out_.frames;
  v.link_names = &link_names_;
  for (auto& s : series_) v.link_rates_bps.push_back(s.rate_at(v.now_s));
  v.measured_links = measured_;
  return v;
}

void Dispatcher::release_frame(std::size_t k) {
  FrameRecord& rec = out_.frames[k];
  if (in_.workload->kind == WorkloadKind::Training) rec.release_s = now();
  rec.variant = static_cast<std::uint32_t>(current_variant_);
  if (in_.scheduler != nullptr) {
    const SchedulerView v = view(k);
    const FrameDecision decision = in_.scheduler->on_frame(v);
    send_probes(v);
    if (decision.variant) {
      if (*decision.variant >= in_.plans->size())
        throw Error(fmt::format("scheduler '{}' chose variant {} of {}", in_.scheduler->name(),
                                *decision.variant, in_.plans->size()));
      rec.variant = static_cast<std::uint32_t>(*decision.variant);
    }
    if (decision.drop) {
      drop(k, DropReason::Scheduler);
      return;
    }
  }
  if (gate_open() && waiting_.empty()) {
    admit(k);
  } else if (in_.workload->kind == WorkloadKind::Stream &&
             (in_.workload->policy == DropPolicy::DropWhenBusy ||
              (in_.workload->queue_capacity > 0 && waiting_.size() >= in_.workload->queue_capacity))) {
    drop(k, DropReason::Busy);
  } else {
    waiting_.push_back(k);
    sample_admission();
  }
}

void Dispatcher::admit(std::size_t k) {
  FrameRecord& rec = out_.frames[k];
  const CompiledPlan& plan = (*in_.plans)[rec.variant];
  if (spare_states_.empty()) {
    state_pool_.push_back(std::make_unique<FrameState>());
    spare_states_.push_back(state_pool_.back().get());
  }
  FrameState* f = spare_states_.back();
  spare_states_.pop_back();
  f->variant = rec.variant;
  f->tasks_left = plan.tasks.size();
  f->first_stage_left = plan.first_stage_size;
  f->continuing = false;
  f->held = false;
  f->bytes.clear();
  f->pending.resize(plan.tasks.size());
  for (std::size_t i = 0; i < plan.tasks.size(); ++i)
    f->pending[i] = static_cast<std::uint32_t>(plan.tasks[i].deps.size());
  // Frames are admitted in release order (the queue is FIFO), so live_ only grows at its back.
  if (live_.empty()) live_base_ = k;
  if (k < live_base_ + live_.size()) throw Error("replay: a frame was admitted out of release order");
  live_.resize(k - live_base_ + 1, nullptr);
  live_.back() = f;
  rec.start_s = now();
  gate_busy_ = true;
  ++in_flight_;
  for (auto e : plan.entries) make_ready({k, e});
}

void Dispatcher::drop(std::size_t k, DropReason reason) {
  out_.frames[k].drop_reason = reason;
  frame_resolved(k);
}

bool Dispatcher::gate_open() const {
  const std::size_t cap = in_.workload->max_in_flight;
  return !gate_busy_ && (cap == 0 || in_flight_ < cap);
}

// The first stage is free: the oldest queued frame enters, unless its deadline already passed.
void Dispatcher::on_first_stage_done() {
  gate_busy_ = false;
  admit_waiting();
}

// While the gate is open (first stage free, room under max_in_flight), queued frames enter.
void Dispatcher::admit_waiting() {
  while (gate_open() && !waiting_.empty()) {
    const auto k = waiting_.front();
    waiting_.pop_front();
    if (now() > out_.frames[k].release_s + in_.workload->deadline_s)
      drop(k, DropReason::Late);
    else
      admit(k);
  }
  sample_admission();
}

void Dispatcher::finish_frame(std::size_t k, double end_s) {
  FrameRecord& rec = out_.frames[k];
  rec.end_s = end_s;
  rec.deadline_met = rec.latency_s() <= in_.workload->deadline_s + kTimeEps;
  // The frame's state goes back to the pool; the window of live frames drops its finished front.
  spare_states_.push_back(live_[k - live_base_]);
  live_[k - live_base_] = nullptr;
  while (!live_.empty() && live_.front() == nullptr) {
    live_.pop_front();
    ++live_base_;
  }
  --in_flight_;
  if (in_.workload->max_in_flight > 0) admit_waiting();  // a pipeline slot freed up
  frame_resolved(k);
  if (in_.workload->kind == WorkloadKind::Training && k + 1 < frame_count_) release_frame(k + 1);
}

void Dispatcher::frame_resolved(std::size_t k) {
  ++resolved_;
  record_score(k);
  if (in_.scheduler != nullptr) in_.scheduler->on_frame_end(out_.frames[k], view(k + 1));
}

void Dispatcher::finish(double end_s) {
  out_.end_s = end_s;
  const Platform& platform = in_.topology->platform();
  for (std::size_t d = 0; d < out_.devices.size(); ++d) {
    DeviceStats& s = out_.devices[d];
    s.compute_energy_j = compute_energy_j(platform.devices[d].calibration.power, s.busy_s, end_s);
    s.energy_j = s.compute_energy_j + s.radio_energy_j;
    s.active_energy_j =
        compute_energy_j(platform.devices[d].calibration.power, s.busy_s, s.busy_s) + s.radio_energy_j;
  }
  if (in_.scheduler != nullptr) out_.scheduler_metrics = in_.scheduler->summary();
  finish_trace(end_s);
}

}  // namespace coinfer::replay
