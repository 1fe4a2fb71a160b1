// The dispatcher's network side: radios and their wake-up, channels, transfers as SimGrid comms,
// radio energy, and bandwidth that changes over time (dispatcher.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/replay/dispatcher.hpp"
#include "sim/replay/dispatcher_common.hpp"
#include "sim/cost/energy.hpp"

namespace coinfer::replay {

namespace sg4 = simgrid::s4u;

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
    if (x.probe()) {
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
    if (x.probe()) out_.devices[device].probe_radio_energy_j += energy_j;
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
  if (trace_.tracing() && !x.probe()) {
    const Task& spec = task_spec(x.ref);
    trace_.transfer(x.route->links, spec.id, x.comm_start_s, t, x.ref.frame, spec.label);
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
  if (x.probe()) {
    probe_arrived(slot);
    return;
  }
  const TaskRef ref = x.ref;
  x.in_use = false;
  free_transfers_.push_back(slot);
  complete_task(ref);
}

void Dispatcher::sample_radio(std::size_t radio) {
  const RadioState& r = radios_[radio];
  trace_.radio(radio, now(), {r.waking, r.active, r.last_active_s});
}

void Dispatcher::trace_wake_up(std::size_t radio, std::size_t frame, const std::string& label) {
  if (trace_.tracing()) trace_.wake_up(radio, radios_[radio].wake_start_s, now(), frame, label);
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

}  // namespace coinfer::replay
