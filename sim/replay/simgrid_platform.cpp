#include "sim/replay/simgrid_platform.hpp"

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

bool network_varies(const Topology& topology, std::size_t network) {
  for (const auto& l : topology.links())
    if (l.network == network && l.spec->bandwidth.kind != BandwidthModel::Kind::Constant) return true;
  return false;
}

}  // namespace

SimGridPlatform build_simgrid_platform(const Topology& topology, std::uint64_t seed) {
  const Platform& platform = topology.platform();
  SimGridPlatform sg;
  auto* root = sg4::create_full_zone("coinfer");
  sg.dispatcher = root->create_host("coinfer.dispatcher", 1.0)->seal();
  for (const auto& d : platform.devices)
    sg.compute.push_back(
        root->create_host(d.name, kHostSpeedFlops)->set_core_count(static_cast<int>(d.slots))->seal());

  const auto n_dev = platform.devices.size();
  sg.links.resize(topology.links().size());
  sg.routes.resize(topology.routes().size());
  for (std::size_t net = 0; net < platform.networks.size(); ++net) {
    const Network& network = platform.networks[net];
    auto* zone = sg4::create_full_zone(network.name);
    zone->set_parent(root);
    const bool varies = network_varies(topology, net);
    std::vector<sg4::Host*> iface(n_dev, nullptr), twin(n_dev, nullptr);
    for (const auto& name : network.endpoints()) {
      const auto d = platform.device_index(name);
      iface[d] = zone->create_host(name + "@" + network.name, 1.0)->seal();
      if (varies) twin[d] = zone->create_host(name + "@" + network.name + "~", 1.0)->seal();
    }
    for (std::size_t l = 0; l < topology.links().size(); ++l) {
      const auto& link = topology.links()[l];
      if (link.network != net) continue;
      if (link.spec->bandwidth.kind == BandwidthModel::Kind::Constant) {
        sg.links[l] = zone->create_link(link.name, link.spec->rate_bps / 8.0)->seal();
        continue;
      }
      // A varying link starts at its series' first rate: SimGrid does not apply a profile's
      // event at date 0, so a link created at its nominal rate would keep it until the series'
      // second segment (a trace starting elsewhere, or a random model's first draw, lost).
      BandwidthSeries series(*link.spec, link_seed(seed, link.name));
      auto* sl = zone->create_link(link.name, series.segment(0)->rate_bps / 8.0);
      sl->set_bandwidth_profile(bandwidth_profile(link.name, std::move(series)));
      sg.links[l] = sl->seal();
    }
    for (std::size_t r = 0; r < topology.routes().size(); ++r) {
      const Route& route = topology.routes()[r];
      if (route.network != net) continue;
      std::vector<sg4::LinkInRoute> hops;
      for (auto l : route.links) hops.emplace_back(sg.links[l]);
      if (varies) {
        zone->add_route(twin[route.src]->get_netpoint(), twin[route.dst]->get_netpoint(), nullptr, nullptr,
                        hops, false);
        sg.routes[r].twin_src = twin[route.src];
        sg.routes[r].twin_dst = twin[route.dst];
      }
      if (route.latency_s > 0.0) {
        const auto name = network.name + "#latency:" + platform.devices[route.src].name + "->" +
                          platform.devices[route.dst].name;
        auto* lat = zone->create_link(name, kLatencyLinkBytesPerS)
                        ->set_latency(route.latency_s)
                        ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                        ->seal();
        hops.emplace_back(lat);
      }
      zone->add_route(iface[route.src]->get_netpoint(), iface[route.dst]->get_netpoint(), nullptr, nullptr,
                      hops, false);
      sg.routes[r].src = iface[route.src];
      sg.routes[r].dst = iface[route.dst];
    }
    zone->seal();
  }
  root->seal();
  return sg;
}

}  // namespace coinfer::replay
