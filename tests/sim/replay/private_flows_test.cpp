// PrivateFlows (replay/private_flows.hpp): a device's own access link, shared equally by its
// transfers past their latency, against closed forms; and which links are private.
#include <vector>

#include <catch2/catch.hpp>

#include "sim/replay/private_flows.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using coinfer::replay::PrivateFlows;

namespace {

// Phones p1, p2 on an LTE cell to base s: 8 Mbps (1 MB/s) up with 50 ms, 16 Mbps down with 40 ms.
Platform lte_cell() {
  return test::make_platform({test::test_device("p1"), test::test_device("p2"), test::test_device("s")},
                             {test::access_network("lte", {"p1", "p2"}, "s", test::constant_link(8e6, 0.05),
                                                   test::constant_link(16e6, 0.04))});
}

// Advances to each next event until none is left; returns each flow's end date.
std::vector<double> run_to_end(PrivateFlows& flows, std::size_t n) {
  std::vector<double> end(n, -1.0);
  std::vector<std::size_t> ended;
  for (double t = flows.next_s(); t < 1e300; t = flows.next_s()) {
    flows.advance(t, ended);
    for (auto f : ended) end[f] = t;
    ended.clear();
  }
  return end;
}

// p1's uplink on lte_cell() and the flows on it.
struct Uplink {
  Platform p = lte_cell();
  Topology topo{p};
  PrivateFlows flows{topo, replay::private_links(topo, {})};
  const Route& up = *topo.route_or_null(0, 0, 2);
};

}  // namespace

TEST_CASE("private flows: a lone transfer takes L + S / R") {
  const Platform p = lte_cell();
  const Topology topo(p);
  PrivateFlows flows(topo, replay::private_links(topo, {}));
  const Route& up = *topo.route_or_null(0, 0, 2);
  flows.start(0, up, 1e6, 2.0);
  CHECK(run_to_end(flows, 1)[0] == Approx(2.0 + 0.05 + 1.0).epsilon(1e-12));
}

TEST_CASE("private flows: transfers started together share the link and end together") {
  const Platform p = lte_cell();
  const Topology topo(p);
  PrivateFlows flows(topo, replay::private_links(topo, {}));
  const Route& up = *topo.route_or_null(0, 0, 2);
  for (std::size_t f = 0; f < 3; ++f) flows.start(f, up, 1e6, 0.0);
  std::vector<std::size_t> ended;
  flows.advance(0.05, ended);  // their latency ends: they share from here
  CHECK(ended.empty());
  const double t = 0.05 + 3.0;
  CHECK(flows.next_s() == Approx(t).epsilon(1e-12));
  flows.advance(flows.next_s(), ended);
  CHECK(ended == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("private flows: a transfer joining later shares from the end of its latency") {
  // A (1 MB) starts at 0 and has the link alone from 0.05; B (1 MB) starts at 0.3 and shares from
  // 0.35, when A has 0.7 MB left: A ends at 0.35 + 1.4 = 1.75, B alone from there ends at 2.05.
  const Platform p = lte_cell();
  const Topology topo(p);
  PrivateFlows flows(topo, replay::private_links(topo, {}));
  const Route& up = *topo.route_or_null(0, 0, 2);
  flows.start(0, up, 1e6, 0.0);
  std::vector<std::size_t> ended;
  flows.advance(0.3, ended);
  CHECK(flows.remaining(0, 0.3) == Approx(0.75e6).epsilon(1e-12));
  flows.start(1, up, 1e6, 0.3);
  CHECK(flows.remaining(1, 0.32) == 1e6);  // within its latency: nothing moved
  const auto end = run_to_end(flows, 2);
  CHECK(end[0] == Approx(1.75).epsilon(1e-12));
  CHECK(end[1] == Approx(2.05).epsilon(1e-12));
}

TEST_CASE(
    "private flows: a transfer starting within a lone one's latency shares from its own latency's end") {
  // A (1 MB) starts at 0, B (1 MB) at 0.02: A has the link alone from 0.05 to 0.07 (0.02 MB), then
  // each gets 0.5 MB/s: A's 0.98 MB end at 0.07 + 1.96 = 2.03, B's last 0.02 MB alone at 2.05.
  Uplink l;
  auto& flows = l.flows;
  flows.start(0, l.up, 1e6, 0.0);
  flows.start(1, l.up, 1e6, 0.02);
  std::vector<std::size_t> ended;
  flows.advance(0.06, ended);
  CHECK(flows.remaining(0, 0.06) == Approx(0.99e6).epsilon(1e-12));
  const auto end = run_to_end(flows, 2);
  CHECK(end[0] == Approx(2.03).epsilon(1e-12));
  CHECK(end[1] == Approx(2.05).epsilon(1e-12));
}

TEST_CASE("private flows: a link emptied carries its next transfer alone again") {
  // A ends at 1.05; C, started at 1.5 on the empty link, takes L + S / R as A did.
  Uplink l;
  auto& flows = l.flows;
  flows.start(0, l.up, 1e6, 0.0);
  std::vector<std::size_t> ended;
  flows.advance(flows.next_s(), ended);
  CHECK(ended == std::vector<std::size_t>{0});
  flows.start(0, l.up, 0.5e6, 1.5);  // the slot reused, as the replay reuses its transfer slots
  CHECK(flows.remaining(0, 1.6) == Approx(0.45e6).epsilon(1e-12));
  CHECK(run_to_end(flows, 1)[0] == Approx(1.5 + 0.05 + 0.5).epsilon(1e-12));
}

TEST_CASE("private flows: one device's uplink does not slow another's or its own downlink") {
  const Platform p = lte_cell();
  const Topology topo(p);
  PrivateFlows flows(topo, replay::private_links(topo, {}));
  flows.start(0, *topo.route_or_null(0, 0, 2), 1e6, 0.0);  // p1 up
  flows.start(1, *topo.route_or_null(0, 1, 2), 1e6, 0.0);  // p2 up
  flows.start(2, *topo.route_or_null(0, 2, 0), 2e6, 0.0);  // p1 down: 2 MB at 2 MB/s
  const auto end = run_to_end(flows, 3);
  CHECK(end[0] == Approx(1.05).epsilon(1e-12));
  CHECK(end[1] == Approx(1.05).epsilon(1e-12));
  CHECK(end[2] == Approx(1.04).epsilon(1e-12));
}

TEST_CASE("private flows: a link a plan's two-link route crosses is not private") {
  const Platform p = lte_cell();
  const Topology topo(p);
  const Plan plan{"p2p", "", {transfer_task("x", "p1", "p2", 1e3, {})}};  // p1 up, then p2 down
  const std::vector<CompiledPlan> plans{compile_plan(plan, topo)};
  const auto is_private = replay::private_links(topo, plans);
  const auto& up1 = topo.route_or_null(0, 0, 2)->links[0];
  const auto& down1 = topo.route_or_null(0, 2, 0)->links[0];
  const auto& up2 = topo.route_or_null(0, 1, 2)->links[0];
  const auto& down2 = topo.route_or_null(0, 2, 1)->links[0];
  CHECK(is_private[up1] == 0);
  CHECK(is_private[down2] == 0);
  CHECK(is_private[down1] != 0);
  CHECK(is_private[up2] != 0);
}

TEST_CASE("private flows: shared media, switch ports and varying links are never private") {
  Platform p = test::make_platform({test::test_device("a"), test::test_device("b")},
                                   {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01),
                                    test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 1e9, 0.001)});
  Platform lte = lte_cell();
  lte.networks[0].uplink.bandwidth.kind = BandwidthModel::Kind::Trace;
  for (const Platform* platform : {&p, &lte}) {
    const Topology topo(*platform);
    const auto is_private = replay::private_links(topo, {});
    for (std::size_t l = 0; l < topo.links().size(); ++l) {
      INFO(topo.links()[l].name());
      CHECK((is_private[l] != 0) == (topo.links()[l].name().ends_with("/down")));
    }
  }
}
