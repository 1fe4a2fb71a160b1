// Probe transfers (Scheduler::take_probes, scheduler.hpp): transfers a scheduler asks for to keep
// measuring a link its plan no longer uses. A probe belongs to no frame; it takes the path of a
// frame's transfer (wake-up, serialized radio, SimGrid sharing and latency, eq. 21 radio energy,
// measured_links) and is counted per link in the results.
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

// Asked after on_frame / on_period; none once every frame is resolved (the run only waits then).
void Dispatcher::send_probes(const SchedulerView& v) {
  if (resolved_ == frame_count_) return;
  for (const auto& request : in_.scheduler->take_probes(v)) begin_probe(request);
}

void Dispatcher::begin_probe(const ProbeRequest& request) {
  const Platform& platform = in_.topology->platform();
  const auto net = platform.network_index_or_null(request.network);
  const auto from = platform.device_index_or_null(request.from);
  const auto to = platform.device_index_or_null(request.to);
  const Route* route = net && from && to ? in_.topology->route_or_null(*net, *from, *to) : nullptr;
  if (route == nullptr || !(request.bytes > 0.0) || !std::isfinite(request.bytes))
    throw Error(fmt::format("scheduler '{}' asked for a probe of {} bytes from '{}' to '{}' over '{}': {}",
                            in_.scheduler->name(), request.bytes, request.from, request.to, request.network,
                            route == nullptr ? "no such route" : "the size must be > 0 and finite"));
  const std::size_t slot = new_transfer_slot();
  Transfer& x = transfers_[slot];
  x.in_use = true;
  ++x.generation;
  x.ref = {kNoFrame, 0};
  x.route = route;
  x.route_index = static_cast<std::size_t>(route - in_.topology->routes().data());
  // The channel a frame's transfer between the two devices uses (Task::channel "").
  x.channel = radios_.channel_index(*net, pair_channel(request.from, request.to));
  x.bytes = request.bytes;
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
