#pragma once
/// What a replay counts per device and per link while it runs: SimulationResult's DeviceStats and
/// LinkStats without their names. The names are added once the replay's state is freed
/// (`write_stats`), so that a population's device and link names are not held twice at its peak.
#include <vector>

#include "sim/platform/topology.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer::replay {

struct Tally {
  std::vector<DeviceCounts> devices;  ///< platform order
  std::vector<LinkCounts> links;      ///< Topology order
};

/// Fills `out.devices` and `out.links` from `tally`, with the device, link and network names and
/// the devices' energies over the run (up to `out.end_s`).
void write_stats(Tally tally, const Topology& topology, SimulationResult& out);

}  // namespace coinfer::replay
