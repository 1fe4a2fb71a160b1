// SimGrid replays, each in its own child process (SimGrid runs one simulation per process).
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/cost/energy.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using test::test_device;

namespace {

SimulationResult run(const Platform& p, const Plan& plan, const Workload& w = single_workload(),
                     SimOptions options = {}) {
  return simulate_in_child(p, {plan}, w, options);
}

// One frame with its trace recorded.
SimulationResult run_traced(const Platform& p, const Plan& plan) {
  SimOptions options;
  options.record_trace = true;
  return run(p, plan, single_workload(), options);
}

// Two devices on one 8 Mbps (1 MB/s) WiFi cell with 10 ms latency.
Platform wifi_pair(double latency_s = 0.01) {
  return test::make_platform({test_device("a"), test_device("b")},
                             {test::shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, latency_s)});
}

}  // namespace

TEST_CASE("replay: one transfer takes L + 8S/R") {
  // 0.01 + 8 * 1e6 / 8e6 = 1.01 s.
  const auto r = run(wifi_pair(), {"p", "", {transfer_task("x", "a", "b", 1e6, {})}});
  REQUIRE(r.frames.size() == 1);
  CHECK(r.frames[0].end_s == Approx(1.01).epsilon(1e-9));
  CHECK(r.messages == 1);
  CHECK(r.links[0].bytes == 1e6);
  CHECK(r.links[0].busy_s == Approx(1.01));

  // Wired ports: out of a, into b; latency is end to end: 0.002 + 8 * 2e6 / 80e6 = 0.202 s.
  const Platform wired =
      test::make_platform({test_device("a"), test_device("b")},
                          {test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 80e6, 0.002)});
  const auto r2 = run(wired, {"p", "", {transfer_task("x", "a", "b", 2e6, {})}});
  CHECK(r2.frames[0].end_s == Approx(0.202).epsilon(1e-9));
}

TEST_CASE("replay: a transfer of under a byte ends after its latency") {
  // SimGrid never completes a 0-byte comm; the replay sends at least one byte: 0.01 + 8 / 8e6 s.
  for (const double bytes : {0.0, 0.3}) {
    const auto r = run(wifi_pair(), {"p", "", {transfer_task("x", "a", "b", bytes, {})}});
    REQUIRE(r.frames.size() == 1);
    CHECK(r.frames[0].end_s == Approx(0.010001).epsilon(1e-9));
    CHECK(r.links[0].bytes == bytes);
  }
}

TEST_CASE("replay: a compute task takes its duration") {
  const auto r =
      run(wifi_pair(), {"p", "", {compute_task("c", "a", 0.25, {}), compute_task("d", "a", 0.5, {"c"})}});
  CHECK(r.frames[0].end_s == Approx(0.75).epsilon(1e-9));
  CHECK(r.devices[0].busy_s == Approx(0.75));
  CHECK(r.executions == 2);
}

TEST_CASE("replay: two transfers sharing a link split its rate") {
  // a -> c and b -> c start together on one 8 Mbps cell: each gets 4 Mbps, both end at
  // 0.01 + 8 * 1e6 / 4e6 = 2.01 s.
  const Platform p =
      test::make_platform({test_device("a"), test_device("b"), test_device("c")},
                          {test::shared_network("w", NetworkKind::Wifi, {"a", "b", "c"}, 8e6, 0.01)});
  const auto r =
      run(p, {"p", "", {transfer_task("x", "a", "c", 1e6, {}), transfer_task("y", "b", "c", 1e6, {})}});
  CHECK(r.frames[0].end_s == Approx(2.01).epsilon(1e-9));
  // Unequal sizes: 0.5 MB and 1 MB. Shared until the small one ends at 0.01 + 8 * 1e6 / 8e6 = 1.01
  // (0.5 MB each moved), then the big one alone: 0.5 MB at 1 MB/s -> 1.51 s.
  const auto r2 = run_traced(
      p, {"p", "", {transfer_task("x", "a", "c", 5e5, {}), transfer_task("y", "b", "c", 1e6, {})}});
  CHECK(r2.frames[0].end_s == Approx(1.51).epsilon(1e-9));
  REQUIRE(r2.trace.size() == 2);
  CHECK(r2.trace[0].name == "x");
  CHECK(r2.trace[0].end_s == Approx(1.01).epsilon(1e-9));
}

TEST_CASE("replay: N stations uploading together to one station of a cell all finish at L + N * 8S / R") {
  // The flow model's answer that docs/guide/flow-vs-packet.md holds against ns-3's packets, at the
  // sizes of its table: N stations each send 1 MB to an access point at once on one 8 Mbps cell.
  for (const int n : {4, 32}) {
    std::vector<Device> devices{test_device("ap")};
    std::vector<std::string> members{"ap"};
    std::vector<Task> tasks;
    for (int i = 0; i < n; ++i) {
      const std::string station = "s" + std::to_string(i);
      devices.push_back(test_device(station));
      members.push_back(station);
      tasks.push_back(transfer_task("x" + std::to_string(i), station, "ap", 1e6, {}));
    }
    const Platform p = test::make_platform(
        std::move(devices), {test::shared_network("w", NetworkKind::Wifi, std::move(members), 8e6, 0.01)});
    const auto r = run_traced(p, {"p", "", std::move(tasks)});
    INFO(n << " stations");
    REQUIRE(r.trace.size() == std::size_t(n));
    for (const auto& t : r.trace) CHECK(t.end_s == Approx(0.01 + n * 8 * 1e6 / 8e6).epsilon(1e-9));
  }
}

TEST_CASE("replay: cellular uplinks of different phones do not share") {
  Network lte;
  lte.name = "lte";
  lte.kind = NetworkKind::Lte;
  lte.members = {"p1", "p2"};
  lte.base = "s";
  lte.uplink = test::constant_link(8e6, 0.05);
  lte.downlink = test::constant_link(16e6, 0.04);
  const Platform p = test::make_platform({test_device("p1"), test_device("p2"), test_device("s")}, {lte});
  // Each uplink alone: 0.05 + 8 * 1e6 / 8e6 = 1.05 s. Then s -> p1 down: 0.04 + 8 * 2e6 / 16e6 = 1.04 s.
  const auto r =
      run(p, {"p",
              "",
              {transfer_task("u1", "p1", "s", 1e6, {}), transfer_task("u2", "p2", "s", 1e6, {}),
               compute_task("c", "s", 0.0, {"u1", "u2"}), transfer_task("d", "s", "p1", 2e6, {"c"})}});
  CHECK(r.frames[0].end_s == Approx(2.09).epsilon(1e-9));
}

TEST_CASE("replay: radio wake-up is paid after the idle timeout and not before") {
  // Cell with wake-up 0.1 s after 0.5 s idle. Each frame: a computes 0.1 s, then sends 1 MB
  // (1.01 s on the wire). Radios start awake at t = 0.
  Platform p = wifi_pair();
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].power_save_timeout_s = 0.5;
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {}), transfer_task("x", "a", "b", 1e6, {"c"})}};
  SimOptions awake;
  awake.radios_start_awake = true;

  // Frames every 1.5 s. Frame 0: send at 0.1 (idle 0.1 s) -> ends 1.11. Frame 1: c in
  // [1.5, 1.6], send at 1.6 after 0.49 s idle (< 0.5): no wake-up, ends 1.6 + 1.01 = 2.61.
  const auto before = run(p, plan, stream_workload(1.0 / 1.5, 2), awake);
  CHECK(before.frames[0].end_s == Approx(1.11).epsilon(1e-9));
  CHECK(before.frames[1].end_s == Approx(2.61).epsilon(1e-9));
  CHECK(before.devices[0].wake_ups == 0);

  // Frames every 1.6 s: frame 1 sends at 1.7 after 0.59 s idle (> 0.5): it waits 0.1 s for
  // the radio, ends 1.8 + 1.01 = 2.81.
  const auto after = run(p, plan, stream_workload(1.0 / 1.6, 2), awake);
  CHECK(after.frames[0].end_s == Approx(1.11).epsilon(1e-9));
  CHECK(after.frames[1].end_s == Approx(2.81).epsilon(1e-9));
  CHECK(after.devices[0].wake_ups == 1);

  // Radios asleep at start (the default): frame 0 pays the wake-up too: 0.1 + 0.1 + 1.01.
  const auto asleep = run(p, plan, stream_workload(1.0 / 1.6, 1));
  CHECK(asleep.frames[0].end_s == Approx(1.21).epsilon(1e-9));
}

namespace {

// a, b, c on one 8 Mbps (1 MB/s) WiFi cell, 10 ms latency; wake-up 0.1 s after 0.5 s idle.
Platform wake_up_trio(WakeUpPer per) {
  Platform p =
      test::make_platform({test_device("a"), test_device("b"), test_device("c")},
                          {test::shared_network("w", NetworkKind::Wifi, {"a", "b", "c"}, 8e6, 0.01)});
  p.networks[0].wake_up_s = 0.1;
  p.networks[0].power_save_timeout_s = 0.5;
  p.networks[0].wake_up_per = per;
  return p;
}

}  // namespace

TEST_CASE("replay: per channel, a second channel on an awake radio pays its own wake-up") {
  // a sends 1 MB to b at once (x) and 1 MB to c (y) after computing 1.2 s. Radios asleep at start.
  const Plan plan{"p",
                  "",
                  {transfer_task("x", "a", "b", 1e6, {}), compute_task("ca", "a", 1.2, {}),
                   transfer_task("y", "a", "c", 1e6, {"ca"})}};
  // Per radio: x wakes a's radio [0, 0.1], travels [0.1, 1.11]; y at 1.2 finds the radio idle
  // 0.09 s (< 0.5): no wake-up, 1.2 + 1.01 = 2.21. One wake-up.
  const auto radio = run(wake_up_trio(WakeUpPer::Radio), plan);
  CHECK(radio.frames[0].end_s == Approx(2.21).epsilon(1e-9));
  CHECK(radio.devices[0].wake_ups == 1);
  // Per channel: x sets up a|b [0, 0.1] as before; y's channel a|c was never used: set up
  // [1.2, 1.3], then 1.3 + 1.01 = 2.31. Two wake-ups, both on a's radio.
  const auto channel = run(wake_up_trio(WakeUpPer::Channel), plan);
  CHECK(channel.frames[0].end_s == Approx(2.31).epsilon(1e-9));
  CHECK(channel.devices[0].wake_ups == 2);
}

TEST_CASE("replay: per channel, a relayed hop reuses its logical channel within the timeout") {
  // x: a -> b on the logical channel a|c (b relays to c), 0.1 s wake-up then [0.1, 1.11];
  // b computes `relay_s`, then y: b -> c on a|c.
  auto plan_with = [](double relay_s, bool tag_y) {
    Task x = transfer_task("x", "a", "b", 1e6, {});
    x.channel = pair_channel("a", "c");
    Task y = transfer_task("y", "b", "c", 1e6, {"cb"});
    if (tag_y) y.channel = pair_channel("c", "a");
    return Plan{"relay", "", {x, compute_task("cb", "b", relay_s, {"x"}), y}};
  };
  const Platform p = wake_up_trio(WakeUpPer::Channel);
  // relay 0.2 s: y at 1.31 finds a|c idle 0.2 s (< 0.5): no wake-up, ends 1.31 + 1.01 = 2.32.
  const auto reused = run(p, plan_with(0.2, true));
  CHECK(reused.frames[0].end_s == Approx(2.32).epsilon(1e-9));
  CHECK(reused.devices[0].wake_ups == 1);
  CHECK(reused.devices[1].wake_ups == 0);
  // Untagged, y travels on its endpoint pair b|c, never used: b sets it up [1.31, 1.41], 2.42.
  const auto own = run(p, plan_with(0.2, false));
  CHECK(own.frames[0].end_s == Approx(2.42).epsilon(1e-9));
  CHECK(own.devices[1].wake_ups == 1);
  // relay 0.6 s: a|c idle 0.6 s (> 0.5) at 1.71: set up again [1.71, 1.81], ends 2.82.
  const auto expired = run(p, plan_with(0.6, true));
  CHECK(expired.frames[0].end_s == Approx(2.82).epsilon(1e-9));
  CHECK(expired.devices[1].wake_ups == 1);
}

TEST_CASE("replay: per channel, a radio sets up its channels one at a time") {
  // a sends 1 MB to b (x) and to c (y) at once over a serialized radio. a sets up a|b [0, 0.1]
  // then a|c [0.1, 0.2]; x travels [0.1, 1.11], y waits for the radio: [1.11, 2.12].
  Platform p = wake_up_trio(WakeUpPer::Channel);
  p.networks[0].serialized_radio = true;
  const auto r = run_traced(
      p, {"p", "", {transfer_task("x", "a", "b", 1e6, {}), transfer_task("y", "a", "c", 1e6, {})}});
  CHECK(r.frames[0].end_s == Approx(2.12).epsilon(1e-9));
  std::vector<std::tuple<std::string, double, double>> wake_ups;
  for (const auto& e : r.trace)
    if (e.category == std::string("wake-up")) wake_ups.emplace_back(e.label, e.start_s, e.end_s);
  REQUIRE(wake_ups.size() == 2);
  CHECK(std::get<0>(wake_ups[0]) == "a|b");
  CHECK(std::get<2>(wake_ups[0]) == Approx(0.1).epsilon(1e-9));
  CHECK(std::get<0>(wake_ups[1]) == "a|c");
  CHECK(std::get<1>(wake_ups[1]) == Approx(0.1).epsilon(1e-9));
  CHECK(std::get<2>(wake_ups[1]) == Approx(0.2).epsilon(1e-9));
}

TEST_CASE("replay: a bandwidth trace changes the transfer time") {
  // 1 MB over 8 Mbps (1 MB/s), 10 ms latency; the trace doubles the rate at t = 0.51.
  // Latency until 0.01, 0.5 MB by 0.51, then 0.5 MB at 2 MB/s: 0.25 s -> 0.76 s (1.01 without).
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {0.51, 16e6}};
  const Plan plan{"p", "", {transfer_task("x", "a", "b", 1e6, {})}};
  CHECK(run(p, plan).frames[0].end_s == Approx(0.76).epsilon(1e-9));

  // The rate doubles at 5 ms, while the transfer still pays its latency: all 1 MB at 2 MB/s
  // after 0.01 -> 0.51 s.
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {0.005, 16e6}};
  CHECK(run(p, plan).frames[0].end_s == Approx(0.51).epsilon(1e-9));

  // The rate halves at 0.51: 0.5 MB by 0.51, then 0.5 MB at 0.5 MB/s -> 1.51 s.
  p.networks[0].link.bandwidth.trace = {{0.0, 8e6}, {0.51, 4e6}};
  CHECK(run(p, plan).frames[0].end_s == Approx(1.51).epsilon(1e-9));
}

TEST_CASE("replay: a varying link starts at its series' first rate, not the nominal rate") {
  // Nominal 8 Mbps, but the trace holds 16 Mbps (2 MB/s) from t = 0: 1 MB after the 10 ms
  // latency -> 0.01 + 0.5 = 0.51 s (1.01 s at the nominal rate).
  Platform p = wifi_pair();
  p.networks[0].link.bandwidth.kind = BandwidthModel::Kind::Trace;
  p.networks[0].link.bandwidth.trace = {{0.0, 16e6}};
  const Plan plan{"p", "", {transfer_task("x", "a", "b", 1e6, {})}};
  CHECK(run(p, plan).frames[0].end_s == Approx(0.51).epsilon(1e-9));
}

TEST_CASE("replay: on an uncontended platform the simulated latency is the analytic critical path") {
  // Every edge of a diamond on its own network, every task on its own device.
  const Platform p =
      test::make_platform({test_device("a"), test_device("b"), test_device("c"), test_device("d")},
                          {test::shared_network("ab", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01),
                           test::shared_network("ac", NetworkKind::Wired, {"a", "c"}, 80e6, 0.002),
                           test::shared_network("bd", NetworkKind::Wifi, {"b", "d"}, 16e6, 0.005),
                           test::shared_network("cd", NetworkKind::Wired, {"c", "d"}, 40e6, 0.001)});
  // Branch b: 0.1 + (0.01 + 8 * 5e5 / 8e6 = 0.51) + 0.3 + (0.005 + 8 * 2e5 / 16e6 = 0.105) = 1.015;
  // branch c: 0.1 + (0.002 + 0.8) + 0.2 + (0.001 + 0.4) = 1.503; then d computes 0.05: 1.553.
  const Plan plan{"diamond",
                  "",
                  {compute_task("c0", "a", 0.1, {}), transfer_task("ab", "a", "b", 5e5, {"c0"}),
                   transfer_task("ac", "a", "c", 8e6, {"c0"}), compute_task("cb", "b", 0.3, {"ab"}),
                   compute_task("cc", "c", 0.2, {"ac"}), transfer_task("bd", "b", "d", 2e5, {"cb"}),
                   transfer_task("cd", "c", "d", 2e6, {"cc"}), compute_task("fin", "d", 0.05, {"bd", "cd"})}};
  const double analytic = analytic_latency_s(plan, p);
  CHECK(analytic == Approx(1.553));
  SimOptions options;
  options.radios_start_awake = true;
  const auto r = run(p, plan, single_workload(), options);
  CHECK(r.frames[0].end_s == Approx(analytic).epsilon(1e-9));
  CHECK(r.analytic_latency_s.at(0) == Approx(analytic));
}

TEST_CASE("replay: a serialized radio sends one transfer at a time") {
  // a sends 1 MB to b and to c in a WiFi-Direct group of 8 Mbps, 10 ms. Serialized: the first
  // ends at 1.01, the second at 2.02. Shared (not serialized): both at 0.01 + 2.0 = 2.01.
  Platform p =
      test::make_platform({test_device("a"), test_device("b"), test_device("c")},
                          {test::shared_network("g", NetworkKind::WifiDirect, {"a", "b", "c"}, 8e6, 0.01)});
  const Plan plan{"p",
                  "",
                  {transfer_task("x", "a", "b", 1e6, {}), transfer_task("y", "a", "c", 1e6, {}),
                   compute_task("cx", "b", 0.0, {"x"})}};
  SimOptions options;
  options.record_trace = true;
  const auto shared = run(p, plan, single_workload(), options);
  CHECK(shared.frames[0].end_s == Approx(2.01).epsilon(1e-9));
  p.networks[0].serialized_radio = true;
  const auto serial = run(p, plan, single_workload(), options);
  CHECK(serial.frames[0].end_s == Approx(2.02).epsilon(1e-9));
  double x_end = 0.0;
  for (const auto& e : serial.trace)
    if (e.name == "x") x_end = e.end_s;
  CHECK(x_end == Approx(1.01).epsilon(1e-9));
}

TEST_CASE("replay: energy of a known busy/idle pattern") {
  // a (idle 1 W, busy 3 W) computes 2 s, sends 1 MB over a wired 8 Mbps link (1 s), b (idle
  // 0.5 W, busy 4 W) computes 1 s: the run ends at 4 s.
  // a: 3 * 2 + 1 * (4 - 2) = 8 J; b: 4 * 1 + 0.5 * 3 = 5.5 J; wired: no radio energy.
  const Platform p =
      test::make_platform({test_device("a", 1.0, 3.0), test_device("b", 0.5, 4.0)},
                          {test::shared_network("e", NetworkKind::Wired, {"a", "b"}, 8e6, 0.0)});
  const auto r = run(p, {"p",
                         "",
                         {compute_task("ca", "a", 2.0, {}), transfer_task("x", "a", "b", 1e6, {"ca"}),
                          compute_task("cb", "b", 1.0, {"x"})}});
  CHECK(r.end_s == Approx(4.0));
  CHECK(r.devices[0].energy_j == Approx(8.0));
  CHECK(r.devices[1].energy_j == Approx(5.5));
  CHECK(r.devices[0].radio_energy_j == 0.0);
  // Active energy leaves out idle: a 3 W x 2 s = 6 J, b 4 W x 1 s = 4 J.
  CHECK(r.devices[0].active_energy_j == Approx(6.0));
  CHECK(r.devices[1].active_energy_j == Approx(4.0));
}

TEST_CASE("replay: radio energy follows JointDNN eq. 21") {
  // 1 MB over WiFi at 8 Mbps without latency: 1 s at 8 Mbps.
  // Sender: (283.17 * 8 + 132.86) mW * 1 s = 2.39822 J; receiver: (137.01 * 8 + 132.86) mW = 1.22894 J.
  Platform p = wifi_pair(0.0);
  const RadioPowerModel wifi{283.17, 132.86, 137.01, 132.86};
  p.devices[0].calibration.edit().radio["wifi"] = wifi;
  p.devices[1].calibration.edit().radio["wifi"] = wifi;
  const auto r = run(p, {"p", "", {transfer_task("x", "a", "b", 1e6, {})}});
  CHECK(r.devices[0].radio_energy_j == Approx(2.39822));
  CHECK(r.devices[1].radio_energy_j == Approx(1.22894));
  CHECK(radio_energy_j(283.17, 132.86, 1e6, 1.0) == Approx(2.39822));
  // Without a model the energy is 0 and a warning says so.
  const auto bare = run(wifi_pair(0.0), {"p", "", {transfer_task("x", "a", "b", 1e6, {})}});
  CHECK(bare.devices[0].radio_energy_j == 0.0);
  CHECK(bare.warnings.size() == 2);
}

TEST_CASE("replay: the same seed gives byte-identical results, another seed different ones") {
  Platform p = wifi_pair();
  auto& bw = p.networks[0].link.bandwidth;
  bw.kind = BandwidthModel::Kind::Normal;
  bw.mean_bps = 8e6;
  bw.stddev_bps = 3e6;
  bw.floor_bps = 1e6;
  bw.period_s = 0.3;
  const Plan plan{"p", "", {compute_task("c", "a", 0.05, {}), transfer_task("x", "a", "b", 2e5, {"c"})}};
  const Workload w = stream_workload(5.0, 20, DropPolicy::Queue);
  SimOptions s1;
  s1.seed = 1;
  SimOptions s2;
  s2.seed = 2;
  const auto a = simulation_result_to_json(run(p, plan, w, s1)).dump();
  const auto b = simulation_result_to_json(run(p, plan, w, s1)).dump();
  const auto c = simulation_result_to_json(run(p, plan, w, s2)).dump();
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("replay: a second simulation in one process is refused") {
  const Platform p = wifi_pair();
  const Plan plan{"p", "", {compute_task("c", "a", 0.1, {})}};
  const auto answer = run_in_child_process([&] {
    simulate(p, plan, single_workload());
    try {
      simulate(p, plan, single_workload());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  });
  CHECK_THAT(answer, Catch::Contains("already ran a simulation in this process"));
}

TEST_CASE("replay: errors in the child come back with their type") {
  const Platform p = wifi_pair();
  CHECK_THROWS_AS(run(p, {"p", "", {compute_task("c", "nowhere", 0.1, {})}}), InputError);
  CHECK_THROWS_WITH(run_in_child_process([]() -> std::string { throw Error("boom"); }), "boom");
}

TEST_CASE("replay: a remote inference over LTE on the example platform") {
  const Platform p = load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/edge_wifi_lte.yaml");
  // Upload a 224x224x3 fp32 image (602112 B) over LTE, 12 ms on the server, 4000 B back.
  // The phone's LTE radio starts idle: wake-up 0.26 s; upload 0.035 + 8 * 602112 / 5.85e6 =
  // 0.858402 s; compute 0.012 s; download from the wired base (no wake-up) 0.035 + 8 * 4000 /
  // 13.76e6 = 0.0373256 s. Total 1.1677276 s.
  const Plan plan{"remote",
                  "",
                  {transfer_task("up", "phone", "server", 602112, {}, "input", "lte"),
                   compute_task("infer", "server", 0.012, {"up"}),
                   transfer_task("down", "server", "phone", 4000, {"infer"}, "output", "lte")}};
  const auto r = simulate_in_child(p, {plan}, single_workload(), {});
  CHECK(r.frames[0].end_s == Approx(1.1677276).epsilon(1e-6));
  CHECK(r.devices[0].wake_ups == 1);
  CHECK(r.devices[0].radio_energy_j > 0.0);  // the phone's 4G power model (JointDNN Table 3)
  CHECK(r.warnings.empty());
}
