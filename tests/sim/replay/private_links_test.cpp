// Private access links (SimOptions::private_links_in_simgrid, replay/private_flows.hpp): the same
// population replayed with its phones' own links outside SimGrid and inside it gives the same
// times, energies and traffic within rounding.
#include <string>

#include <catch2/catch.hpp>

#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;

namespace {

// Phones p1..pn and server s: an LTE cell whose base is s (5 Mbps up, 35 ms; 12 Mbps down, 30 ms),
// and a WiFi cell (20 Mbps, 5 ms) that p1 and p2 share with s.
Platform phones(int n) {
  Network lte;
  lte.name = "lte";
  lte.kind = NetworkKind::Lte;
  lte.base = "s";
  lte.uplink = test::constant_link(5e6, 0.035);
  lte.downlink = test::constant_link(12e6, 0.03);
  std::vector<Device> devices;
  for (int i = 1; i <= n; ++i) {
    devices.push_back(test::test_device("p" + std::to_string(i)));
    lte.members.push_back("p" + std::to_string(i));
  }
  devices.push_back(test::test_device("s"));
  return test::make_platform(std::move(devices), {lte, test::shared_network("wlan", NetworkKind::Wifi,
                                                                            {"p1", "p2", "s"}, 20e6, 0.005)});
}

// Each user's frames send two uploads of their own sizes at once, overlap the next frame's (10 fps
// against more than 0.1 s of upload), run on the server and come back; p1 also sends to p2 over
// LTE (up and down: those two links stay in SimGrid), and p2 uploads over the WiFi cell too.
std::vector<UserSource> users(int n) {
  std::vector<UserSource> out;
  for (int i = 1; i <= n; ++i) {
    const auto me = "p" + std::to_string(i);
    std::vector<Task> tasks{
        transfer_task("a", me, "s", 40e3 + 7e3 * i, {}), transfer_task("b", me, "s", 25e3 + 3e3 * i, {}),
        compute_task("c", "s", 0.004 * i, {"a", "b"}), transfer_task("d", "s", me, 9e3 * i, {"c"})};
    if (i == 1) tasks.push_back(transfer_task("peer", "p1", "p2", 30e3, {}));
    if (i == 2) tasks.push_back(transfer_task("w", "p2", "s", 50e3, {}, "", "wlan"));
    Workload w = stream_workload(10.0, 12, DropPolicy::Queue);
    w.max_in_flight = 4;
    w.start_s = 0.013 * i;
    out.push_back({me, me, {{"up", "", std::move(tasks)}}, w});
  }
  return out;
}

}  // namespace

TEST_CASE("private links: a population's times, energies and traffic equal SimGrid's within rounding") {
  const Platform p = phones(5);
  SimOptions in_simgrid;
  in_simgrid.private_links_in_simgrid = true;
  const auto ours = simulate_population_in_child(p, users(5));
  const auto sg = simulate_population_in_child(p, users(5), in_simgrid);
  REQUIRE(ours.frames.size() == sg.frames.size());
  std::size_t overlapped = 0;
  for (std::size_t k = 0; k < ours.frames.size(); ++k) {
    INFO("frame " << k);
    CHECK(ours.frames[k].start_s == Approx(sg.frames[k].start_s).epsilon(1e-9));
    CHECK(ours.frames[k].end_s == Approx(sg.frames[k].end_s).epsilon(1e-9));
    overlapped += k + 1 < ours.frames.size() && ours.frames[k + 1].start_s < ours.frames[k].end_s;
  }
  CHECK(overlapped > 20);  // frames in flight together: their uploads shared the links
  for (std::size_t d = 0; d < ours.devices.size(); ++d) {
    INFO(ours.devices[d].device);
    CHECK(ours.devices[d].energy_j == Approx(sg.devices[d].energy_j).epsilon(1e-9));
    CHECK(ours.devices[d].bytes_sent == sg.devices[d].bytes_sent);
  }
  for (std::size_t l = 0; l < ours.links.size(); ++l) {
    INFO(ours.links[l].link);
    CHECK(ours.links[l].busy_s == Approx(sg.links[l].busy_s).epsilon(1e-9));
    CHECK(ours.links[l].messages == sg.links[l].messages);
  }
}
