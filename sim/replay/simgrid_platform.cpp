#include "sim/replay/simgrid_platform.hpp"

#include <algorithm>
#include <memory>

#include <simgrid/kernel/ProfileBuilder.hpp>

namespace coinfer::replay {
namespace {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::profile::DatedValue;

// A latency link never limits the rate: its bandwidth is far above any real link.
constexpr double kLatencyLinkBytesPerS = 1e12;

// SimGrid profiles hold (delay since the previous event, value) pairs; the callback appends
// one segment of the link's series each time SimGrid has used up the previous ones.
simgrid::kernel::profile::Profile* bandwidth_profile(const std::string& name, BandwidthSeries series) {
  struct State {
    BandwidthSeries series;
    std::size_t next = 0;
    double previous_start_s = 0.0;
  };
  auto state = std::make_shared<State>(State{std::move(series)});
  auto fill = [state](std::vector<DatedValue>& values) {
    const auto* segment = state->series.segment(state->next);
    if (segment == nullptr) return;
    values.emplace_back(segment->start_s - state->previous_start_s, segment->rate_bps / 8.0);
    state->previous_start_s = segment->start_s;
    ++state->next;
  };
  return simgrid::kernel::profile::ProfileBuilder::from_callback(name + "#profile", fill, -1.0);
}

// Whether an endpoint's interface host is needed: some transfer to or from it runs in SimGrid. An
// access network's member needs one when its uplink or downlink is not private (PrivateFlows),
// its base when some member's is not; every other network's endpoints always do.
bool needs_host(const Topology& topology, const std::vector<char>& is_private, std::size_t net,
                std::size_t device) {
  if (topology.shape(net) != Topology::Shape::Access) return true;
  const auto in_simgrid = [&](std::size_t l) { return l != Topology::kNone && is_private[l] == 0; };
  const Topology::Attachment a = topology.attachment(net, device);
  if (a.out != Topology::kNone || a.in != Topology::kNone) return in_simgrid(a.out) || in_simgrid(a.in);
  for (std::size_t l = 0; l < topology.links().size(); ++l)
    if (topology.links()[l].network == net && is_private[l] == 0) return true;
  return false;
}

bool network_varies(const Topology& topology, std::size_t network) {
  for (const auto& l : topology.links())
    if (l.network == network && l.spec->bandwidth.kind != BandwidthModel::Kind::Constant) return true;
  return false;
}

}  // namespace

namespace {

// One endpoint's links in its network's star zone: what a transfer crosses leaving it (`up`) and
// reaching it (`down`). A route's latency is split between the two ends (L/2 + L/2 = L exactly;
// an access network's is its uplink's going up and its downlink's coming down).
struct Ends {
  std::vector<sg4::LinkInRoute> up, down;
  double up_latency_s = 0.0, down_latency_s = 0.0;
};

// An endpoint's attachment without its private links (PrivateFlows carries their transfers).
Topology::Attachment in_simgrid(const Topology& topology, const SimGridPlatform& sg, std::size_t net,
                                std::size_t device) {
  Topology::Attachment a = topology.attachment(net, device);
  if (a.out != Topology::kNone && sg.links[a.out] == nullptr) a.out = Topology::kNone;
  if (a.in != Topology::kNone && sg.links[a.in] == nullptr) a.in = Topology::kNone;
  return a;
}

Ends ends_of(const Topology& topology, const SimGridPlatform& sg, std::size_t net, std::size_t device) {
  const Network& network = topology.platform().networks[net];
  const Topology::Attachment a = in_simgrid(topology, sg, net, device);
  Ends e;
  if (a.out != Topology::kNone) e.up.emplace_back(sg.links[a.out]);
  if (a.in != Topology::kNone) e.down.emplace_back(sg.links[a.in]);
  if (topology.shape(net) == Topology::Shape::Access) {
    if (a.out != Topology::kNone) e.up_latency_s = network.uplink.latency_s;
    if (a.in != Topology::kNone) e.down_latency_s = network.downlink.latency_s;
  } else {
    e.up_latency_s = e.down_latency_s = network.link.latency_s / 2.0;
  }
  return e;
}

sg4::Link* latency_link(sg4::NetZone* zone, const std::string& name, double latency_s) {
  return zone->create_link(name, kLatencyLinkBytesPerS)
      ->set_latency(latency_s)
      ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
      ->seal();
}

}  // namespace

SimGridPlatform build_simgrid_platform(const Topology& topology, std::uint64_t seed,
                                       const std::vector<char>& private_links) {
  const Platform& platform = topology.platform();
  std::vector<char> is_private = private_links;
  is_private.resize(topology.links().size(), 0);
  SimGridPlatform sg;
  auto* root = sg4::create_full_zone("coinfer");
  sg.dispatcher = root->create_host("coinfer.dispatcher", 1.0)->seal();

  sg.links.resize(topology.links().size());
  sg.endpoints.resize(platform.networks.size());
  for (std::size_t net = 0; net < platform.networks.size(); ++net) {
    const Network& network = platform.networks[net];
    // A star zone: each endpoint says which links leave it and which reach it, and SimGrid joins
    // them per transfer, so no route is stored per pair of endpoints.
    auto* zone = sg4::create_star_zone(network.name);
    zone->set_parent(root);
    const bool varies = network_varies(topology, net);
    auto& ends = sg.endpoints[net];
    for (const auto& name : network.endpoints()) {
      // The topology has checked every endpoint's name; its lookup is O(log n), where the
      // platform's scans its devices (10,000 users' endpoints made that quadratic).
      SimGridPlatform::Endpoint e{*topology.device_index_or_null(name)};
      if (!needs_host(topology, is_private, net, e.device)) continue;
      e.iface = zone->create_host(name + "@" + network.name, 1.0)->seal();
      if (varies) e.twin = zone->create_host(name + "@" + network.name + "~", 1.0)->seal();
      ends.push_back(e);
    }
    std::sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) { return a.device < b.device; });
    for (std::size_t l = 0; l < topology.links().size(); ++l) {
      const auto& link = topology.links()[l];
      if (link.network != net || is_private[l] != 0) continue;
      if (link.spec->bandwidth.kind == BandwidthModel::Kind::Constant) {
        sg.links[l] = zone->create_link(link.name(), link.spec->rate_bps / 8.0)->seal();
        continue;
      }
      // A varying link starts at its series' first rate: SimGrid does not apply a profile's
      // event at date 0, so a link created at its nominal rate would keep it until the series'
      // second segment (a trace starting elsewhere, or a random model's first draw, lost).
      const std::string name = link.name();
      BandwidthSeries series(*link.spec, link_seed(seed, name));
      auto* sl = zone->create_link(name, series.segment(0)->rate_bps / 8.0);
      sl->set_bandwidth_profile(bandwidth_profile(name, std::move(series)));
      sg.links[l] = sl->seal();
    }
    for (const auto& end : ends) {
      const std::size_t d = end.device;
      Ends e = ends_of(topology, sg, net, d);
      // The twins cross the same bandwidth links without latency.
      if (varies) {
        zone->add_route(end.twin->get_netpoint(), nullptr, nullptr, nullptr, e.up, false);
        zone->add_route(nullptr, end.twin->get_netpoint(), nullptr, nullptr, e.down, false);
      }
      // An endpoint's own link (an access network's uplink or downlink, a switch's port) carries
      // its side's latency itself; a shared medium's, or one a latency-free twin also crosses,
      // gets a latency link of its own.
      const auto& name = platform.devices[d].name;
      const Topology::Attachment a = in_simgrid(topology, sg, net, d);
      const bool own_links = topology.shape(net) != Topology::Shape::Medium && !varies;
      if (own_links && a.out != Topology::kNone)
        sg.links[a.out]->set_latency(e.up_latency_s);
      else if (e.up_latency_s > 0.0)
        e.up.emplace_back(latency_link(zone, network.name + "#latency:" + name + "/up", e.up_latency_s));
      if (own_links && a.in != Topology::kNone)
        sg.links[a.in]->set_latency(e.down_latency_s);
      else if (e.down_latency_s > 0.0)
        e.down.emplace_back(
            latency_link(zone, network.name + "#latency:" + name + "/down", e.down_latency_s));
      zone->add_route(end.iface->get_netpoint(), nullptr, nullptr, nullptr, e.up, false);
      zone->add_route(nullptr, end.iface->get_netpoint(), nullptr, nullptr, e.down, false);
    }
    zone->seal();
  }
  root->seal();
  return sg;
}

const SimGridPlatform::Endpoint& SimGridPlatform::endpoint(std::size_t network, std::size_t device) const {
  const auto& ends = endpoints[network];
  const auto it = std::lower_bound(ends.begin(), ends.end(), device,
                                   [](const Endpoint& e, std::size_t d) { return e.device < d; });
  return *it;
}

RouteHosts SimGridPlatform::hosts(const Route& route) const {
  const Endpoint& src = endpoint(route.network, route.src);
  const Endpoint& dst = endpoint(route.network, route.dst);
  return {src.iface, dst.iface, src.twin, dst.twin};
}

}  // namespace coinfer::replay
