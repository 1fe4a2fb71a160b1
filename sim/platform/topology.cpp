#include "sim/platform/topology.hpp"

#include <algorithm>
#include <limits>

namespace coinfer {
namespace {

constexpr std::size_t kNoRoute = std::numeric_limits<std::size_t>::max();

}  // namespace

Topology::Topology(const Platform& platform) : platform_(&platform) {
  const auto n = platform.devices.size();
  route_index_.assign(platform.networks.size() * n * n, kNoRoute);
  for (std::size_t i = 0; i < platform.networks.size(); ++i) add_network(i);
}

std::size_t Topology::add_link(std::string name, std::size_t network, const LinkSpec* spec) {
  links_.push_back({std::move(name), network, spec});
  return links_.size() - 1;
}

void Topology::add_route(std::size_t network, std::size_t src, std::size_t dst,
                         std::vector<std::size_t> links, double latency_s) {
  const auto n = platform_->devices.size();
  route_index_[(network * n + src) * n + dst] = routes_.size();
  routes_.push_back({network, src, dst, std::move(links), latency_s});
}

void Topology::add_network(std::size_t index) {
  const Network& net = platform_->networks[index];
  std::vector<std::size_t> members;
  for (const auto& m : net.members) members.push_back(platform_->device_index(m));

  if (!net.is_access() && (net.kind == NetworkKind::Wifi || net.kind == NetworkKind::WifiDirect)) {
    // One shared medium: every pair crosses the same link.
    const auto medium = add_link(net.name, index, &net.link);
    for (auto a : members)
      for (auto b : members)
        if (a != b) add_route(index, a, b, {medium}, net.link.latency_s);
  } else if (net.kind == NetworkKind::Wired) {
    // Full-duplex switch ports: a -> b uses a's out port and b's in port.
    std::vector<std::size_t> out, in;
    for (std::size_t k = 0; k < members.size(); ++k) {
      out.push_back(add_link(net.name + "/" + net.members[k] + "/out", index, &net.link));
      in.push_back(add_link(net.name + "/" + net.members[k] + "/in", index, &net.link));
    }
    for (std::size_t a = 0; a < members.size(); ++a)
      for (std::size_t b = 0; b < members.size(); ++b)
        if (a != b) add_route(index, members[a], members[b], {out[a], in[b]}, net.link.latency_s);
  } else {
    // Access network: per member uplink and downlink to the base; member -> member goes up
    // then down.
    const auto base = platform_->device_index(net.base);
    std::vector<std::size_t> up, down;
    for (std::size_t k = 0; k < members.size(); ++k) {
      up.push_back(add_link(net.name + "/" + net.members[k] + "/up", index, &net.uplink));
      down.push_back(add_link(net.name + "/" + net.members[k] + "/down", index, &net.downlink));
      add_route(index, members[k], base, {up[k]}, net.uplink.latency_s);
      add_route(index, base, members[k], {down[k]}, net.downlink.latency_s);
    }
    for (std::size_t a = 0; a < members.size(); ++a)
      for (std::size_t b = 0; b < members.size(); ++b)
        if (a != b)
          add_route(index, members[a], members[b], {up[a], down[b]},
                    net.uplink.latency_s + net.downlink.latency_s);
  }
}

const Route* Topology::route_or_null(std::size_t network, std::size_t src, std::size_t dst) const {
  const auto n = platform_->devices.size();
  if (network >= platform_->networks.size() || src >= n || dst >= n) return nullptr;
  const auto i = route_index_[(network * n + src) * n + dst];
  return i == kNoRoute ? nullptr : &routes_[i];
}

bool Topology::has_radio(std::size_t network, std::size_t device) const {
  const Network& net = platform_->networks[network];
  if (!net.is_wireless()) return false;
  const auto& name = platform_->devices[device].name;
  return std::find(net.members.begin(), net.members.end(), name) != net.members.end();
}

double Topology::nominal_transfer_s(const Route& route, double bytes) const {
  double rate_bps = std::numeric_limits<double>::infinity();
  for (auto l : route.links) rate_bps = std::min(rate_bps, links_[l].spec->rate_bps);
  return route.latency_s + 8.0 * bytes / rate_bps;
}

}  // namespace coinfer
