#pragma once
/// Internal to sim/replay (includes SimGrid): the SimGrid platform built from a Topology.
///
/// One root full zone holds the dispatcher's host (a device's executions are end dates the
/// dispatcher keeps, not SimGrid executions: dispatcher.hpp); each network is a child star zone with one
/// interface host per endpoint
/// ("<device>@<network>") and, for networks whose rate varies, a twin per endpoint
/// ("<device>@<network>~"). Each logical link is a SHARED SimGrid link of rate_bps / 8 bytes/s
/// and no latency. Each endpoint names the links a transfer crosses leaving it and reaching it
/// (Topology::attachment), each side with its latency (half the network's, or an access network's
/// uplink latency going up and downlink latency coming down): on the endpoint's own link (an
/// access link or a switch port of a network whose rate is constant), else on a FATPIPE latency
/// link of its own (a shared medium, or a network with twins), so a route
/// src -> dst is src's links up then dst's links down, the Topology route's links and latency, and
/// memory grows with the endpoints, not with their pairs. The twins cross the same bandwidth
/// links without latency: the replay moves the rest of an
/// in-flight transfer there when a rate changes (SimGrid 3.32 keeps a flow's rate bound at the
/// bandwidth it saw when it started, so a rate increase would otherwise not reach it).
/// Private links (private_flows.hpp) are not built, nor the endpoints no SimGrid transfer reaches.
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/platform/bandwidth_series.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer::replay {

struct RouteHosts {
  simgrid::s4u::Host* src = nullptr;
  simgrid::s4u::Host* dst = nullptr;
  simgrid::s4u::Host* twin_src = nullptr;  ///< null when the network's rate is constant
  simgrid::s4u::Host* twin_dst = nullptr;
};

struct SimGridPlatform {
  simgrid::s4u::Host* dispatcher = nullptr;
  /// Per network, its endpoints' hosts by device index (increasing): a device's interface, and
  /// its twin (null when the network's rate is constant). Only the endpoints are stored, so a
  /// city's 50 cells cost their own phones, not every phone each.
  struct Endpoint {
    std::size_t device = 0;
    simgrid::s4u::Host* iface = nullptr;
    simgrid::s4u::Host* twin = nullptr;
  };
  std::vector<std::vector<Endpoint>> endpoints;
  std::vector<simgrid::s4u::Link*> links;  ///< per Topology::links() entry (null: private)
  /// The hosts a transfer on `route` goes between.
  RouteHosts hosts(const Route& route) const;
  /// `device`'s endpoint on `network` (it must be one).
  const Endpoint& endpoint(std::size_t network, std::size_t device) const;
};

/// Builds the platform in the current Engine; `seed` seeds the bandwidth profiles
/// (BandwidthSeries with link_seed(seed, link name)). The links `private_links` flags
/// (private_flows.hpp; empty: none) are left out, with them their access network's endpoints that
/// no transfer in SimGrid reaches: their `links` entries are null and they have no Endpoint.
SimGridPlatform build_simgrid_platform(const Topology& topology, std::uint64_t seed,
                                       const std::vector<char>& private_links = {});

}  // namespace coinfer::replay
