#pragma once
/// Internal to sim/replay (includes SimGrid): the SimGrid platform built from a Topology.
///
/// One root full zone holds a host per device (compute, speed kHostSpeedFlops) and the
/// dispatcher's host; each network is a child full zone with one interface host per endpoint
/// ("<device>@<network>") and, for networks whose rate varies, a twin per endpoint
/// ("<device>@<network>~"). Each logical link is a SHARED SimGrid link of rate_bps / 8 bytes/s
/// and no latency; each route adds one FATPIPE latency link carrying the route's latency. The
/// twin routes cross the same bandwidth links without latency: the replay moves the rest of an
/// in-flight transfer there when a rate changes (SimGrid 3.32 keeps a flow's rate bound at the
/// bandwidth it saw when it started, so a rate increase would otherwise not reach it).
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/platform/bandwidth_series.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer::replay {

/// Every compute host runs this many flops per second; an execution of d seconds is d times it.
inline constexpr double kHostSpeedFlops = 1e9;

struct RouteHosts {
  simgrid::s4u::Host* src = nullptr;
  simgrid::s4u::Host* dst = nullptr;
  simgrid::s4u::Host* twin_src = nullptr;  ///< null when the network's rate is constant
  simgrid::s4u::Host* twin_dst = nullptr;
};

struct SimGridPlatform {
  simgrid::s4u::Host* dispatcher = nullptr;
  std::vector<simgrid::s4u::Host*> compute;  ///< per device
  std::vector<RouteHosts> routes;            ///< per Topology::routes() entry
  std::vector<simgrid::s4u::Link*> links;    ///< per Topology::links() entry
};

/// Builds the platform in the current Engine; `seed` seeds the bandwidth profiles
/// (BandwidthSeries with link_seed(seed, link name)).
SimGridPlatform build_simgrid_platform(const Topology& topology, std::uint64_t seed);

}  // namespace coinfer::replay
