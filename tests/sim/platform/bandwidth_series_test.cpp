#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/platform/bandwidth_series.hpp"
#include "sim/platform/topology.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;

TEST_CASE("bandwidth series: a constant rate never changes") {
  const LinkSpec spec = test::constant_link(8e6, 0.0);
  BandwidthSeries s(spec, 1);
  CHECK_FALSE(s.varies());
  CHECK(s.rate_at(0.0) == 8e6);
  CHECK(s.rate_at(1e6) == 8e6);
  CHECK(std::isinf(s.next_change_after(0.0)));
}

TEST_CASE("bandwidth series: a trace holds each rate until the next point, then repeats") {
  LinkSpec spec = test::constant_link(1e6, 0.0);
  spec.bandwidth.kind = BandwidthModel::Kind::Trace;
  spec.bandwidth.trace = {{0.5, 2e6}, {1.0, 3e6}};
  BandwidthSeries once(spec, 0);
  CHECK(once.rate_at(0.2) == 1e6);  // before the first point: the nominal rate
  CHECK(once.rate_at(0.5) == 2e6);
  CHECK(once.rate_at(0.99) == 2e6);
  CHECK(once.rate_at(7.0) == 3e6);  // after the last point the rate holds
  CHECK(once.next_change_after(0.6) == Approx(1.0));
  CHECK(std::isinf(once.next_change_after(1.5)));

  spec.bandwidth.period_s = 2.0;  // points at 0, 0.5, 1.0 then 2.0, 2.5, 3.0, ...
  BandwidthSeries repeating(spec, 0);
  CHECK(repeating.rate_at(2.1) == 1e6);
  CHECK(repeating.rate_at(2.6) == 2e6);
  CHECK(repeating.rate_at(5.2) == 3e6);
  CHECK(repeating.next_change_after(5.2) == Approx(6.0));
}

TEST_CASE("bandwidth series: random models are reproducible per seed and stay in range") {
  LinkSpec normal = test::constant_link(10e6, 0.0);
  normal.bandwidth.kind = BandwidthModel::Kind::Normal;
  normal.bandwidth.mean_bps = 10e6;
  normal.bandwidth.stddev_bps = 8e6;
  normal.bandwidth.floor_bps = 1e6;
  normal.bandwidth.period_s = 0.5;
  BandwidthSeries a(normal, link_seed(7, "wlan")), b(normal, link_seed(7, "wlan")),
      c(normal, link_seed(8, "wlan"));
  bool differs = false;
  for (int k = 0; k < 200; ++k) {
    const double t = 0.5 * k + 0.1;
    CHECK(a.rate_at(t) == b.rate_at(t));
    CHECK(a.rate_at(t) >= 1e6);  // truncated at the floor
    differs = differs || a.rate_at(t) != c.rate_at(t);
  }
  CHECK(differs);
  CHECK(a.next_change_after(0.1) == Approx(0.5));

  LinkSpec uniform = normal;
  uniform.bandwidth.kind = BandwidthModel::Kind::Uniform;
  uniform.bandwidth.low_bps = 2e6;
  uniform.bandwidth.high_bps = 3e6;
  BandwidthSeries u(uniform, 3);
  LinkSpec empirical = normal;
  empirical.bandwidth.kind = BandwidthModel::Kind::Empirical;
  empirical.bandwidth.values_bps = {1e6, 4e6};
  BandwidthSeries e(empirical, 3);
  for (int k = 0; k < 100; ++k) {
    const double r = u.rate_at(0.5 * k);
    CHECK((r >= 2e6 && r <= 3e6));
    const double v = e.rate_at(0.5 * k);
    CHECK((v == 1e6 || v == 4e6));
  }
}

namespace {

// Devices a, b, s on a Wi-Fi medium "w" (all three), a wired switch "e" (a, s) and an LTE cell
// "lte" with base s and `lte_members`.
Platform three_networks(std::vector<std::string> lte_members) {
  using test::test_device;
  Platform p = test::make_platform({test_device("a"), test_device("b"), test_device("s")},
                                   {test::shared_network("w", NetworkKind::Wifi, {"a", "b", "s"}, 8e6, 0.01),
                                    test::shared_network("e", NetworkKind::Wired, {"a", "s"}, 80e6, 0.002)});
  Network lte;
  lte.name = "lte";
  lte.kind = NetworkKind::Lte;
  lte.members = std::move(lte_members);
  lte.base = "s";
  lte.uplink = test::constant_link(4e6, 0.03);
  lte.downlink = test::constant_link(16e6, 0.02);
  p.networks.push_back(lte);
  return p;
}

}  // namespace

TEST_CASE("topology: routes and nominal times per network kind") {
  const Platform p = three_networks({"a", "b"});
  const Topology topo(p);
  // wifi: one shared medium; wired: 2 ports per member; lte: up + down per member.
  REQUIRE(topo.links().size() == 1 + 4 + 4);
  const Route* wifi = topo.route_or_null(0, 0, 1);
  REQUIRE(wifi != nullptr);
  CHECK(wifi->links.size() == 1);
  // 1e6 bytes over 8 Mbps after 10 ms: 0.01 + 8e6 / 8e6 = 1.01 s.
  CHECK(topo.nominal_transfer_s(*wifi, 1e6) == Approx(1.01));
  CHECK(topo.route_or_null(1, 0, 1) == nullptr);  // b is not on the wired network
  const Route* wired = topo.route_or_null(1, 0, 2);
  REQUIRE(wired != nullptr);
  CHECK(topo.links()[wired->links[0]].name() == "e/a/out");
  CHECK(topo.links()[wired->links[1]].name() == "e/s/in");
  // a -> b over lte: up (4 Mbps) then down, latencies add: 0.05 + 8e6 / 4e6 = 2.05 s.
  const Route* up_down = topo.route_or_null(2, 0, 1);
  REQUIRE(up_down != nullptr);
  CHECK(topo.nominal_transfer_s(*up_down, 1e6) == Approx(2.05));
  CHECK(topo.has_radio(2, 0));
  CHECK_FALSE(topo.has_radio(2, 2));  // the base is wired
  CHECK_FALSE(topo.has_radio(1, 0));
}

TEST_CASE("topology: radios are numbered by network then device, and routes carry their ends' radios") {
  const Platform p = three_networks({"b", "a"});  // lte's members not in device order
  const Topology topo(p);
  // wifi: a, b, s (0, 1, 2); wired: none; lte: a, b (3, 4), the base none.
  REQUIRE(topo.radio_count() == 5);
  CHECK(topo.radio_of(0, 2) == 2);
  CHECK(topo.radio_of(1, 0) == kNoRadio);
  CHECK(topo.radio_of(2, 0) == 3);
  CHECK(topo.radio_of(2, 1) == 4);
  CHECK(topo.radio_of(2, 2) == kNoRadio);
  for (std::size_t r = 0; r < topo.radio_count(); ++r) {
    const Topology::RadioEnd& end = topo.radio_end(r);
    CHECK(topo.radio_of(end.network, end.device) == r);
  }
  const Route* up = topo.route_or_null(2, 1, 2);
  REQUIRE(up != nullptr);
  CHECK(up->src_radio == 4);
  CHECK(up->dst_radio == kNoRadio);
  const Route* across = topo.route_or_null(0, 2, 0);
  REQUIRE(across != nullptr);
  CHECK(across->src_radio == 2);
  CHECK(across->dst_radio == 0);
}

TEST_CASE("topology: a route asked for again is the one built first, in place as more are built") {
  using test::test_device;
  std::vector<Device> devices;
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) {
    names.push_back("d" + std::to_string(i));
    devices.push_back(test_device(names.back()));
  }
  const Platform p =
      test::make_platform(devices, {test::shared_network("w", NetworkKind::Wifi, names, 8e6, 0.01),
                                    test::shared_network("e", NetworkKind::Wired, names, 80e6, 0.002)});
  const Topology topo(p);
  // 2 x 12 x 11 routes: the route table grows several times while these are built.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, const Route*> first;
  for (std::size_t net = 0; net < 2; ++net)
    for (std::size_t src = 0; src < 12; ++src)
      for (std::size_t dst = 0; dst < 12; ++dst) {
        const Route* r = topo.route_or_null(net, src, dst);
        if (src == dst) {
          CHECK(r == nullptr);
          continue;
        }
        REQUIRE(r != nullptr);
        CHECK(r->network == net);
        CHECK(r->src == src);
        CHECK(r->dst == dst);
        first[{net, src, dst}] = r;
      }
  REQUIRE(first.size() == 264);
  for (auto it = first.rbegin(); it != first.rend(); ++it) {
    const auto& [net, src, dst] = it->first;
    const Route* again = topo.route_or_null(net, src, dst);
    CHECK(again == it->second);
    CHECK(again->src == src);  // still the route it was: its storage did not move
    CHECK(again->dst == dst);
  }
}
