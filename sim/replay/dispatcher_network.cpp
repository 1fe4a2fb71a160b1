// The dispatcher's network side: transfers as SimGrid comms, through the RadioModel's wake-ups and
// serialized radios (radio_model.hpp), and bandwidth that changes over time (dispatcher.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/replay/dispatcher.hpp"
#include "sim/replay/dispatcher_common.hpp"

namespace coinfer::replay {

namespace sg4 = simgrid::s4u;

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
  const CompiledTask t = task(ref);
  Transfer& x = transfers_[slot];
  x.in_use = true;
  ++x.generation;
  x.ref = ref;
  const FrameState& fs = frame_state(ref);
  x.user = fs.user;
  x.route = t.route;
  x.channel = radios_.channel_of(fs.variant, ref.task);
  x.bytes = fs.bytes_or(ref.task, t.bytes);
  x.restart_pending = false;
  launch_transfer(slot);
}

void Dispatcher::launch_transfer(std::size_t slot) {
  const Transfer& x = transfers_[slot];
  const RadioModel::Wait wait = radios_.wait_for_wake_up(slot, x.ref.frame, *x.route, x.channel, now());
  if (wait.awake_s < kInf) add_timer(wait.awake_s, TimerKind::RadioAwake, wait.radio);
  if (!wait.waits) enter_network(slot);
}

// The transfers that waited for the wake-up go; a radio with channels still to set up goes on
// with the next one (its timer first, as when it started).
void Dispatcher::on_radio_awake(std::size_t radio) {
  const RadioModel::Awake awake = radios_.on_awake(radio, now());
  if (awake.next_awake_s < kInf) add_timer(awake.next_awake_s, TimerKind::RadioAwake, radio);
  for (auto slot : awake.ready) enter_network(slot);
}

void Dispatcher::enter_network(std::size_t slot) {
  if (radios_.try_enter_network(transfers_[slot].route->network, slot)) start_comm(slot);
}

void Dispatcher::start_comm(std::size_t slot) {
  Transfer& x = transfers_[slot];
  const double t = now();
  x.comm_start_s = t;
  x.latency_end_s = t + x.route->latency_s;
  // At least one byte: SimGrid never completes a 0-byte comm (its engine reports a deadlock), and a
  // plan may carry an empty or sub-byte message (a download of a tiny updated fraction of weights).
  // A private flow has the same size, so the two ways give the same times.
  const std::uint64_t bytes = std::max<std::uint64_t>(1, payload_bytes(x.bytes));
  if (flows_.carries(*x.route)) {
    flows_.start(slot, *x.route, static_cast<double>(bytes), t);
    x.private_flow = true;
    add_activity(nullptr, {false, slot});
  } else {
    for (auto l : x.route->links)
      if (flows_.is_private(l))
        throw Error(fmt::format(
            "replay: a probe from '{}' to '{}' crosses link '{}' with another link, and no plan's route "
            "does: the run keeps that link outside SimGrid (SimOptions::private_links_in_simgrid keeps "
            "it in)",
            in_.topology->platform().devices[x.route->src].name,
            in_.topology->platform().devices[x.route->dst].name, in_.topology->links()[l].name()));
    const RouteHosts hosts = sg_.hosts(*x.route);
    x.comm = sg4::Comm::sendto_async(hosts.src, hosts.dst, bytes);
    add_activity(x.comm, {false, slot});
  }
  radios_.transfer_started(*x.route, x.channel, t);
  for (auto l : x.route->links) {
    LinkTally& ls = tally_.links[l];
    if (ls.active++ == 0) ls.busy_since_s = t;
    ls.counts.bytes += x.bytes;
    ++ls.counts.messages;
    if (x.probe()) {
      ++ls.counts.probes;
      ls.counts.probe_bytes += x.bytes;
    }
    arm_link(l);
  }
  ++out_.messages;
}

void Dispatcher::on_comm_done(std::size_t slot) {
  Transfer& x = transfers_[slot];
  const double t = now();
  x.comm = nullptr;
  x.private_flow = false;
  radios_.transfer_ended(*x.route, x.channel, t);
  radios_.add_radio_energy(*x.route, x.bytes, t - x.comm_start_s, x.probe());
  port(x.user).measure_transfer(*x.route, x.bytes, x.comm_start_s, t);
  tally_.devices[x.route->src].bytes_sent += x.bytes;
  tally_.devices[x.route->dst].bytes_received += x.bytes;
  for (auto l : x.route->links) {
    LinkTally& ls = tally_.links[l];
    if (--ls.active == 0) ls.counts.busy_s += t - ls.busy_since_s;
  }
  if (trace_.tracing() && !x.probe()) {
    const Task& spec = task_spec(x.ref);
    trace_.transfer(x.route->links, spec.id, x.comm_start_s, t, x.ref.frame, spec.label);
  }
  if (const auto next = radios_.leave_network(x.route->network)) start_comm(*next);
  if (x.probe()) {
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
  LinkTally& ls = tally_.links[link];
  if (!ls.varies || ls.armed_change_s < kInf) return;
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
  const double fired_s = tally_.links[link].armed_change_s;
  tally_.links[link].armed_change_s = kInf;
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
  if (tally_.links[link].active > 0) arm_link(link, fired_s);
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
  const RouteHosts hosts = sg_.hosts(*x.route);
  x.comm = sg4::Comm::sendto_async(hosts.twin_src, hosts.twin_dst, payload_bytes(remaining));
  add_activity(x.comm, {false, slot});
}

// ---------------------------------------------------------------- frames

}  // namespace coinfer::replay
