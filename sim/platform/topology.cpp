#include "sim/platform/topology.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/error.hpp"

namespace coinfer {

RouteLinks::RouteLinks(std::initializer_list<std::size_t> links) {
  if (links.size() < 1 || links.size() > links_.size())
    throw Error("Topology: a route crosses one or two links");
  for (const std::size_t l : links) {
    if (l > std::numeric_limits<std::uint32_t>::max()) throw Error("Topology: more than 2^32 links");
    links_[size_++] = static_cast<std::uint32_t>(l);
  }
}

Topology::Topology(const Platform& platform) : platform_(&platform) {
  const auto& devices = platform.devices;
  devices_by_name_.resize(devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) devices_by_name_[d] = static_cast<std::uint32_t>(d);
  std::stable_sort(
      devices_by_name_.begin(), devices_by_name_.end(),
      [&devices](std::uint32_t a, std::uint32_t b) { return devices[a].name < devices[b].name; });
  // Each network adds one link (a medium) or two per member (switch ports, access links).
  std::size_t links = 0;
  for (const auto& n : platform.networks) links += n.is_shared_medium() ? 1 : 2 * n.members.size();
  links_.reserve(links);
  nets_.reserve(platform.networks.size());
  for (std::size_t i = 0; i < platform.networks.size(); ++i) add_network(i);
}

std::string LogicalLink::name() const {
  switch (end) {
    case LinkEnd::Medium:
      return *network_name;
    case LinkEnd::Out:
      return *network_name + "/" + *member + "/out";
    case LinkEnd::In:
      return *network_name + "/" + *member + "/in";
    case LinkEnd::Up:
      return *network_name + "/" + *member + "/up";
    case LinkEnd::Down:
      return *network_name + "/" + *member + "/down";
  }
  return *network_name;
}

std::size_t Topology::add_link(std::size_t network, const std::string* member, LinkEnd end,
                               const LinkSpec* spec) {
  const Network& net = platform_->networks[network];
  if (links_.size() >= PackedAttachment::kNoLink) throw Error("Topology: more than 2^32 - 2 links");
  links_.push_back({spec, &net.name, member, static_cast<std::uint32_t>(network), end});
  return links_.size() - 1;
}

void Topology::add_network(std::size_t index) {
  const Network& net = platform_->networks[index];
  const auto n = platform_->devices.size();
  NetworkLinks& links = nets_.emplace_back();
  links.of.assign(n, {});
  links.reached.assign(n, 0);
  links.radio.assign(n, kNoRadio);
  std::vector<std::size_t> members;
  for (const auto& m : net.members) members.push_back(device_or_throw(m));
  for (auto m : members) links.reached[m] = 1;
  // Radios numbered by device within the network, so that they run in (network, device) order.
  if (net.is_wireless()) {
    for (std::size_t d = 0; d < n; ++d) {
      if (links.reached[d] == 0) continue;
      if (radio_ends_.size() >= kNoRadio) throw Error("Topology: more than 2^32 - 2 radios");
      links.radio[d] = static_cast<std::uint32_t>(radio_ends_.size());
      radio_ends_.push_back({static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(d)});
    }
  }
  if (net.is_shared_medium()) {
    // One shared medium: every pair crosses the same link.
    links.shape = Shape::Medium;
    const auto medium = add_link(index, nullptr, LinkEnd::Medium, &net.link);
    for (auto m : members) links.of[m] = {medium, kNone};
  } else if (net.kind == NetworkKind::Wired) {
    // Full-duplex switch ports: a -> b uses a's out port and b's in port.
    links.shape = Shape::Switch;
    for (std::size_t k = 0; k < members.size(); ++k) {
      const auto out = add_link(index, &net.members[k], LinkEnd::Out, &net.link);
      const auto in = add_link(index, &net.members[k], LinkEnd::In, &net.link);
      links.of[members[k]] = {out, in};
    }
  } else {
    // Access network: per member uplink and downlink to the base; member -> member goes up
    // then down.
    links.shape = Shape::Access;
    links.base = device_or_throw(net.base);
    links.reached[links.base] = 1;
    for (std::size_t k = 0; k < members.size(); ++k) {
      const auto up = add_link(index, &net.members[k], LinkEnd::Up, &net.uplink);
      const auto down = add_link(index, &net.members[k], LinkEnd::Down, &net.downlink);
      links.of[members[k]] = {up, down};
    }
  }
}

Topology::Attachment Topology::attachment(std::size_t network, std::size_t device) const {
  const PackedAttachment a = nets_.at(network).of.at(device);
  return {PackedAttachment::unpack(a.out), PackedAttachment::unpack(a.in)};
}

std::optional<std::size_t> Topology::device_index_or_null(const std::string& name) const {
  const auto& devices = platform_->devices;
  const auto it =
      std::lower_bound(devices_by_name_.begin(), devices_by_name_.end(), name,
                       [&devices](std::uint32_t d, const std::string& n) { return devices[d].name < n; });
  if (it == devices_by_name_.end() || devices[*it].name != name) return std::nullopt;
  return *it;
}

std::size_t Topology::device_or_throw(const std::string& name) const {
  if (const auto d = device_index_or_null(name)) return *d;
  return platform_->device_index(name);  // throws, naming the known devices
}

std::optional<std::size_t> Topology::network_between(std::size_t a, std::size_t b) const {
  for (std::size_t n = 0; n < nets_.size(); ++n)
    if (reaches(n, a) && reaches(n, b)) return n;
  return std::nullopt;
}

bool Topology::reaches(std::size_t network, std::size_t device) const {
  return network < nets_.size() && device < nets_[network].reached.size() &&
         nets_[network].reached[device] != 0;
}

const Route* Topology::route_or_null(std::size_t network, std::size_t src, std::size_t dst) const {
  if (src == dst || !reaches(network, src) || !reaches(network, dst)) return nullptr;
  if (!route_slots_.empty()) {
    if (const std::uint32_t at = route_slots_[route_slot(network, src, dst)]; at != 0)
      return &routes_[at - 1];
  }
  const Network& net = platform_->networks[network];
  const NetworkLinks& links = nets_[network];
  Route route{static_cast<std::uint32_t>(network),
              static_cast<std::uint32_t>(src),
              static_cast<std::uint32_t>(dst),
              links.radio[src],
              links.radio[dst],
              {},
              0.0};
  switch (links.shape) {
    case Shape::Medium:
      route.links = {links.of[src].out};
      route.latency_s = net.link.latency_s;
      break;
    case Shape::Switch:
      route.links = {links.of[src].out, links.of[dst].in};
      route.latency_s = net.link.latency_s;
      break;
    case Shape::Access:
      if (dst == links.base) {
        route.links = {links.of[src].out};
        route.latency_s = net.uplink.latency_s;
      } else if (src == links.base) {
        route.links = {links.of[dst].in};
        route.latency_s = net.downlink.latency_s;
      } else {
        route.links = {links.of[src].out, links.of[dst].in};
        route.latency_s = net.uplink.latency_s + net.downlink.latency_s;
      }
      break;
  }
  if (routes_.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
    throw Error("topology: more than 2^32 - 2 routes asked for");
  if (2 * (routes_.size() + 1) > route_slots_.size()) {  // grow, keeping the table at most half full
    route_slots_.assign(std::max<std::size_t>(16, 2 * route_slots_.size()), 0);
    for (std::size_t i = 0; i < routes_.size(); ++i) {
      const Route& r = routes_[i];
      route_slots_[route_slot(r.network, r.src, r.dst)] = static_cast<std::uint32_t>(i + 1);
    }
  }
  routes_.push_back(route);
  route_slots_[route_slot(network, src, dst)] = static_cast<std::uint32_t>(routes_.size());
  return &routes_.back();
}

std::size_t Topology::route_slot(std::size_t network, std::size_t src, std::size_t dst) const {
  const auto n = static_cast<std::uint64_t>(platform_->devices.size());
  const std::uint64_t key = (network * n + src) * n + dst;
  const std::size_t mask = route_slots_.size() - 1;  // a power of two
  for (std::size_t i = ((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;; i = (i + 1) & mask) {
    const std::uint32_t at = route_slots_[i];
    if (at == 0) return i;
    const Route& r = routes_[at - 1];
    if (r.network == network && r.src == src && r.dst == dst) return i;
  }
}

std::uint32_t Topology::radio_of(std::size_t network, std::size_t device) const {
  return nets_.at(network).radio.at(device);
}

double Topology::nominal_transfer_s(const Route& route, double bytes) const {
  double rate_bps = std::numeric_limits<double>::infinity();
  for (auto l : route.links) rate_bps = std::min(rate_bps, links_[l].spec->rate_bps);
  return route.latency_s + 8.0 * bytes / rate_bps;
}

}  // namespace coinfer
