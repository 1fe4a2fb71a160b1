// Probe transfers (Scheduler::take_probes, scheduler.hpp): transfers a scheduler asks for to keep
// measuring a link its plan no longer uses. A probe belongs to no frame; it takes the path of a
// frame's transfer (wake-up, serialized radio, SimGrid sharing and latency, eq. 21 radio energy,
// measured_links) and is counted per link in the results.
#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

// Asked after on_frame / on_period; none once every frame is resolved (the run only waits then).
void Dispatcher::send_probes(std::size_t u, const SchedulerView& v) {
  if (users_[u].resolved == users_[u].frames) return;
  for (const auto& probe : port(u).take_probes(v)) begin_probe(u, probe);
}

void Dispatcher::begin_probe(std::size_t u, const ProbeRoute& probe) {
  const std::size_t slot = new_transfer_slot();
  Transfer& x = transfers_[slot];
  x.in_use = true;
  x.user = u;
  ++x.generation;
  x.ref = {kNoFrame, 0};
  x.route = probe.route;
  x.channel = radios_.channel_index(probe.route->network, probe.channel);
  x.bytes = probe.bytes;
  x.restart_pending = false;
  ++probes_in_flight_;
  launch_transfer(slot);
}

// Called by on_comm_done once the probe's radio energy, measurement and traffic are counted.
void Dispatcher::probe_arrived(std::size_t slot) {
  Transfer& x = transfers_[slot];
  if (trace_.tracing()) trace_.probe(x.route->links, x.comm_start_s, now());
  x.in_use = false;
  free_transfers_.push_back(slot);
  --probes_in_flight_;
}

}  // namespace coinfer::replay
