#pragma once
/// What a replay counts per device and per link while it runs: SimulationResult's DeviceStats and
/// LinkStats without their names. The names are added once the replay's state is freed
/// (`write_stats`), so that a population's device and link names are not held twice at its peak.
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/platform/topology.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer::replay {

/// A link's counts, and what the replay counts them from while it runs, in one cache line: a
/// transfer's start and end find both on the line they touch of its link (at 10,000 users the
/// lines a frame touches of its user's records are what its time grows with).
struct alignas(64) LinkTally {
  LinkCounts counts;
  std::uint32_t active = 0;  ///< transfers on it now
  /// Its BandwidthSeries varies (a transfer's start may arm a rate change): kept here, so that a
  /// transfer on a constant link reads nothing else of it.
  bool varies = false;
  double busy_since_s = 0.0;                                        ///< when `active` last rose from 0
  double armed_change_s = std::numeric_limits<double>::infinity();  ///< the rate change armed; inf: none
};
static_assert(sizeof(LinkTally) == 64);

struct Tally {
  std::vector<DeviceCounts> devices;  ///< platform order
  std::vector<LinkTally> links;       ///< Topology order
};

/// Fills `out.devices` and `out.links` from `tally`, with the device, link and network names and
/// the devices' energies over the run (up to `out.end_s`).
void write_stats(Tally tally, const Topology& topology, SimulationResult& out);

}  // namespace coinfer::replay
