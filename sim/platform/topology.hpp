#pragma once
/// The links and routes a platform's networks imply (platform.hpp explains each kind), as plain
/// data shared by the analytic cost and the SimGrid replay, so both see the same routes.
///
///     Topology topo(platform);
///     const Route& r = topo.route(net, src, dst);        // links + end-to-end latency
///     double t = topo.nominal_transfer_s(r, 1e6);        // L + 8 * 1e6 / min rate
#include <cstddef>
#include <string>
#include <vector>

#include "sim/platform/platform.hpp"

namespace coinfer {

/// One bandwidth-limited link (latency lives on routes, see Route::latency_s).
struct LogicalLink {
  std::string name;  ///< "wlan" (shared medium), "lte/phone/up", "eth/server/in", ...
  std::size_t network = 0;
  const LinkSpec* spec = nullptr;  ///< rate and bandwidth model (points into the Platform)
};

/// How a transfer from `src` to `dst` over `network` travels.
struct Route {
  std::size_t network = 0;
  std::size_t src = 0;  ///< device indices
  std::size_t dst = 0;
  std::vector<std::size_t> links;  ///< indices into Topology::links()
  double latency_s = 0.0;          ///< end to end
};

class Topology {
 public:
  /// Keeps a pointer to `platform`, which must outlive the topology.
  explicit Topology(const Platform& platform);

  const Platform& platform() const { return *platform_; }
  const std::vector<LogicalLink>& links() const { return links_; }
  /// Every route (one per ordered pair of distinct endpoints of each network).
  const std::vector<Route>& routes() const { return routes_; }
  /// The route over `network` from `src` to `dst` (device indices), or null when the network
  /// does not reach both.
  const Route* route_or_null(std::size_t network, std::size_t src, std::size_t dst) const;
  /// Whether `device` has a radio on `network` (wireless members; not a cellular base).
  bool has_radio(std::size_t network, std::size_t device) const;
  /// L + 8 S / R with R the smallest nominal rate on the route (an uncontended transfer).
  double nominal_transfer_s(const Route& route, double bytes) const;

 private:
  void add_network(std::size_t index);
  std::size_t add_link(std::string name, std::size_t network, const LinkSpec* spec);
  void add_route(std::size_t network, std::size_t src, std::size_t dst, std::vector<std::size_t> links,
                 double latency_s);

  const Platform* platform_;
  std::vector<LogicalLink> links_;
  std::vector<Route> routes_;
  /// routes_ index per (network, src, dst), or npos.
  std::vector<std::size_t> route_index_;
};

}  // namespace coinfer
