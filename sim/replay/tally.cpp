#include "sim/replay/tally.hpp"

#include <utility>

#include "sim/cost/energy.hpp"

namespace coinfer::replay {

void write_stats(Tally tally, const Topology& topology, SimulationResult& out) {
  const Platform& platform = topology.platform();
  // The links first, and each part of the tally freed once copied: the results grow while it shrinks.
  out.links.reserve(tally.links.size());
  for (std::size_t l = 0; l < tally.links.size(); ++l) {
    LinkStats& s = out.links.emplace_back();
    static_cast<LinkCounts&>(s) = tally.links[l].counts;
    s.link = topology.links()[l].name();
    s.network = platform.networks[topology.links()[l].network].name;
  }
  tally.links = {};
  out.devices.reserve(tally.devices.size());
  for (std::size_t d = 0; d < tally.devices.size(); ++d) {
    DeviceStats& s = out.devices.emplace_back();
    static_cast<DeviceCounts&>(s) = tally.devices[d];
    s.device = platform.devices[d].name;
    const PowerStates& power = platform.devices[d].calibration->power;
    s.compute_energy_j = compute_energy_j(power, s.busy_s, out.end_s);
    s.energy_j = s.compute_energy_j + s.radio_energy_j;
    s.active_energy_j = compute_energy_j(power, s.busy_s, s.busy_s) + s.radio_energy_j;
  }
}

}  // namespace coinfer::replay
