// Radios, channels and serialized networks fed by hand, without SimGrid: when a transfer waits
// for a wake-up, what it hands back, and the radios' JointDNN eq. 21 energy.
#include <catch2/catch.hpp>

#include <array>
#include <utility>

#include "sim/replay/dispatcher_common.hpp"
#include "sim/replay/radio_model.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::replay;
using Catch::Matchers::Contains;
using test::test_device;

namespace {

// a and b on one 8 Mbps WiFi cell whose radios wake in 0.1 s after 0.5 s idle.
Platform wifi_pair(WakeUpPer per = WakeUpPer::Radio) {
  Platform p = test::make_platform({test_device("a"), test_device("b")},
                                   {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].power_save_timeout_s = 0.5;
  p.networks[0].wake_up_per = per;
  return p;
}

// The radios of `platform`, idle since `idle_since_s`, frame 0's slices kept.
struct Radios {
  explicit Radios(Platform p, double idle_since_s = -kInf)
      : platform(std::move(p)),
        topology(platform),
        trace(topology, series, idle_since_s, nullptr, true, out),
        radios(topology, {}, idle_since_s, trace, tally, out),
        route(*topology.route_or_null(0, 0, 1)) {
    tally.devices.resize(platform.devices.size());
  }
  Platform platform;
  Topology topology;
  std::vector<BandwidthSeries> series;  // no rates traced
  SimulationResult out;
  Tally tally;
  TraceRecorder trace;
  RadioModel radios;
  const Route& route;  ///< a -> b
};

}  // namespace

TEST_CASE("radio model: a transfer from an asleep radio waits for one wake-up, later ones join it") {
  Radios r(wifi_pair());
  const auto channel = r.radios.channel_index(0, "a->b");
  // Asleep: slot 7 (frame 0) at 1.0 starts a's wake-up, which ends at 1.0 + 0.1; slot 8 at 1.05
  // joins it (no second wake-up).
  const auto first = r.radios.wait_for_wake_up(7, 0, r.route, channel, 1.0);
  CHECK(first.waits);
  CHECK(first.radio == r.topology.radio_of(0, 0));
  CHECK(first.awake_s == Approx(1.1));
  const auto second = r.radios.wait_for_wake_up(8, 3, r.route, channel, 1.05);
  CHECK(second.waits);
  CHECK(second.awake_s == kInf);
  const auto awake = r.radios.on_awake(first.radio, 1.1);
  CHECK(awake.ready == std::vector<std::size_t>{7, 8});
  CHECK(awake.next_awake_s == kInf);
  CHECK(r.tally.devices[0].wake_ups == 1);
  // Its slice: [1.0, 1.1] on a's radio track, for the first waiting transfer's frame.
  REQUIRE(r.out.trace.size() == 1);
  CHECK(r.out.trace_tracks[r.out.trace[0].track] == "radio a@w");
  CHECK(r.out.trace[0].start_s == 1.0);
  CHECK(r.out.trace[0].end_s == 1.1);
}

TEST_CASE("radio model: a radio pays a wake-up only once idle longer than the timeout") {
  Radios r(wifi_pair(), 0.0);  // awake at 0
  const auto channel = r.radios.channel_index(0, "a->b");
  // Idle 0.5 s at 0.5 (not longer than the timeout): goes at once; it runs until 1.5.
  CHECK_FALSE(r.radios.wait_for_wake_up(1, 0, r.route, channel, 0.5).waits);
  r.radios.transfer_started(r.route, channel, 0.5);
  CHECK_FALSE(r.radios.wait_for_wake_up(2, 0, r.route, channel, 1.2).waits);  // in use
  r.radios.transfer_ended(r.route, channel, 1.5);
  // Idle from 1.5: 0.5 s at 2.0 goes; 0.6 s at 2.1 waits until 2.1 + 0.1.
  CHECK_FALSE(r.radios.wait_for_wake_up(3, 0, r.route, channel, 2.0).waits);
  const auto late = r.radios.wait_for_wake_up(4, 0, r.route, channel, 2.1);
  CHECK(late.waits);
  CHECK(late.awake_s == Approx(2.2));
}

TEST_CASE("radio model: per channel, a radio sets up its channels one at a time") {
  Radios r(wifi_pair(WakeUpPer::Channel));
  const auto c1 = r.radios.channel_index(0, "c1");
  const auto c2 = r.radios.channel_index(0, "c2");
  // At 0 a sets up c1 (until 0.1); c2 queues behind it; slot 3 on c1 waits for c1's set-up.
  CHECK(r.radios.wait_for_wake_up(1, 0, r.route, c1, 0.0).awake_s == Approx(0.1));
  CHECK(r.radios.wait_for_wake_up(2, 0, r.route, c2, 0.0).awake_s == kInf);
  CHECK(r.radios.wait_for_wake_up(3, 0, r.route, c1, 0.05).waits);
  // c1 up at 0.1: slots 1 and 3 go, c2's set-up runs until 0.1 + 0.1.
  const auto first = r.radios.on_awake(r.topology.radio_of(0, 0), 0.1);
  CHECK(first.ready == std::vector<std::size_t>{1, 3});
  CHECK(first.next_awake_s == Approx(0.2));
  const auto second = r.radios.on_awake(r.topology.radio_of(0, 0), 0.2);
  CHECK(second.ready == std::vector<std::size_t>{2});
  CHECK(second.next_awake_s == kInf);
  CHECK(r.tally.devices[0].wake_ups == 2);
  // The set-ups' slices name their channel.
  REQUIRE(r.out.trace.size() == 2);
  CHECK(r.out.trace[0].label == "c1");
  CHECK(r.out.trace[1].label == "c2");
}

TEST_CASE("radio model: a serialized radio's network carries one transfer at a time, in arrival order") {
  Platform p = wifi_pair();
  p.networks[0].serialized_radio = true;
  Radios r(p);
  CHECK(r.radios.try_enter_network(0, 1));
  CHECK_FALSE(r.radios.try_enter_network(0, 2));
  CHECK_FALSE(r.radios.try_enter_network(0, 3));
  CHECK(r.radios.leave_network(0) == std::optional<std::size_t>{2});
  CHECK(r.radios.leave_network(0) == std::optional<std::size_t>{3});
  CHECK(r.radios.leave_network(0) == std::nullopt);
  CHECK(r.radios.try_enter_network(0, 4));
}

TEST_CASE("radio model: a network without a serialized radio never queues") {
  Radios r(wifi_pair());
  CHECK(r.radios.try_enter_network(0, 1));
  CHECK(r.radios.try_enter_network(0, 2));
  CHECK(r.radios.leave_network(0) == std::nullopt);
}

TEST_CASE("radio model: radio energy follows JointDNN eq. 21 at both ends") {
  Platform p = wifi_pair();
  for (auto& d : p.devices) d.calibration.edit().radio["wifi"] = {100.0, 50.0, 10.0, 20.0};
  Radios r(p);
  // 1 MB in 1 s is 8 Mbps. Sender a: (100 * 8 + 50) mW * 1 s = 0.85 J; receiver b:
  // (10 * 8 + 20) mW * 1 s = 0.1 J. Sent again as a probe: the same again, also as probe energy.
  r.radios.add_radio_energy(r.route, 1e6, 1.0, false);
  r.radios.add_radio_energy(r.route, 1e6, 1.0, true);
  CHECK(r.tally.devices[0].radio_energy_j == Approx(1.7));
  CHECK(r.tally.devices[1].radio_energy_j == Approx(0.2));
  CHECK(r.tally.devices[0].probe_radio_energy_j == Approx(0.85));
  CHECK(r.tally.devices[1].probe_radio_energy_j == Approx(0.1));
  CHECK(r.out.warnings.empty());
}

TEST_CASE("radio model: throughputs outside a fit's stated range are warned about once per direction") {
  Platform p = wifi_pair();
  for (auto& d : p.devices) {
    RadioPowerModel m{100.0, 50.0, 10.0, 20.0};
    m.uplink_range_mbps = std::array<double, 2>{0.0, 5.0};
    m.downlink_range_mbps = std::array<double, 2>{0.0, 10.0};
    m.range_source = "test";
    d.calibration.edit().radio["wifi"] = m;
  }
  Radios r(p);
  // 1 MB in 1 s and in 0.5 s are 8 and 16 Mbps: above a's uplink range [0, 5] both times, and
  // above b's downlink range [0, 10] the second time only. 0.5 MB in 1 s (4 Mbps) is inside both.
  r.radios.add_radio_energy(r.route, 1e6, 1.0, false);
  r.radios.add_radio_energy(r.route, 1e6, 0.5, false);
  r.radios.add_radio_energy(r.route, 5e5, 1.0, false);
  CHECK(r.out.warnings.empty());  // said once the replay has ended
  r.radios.warn_out_of_range();
  REQUIRE(r.out.warnings.size() == 2);
  // The energy is still eq. 21's: the warning changes no number. a at 16 Mbps: 100 * 16 + 50 mW.
  CHECK(r.tally.devices[0].radio_energy_j == Approx(0.85 + 1.65 * 0.5 + 0.45));
  CHECK_THAT(r.out.warnings[0], Contains("device 'a' sent on") &&
                                    Contains("at 8 to 16 Mbps in 2 transfers") &&
                                    Contains("outside the [0, 5] Mbps") && Contains("uplink_range_mbps") &&
                                    Contains("eq. 21 gives 1.65 W at 16 Mbps"));
  CHECK_THAT(r.out.warnings[1],
             Contains("device 'b' received on") && Contains("received on 'w' at 16 Mbps in 1 transfer,") &&
                 Contains("outside the [0, 10] Mbps") && Contains("eq. 21 gives 0.18 W at 16 Mbps"));
}

TEST_CASE("radio model: a device without a radio power model counts 0 and is warned about once") {
  Radios r(wifi_pair());
  r.radios.add_radio_energy(r.route, 1e6, 1.0, false);
  r.radios.add_radio_energy(r.route, 1e6, 1.0, false);
  CHECK(r.tally.devices[0].radio_energy_j == 0.0);
  // One warning per device (a and b) on the network, however many transfers.
  CHECK(r.out.warnings.size() == 2);
}

TEST_CASE("radio model: a device without a radio power model on several cells is warned about in one line") {
  std::vector<Network> cells;
  for (int c = 1; c <= 6; ++c)
    cells.push_back(test::shared_network("c" + std::to_string(c), NetworkKind::Wifi,
                                         {"a" + std::to_string(c), "s"}, 8e6, 0.01));
  std::vector<Device> devices{test_device("s")};
  for (int c = 1; c <= 6; ++c) devices.push_back(test_device("a" + std::to_string(c)));
  Radios r(test::make_platform(devices, cells));
  std::vector<std::string> shown;
  for (std::size_t c = 0; c < 6; ++c) {
    r.radios.add_radio_energy(*r.topology.route_or_null(c, c + 1, 0), 1e6, 1.0, false);
    r.radios.add_radio_energy(*r.topology.route_or_null(c, c + 1, 0), 1e6, 1.0, false);
    shown.push_back(r.out.warnings[1]);  // s's: the second warning, after a1's
  }
  // s's line, rewritten in place as it meets each cell; each phone has its own.
  CHECK(r.out.warnings.size() == 1 + 6);
  CHECK(shown[0] == "device 's' has no 'wifi' radio power model: its radio energy on 'c1' is counted as 0");
  CHECK(shown[1] ==
        "device 's' has no 'wifi' radio power model: its radio energy on 'c1' and 'c2' is counted as 0");
  CHECK(shown[3] ==
        "device 's' has no 'wifi' radio power model: its radio energy on 'c1', 'c2', 'c3' and 'c4' is "
        "counted as 0");
  CHECK(shown[5] ==
        "device 's' has no 'wifi' radio power model: its radio energy on 'c1', 'c2', 'c3' and 3 more is "
        "counted as 0");
}
