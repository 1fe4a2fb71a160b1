#pragma once
/// The links and routes a platform's networks imply (platform.hpp explains each kind), as plain
/// data shared by the analytic cost and the SimGrid replay, so both see the same routes.
///
///     Topology topo(platform);
///     const Route& r = topo.route(net, src, dst);        // links + end-to-end latency
///     double t = topo.nominal_transfer_s(r, 1e6);        // L + 8 * 1e6 / min rate
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/platform/platform.hpp"

namespace coinfer {

/// Which link of a network a LogicalLink is: its medium, or a member's switch port or access link.
enum class LinkEnd : std::uint8_t { Medium, Out, In, Up, Down };

/// One bandwidth-limited link (latency lives on routes, see Route::latency_s). 32 bytes, its name
/// made when asked: a population has two per phone.
struct LogicalLink {
  const LinkSpec* spec = nullptr;             ///< rate and bandwidth model (points into the Platform)
  const std::string* network_name = nullptr;  ///< its network's name (points into the Platform)
  const std::string* member = nullptr;        ///< the member it serves (none for a medium)
  std::uint32_t network = 0;
  LinkEnd end = LinkEnd::Medium;

  /// "wlan" (shared medium), "lte/phone/up", "eth/server/in", ...
  std::string name() const;
};

/// The links a route crosses, in order: one (a medium, an uplink, a downlink) or two (a switch's
/// out and in ports, a member's uplink then another's downlink). Kept in place, in 12 bytes: a
/// population has two routes per phone, and a vector each cost an allocation.
class RouteLinks {
 public:
  RouteLinks() = default;
  /// One or two links, each below 2^32; Error otherwise.
  RouteLinks(std::initializer_list<std::size_t> links);
  const std::uint32_t* begin() const { return links_.data(); }
  const std::uint32_t* end() const { return links_.data() + size_; }
  std::size_t size() const { return size_; }
  std::size_t operator[](std::size_t i) const { return links_[i]; }
  std::size_t front() const { return links_[0]; }
  operator std::span<const std::uint32_t>() const { return {links_.data(), size_}; }

 private:
  std::array<std::uint32_t, 2> links_{};
  std::uint32_t size_ = 0;
};

/// Route::src_radio and dst_radio of an end without a radio on the network (Topology::radio_of).
inline constexpr std::uint32_t kNoRadio = static_cast<std::uint32_t>(-1);

/// How a transfer from `src` to `dst` over `network` travels (40 bytes: a population keeps two
/// per phone).
struct Route {
  std::uint32_t network = 0;
  std::uint32_t src = 0;  ///< device indices
  std::uint32_t dst = 0;
  /// Each end's radio on the network (Topology::radio_of), kNoRadio for a wired end: a transfer
  /// reaches its radios' state without looking them up.
  std::uint32_t src_radio = kNoRadio;
  std::uint32_t dst_radio = kNoRadio;
  RouteLinks links;        ///< indices into Topology::links()
  double latency_s = 0.0;  ///< end to end
};

class Topology {
 public:
  /// Keeps a pointer to `platform`, which must outlive the topology.
  explicit Topology(const Platform& platform);

  const Platform& platform() const { return *platform_; }
  const std::vector<LogicalLink>& links() const { return links_; }
  /// The route over `network` from `src` to `dst` (device indices), or null when the network
  /// does not reach both. Routes are built when first asked for and kept (the pointer stays
  /// valid as long as the topology): a network of n endpoints has n (n - 1) of them, and a run
  /// uses few.
  const Route* route_or_null(std::size_t network, std::size_t src, std::size_t dst) const;
  /// Whether `device` has a radio on `network` (wireless members; not a cellular base).
  bool has_radio(std::size_t network, std::size_t device) const {
    return radio_of(network, device) != kNoRadio;
  }
  /// The radios, numbered 0 .. radio_count() - 1 by network and then device: `device`'s on
  /// `network`, or kNoRadio when it has none there.
  std::uint32_t radio_of(std::size_t network, std::size_t device) const;
  std::size_t radio_count() const { return radio_ends_.size(); }
  /// The network and the device of radio `radio`.
  struct RadioEnd {
    std::uint32_t network = 0;
    std::uint32_t device = 0;
  };
  const RadioEnd& radio_end(std::size_t radio) const { return radio_ends_[radio]; }
  /// L + 8 S / R with R the smallest nominal rate on the route (an uncontended transfer).
  double nominal_transfer_s(const Route& route, double bytes) const;

  /// How a network joins its endpoints, and the links of each (what a route crosses).
  enum class Shape { Medium, Switch, Access };
  struct Attachment {
    std::size_t out = kNone;  ///< Medium: the medium; Switch: its out port; Access: its uplink
    std::size_t in = kNone;   ///< Medium: kNone; Switch: its in port; Access: its downlink
  };
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  Shape shape(std::size_t network) const { return nets_[network].shape; }
  /// The links `device` sends and receives through on `network`; both kNone for a device the
  /// network does not reach, and for an access network's base (its members' links carry it).
  Attachment attachment(std::size_t network, std::size_t device) const;
  /// Whether `network` reaches `device` (a member, or an access network's base).
  bool reaches(std::size_t network, std::size_t device) const;
  /// The platform's device of that name (the first, as Platform::device_index_or_null), in
  /// O(log n) where the platform scans its devices: compiling 10,000 users' plans looks up every
  /// task's device.
  std::optional<std::size_t> device_index_or_null(const std::string& name) const;
  /// The first network (in file order) reaching both devices, as Platform::network_between.
  std::optional<std::size_t> network_between(std::size_t a, std::size_t b) const;

 private:
  /// An Attachment in 8 bytes (a network keeps one per device of the platform): links are
  /// numbered below 2^32 (RouteLinks).
  struct PackedAttachment {
    static constexpr std::uint32_t kNoLink = static_cast<std::uint32_t>(-1);
    std::uint32_t out = kNoLink;
    std::uint32_t in = kNoLink;
    PackedAttachment() = default;
    PackedAttachment(std::size_t out_link, std::size_t in_link) : out(pack(out_link)), in(pack(in_link)) {}
    static std::uint32_t pack(std::size_t link) {
      return link == kNone ? kNoLink : static_cast<std::uint32_t>(link);
    }
    static std::size_t unpack(std::uint32_t link) { return link == kNoLink ? kNone : link; }
  };
  struct NetworkLinks {
    Shape shape = Shape::Medium;
    std::size_t base = kNone;          ///< Access: the base device
    std::vector<PackedAttachment> of;  ///< per device
    std::vector<char> reached;         ///< per device: a member or the base
    std::vector<std::uint32_t> radio;  ///< per device: radio_of
  };
  void add_network(std::size_t index);
  std::size_t device_or_throw(const std::string& name) const;
  std::size_t add_link(std::size_t network, const std::string* member, LinkEnd end, const LinkSpec* spec);

  const Platform* platform_;
  /// Device indices sorted by name, equal names in platform order (the first one wins a lookup):
  /// 4 bytes a device where a hash map took 64.
  std::vector<std::uint32_t> devices_by_name_;
  std::vector<LogicalLink> links_;
  std::vector<NetworkLinks> nets_;
  std::vector<RadioEnd> radio_ends_;  ///< per radio
  /// Routes built so far (a deque's elements stay in place), and where each is: an open-addressing
  /// table of 1 + its index in routes_ (0: empty), at most half full, hashed by (network, src, dst).
  /// About 50 bytes a route, where an unordered_map of Routes took 72 and more: a phone in a
  /// population has two.
  mutable std::deque<Route> routes_;
  mutable std::vector<std::uint32_t> route_slots_;
  /// The slot where route (network, src, dst) is, or the empty one where it would go.
  std::size_t route_slot(std::size_t network, std::size_t src, std::size_t dst) const;
};

}  // namespace coinfer
