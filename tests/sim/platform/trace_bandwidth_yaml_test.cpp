// `bandwidth: {trace: FILE, format, loop, start_s, scale, bin_ms}` in platform files, and links
// following such traces in the SimGrid replay (each replay in its own child process).
#include <catch2/catch.hpp>

#include <string>

#include "sim/core/error.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using coinfer::test::calibration_text;
using coinfer::test::TempDir;
using Points = std::vector<std::pair<double, double>>;

namespace {

// A phone and a server on one LTE network whose uplink and downlink take the given bandwidth
// mappings (YAML flow text); trace fixtures of every format beside it.
std::string write_lte(const TempDir& dir, const std::string& up, const std::string& down) {
  dir.write("calibration/phone.json", calibration_text("phone"));
  dir.write("calibration/server.json", calibration_text("server"));
  dir.write("t/one.mahimahi", "1\n");
  dir.write("t/fcc.txt", "125000\n250000\n");
  dir.write("t/pensieve.txt", "0 9\n1 2\n2 4\n");
  dir.write("t/hsdpa.log",
            "1289406399 2000 59.85 10.78 250000 1000\n1289406400 3000 59.85 10.78 500000 1000\n");
  dir.write("t/be.log",
            "1700000000000 1000 51.05 3.72 1250000 1000\n1700000001000 2000 51.05 3.72 625000 1000\n");
  dir.write("t/lumos.csv", "seq_num,Throughput\n1,3\n2,6\n");
  dir.write("t/plain.csv", "0 1e6\n1 2e6\n");
  return dir.write("platform.yaml", R"(
devices: [{name: phone, calibration: calibration/phone.json}, {name: server, calibration: calibration/server.json}]
networks:
  - {name: lte, kind: lte, members: [phone], base: server,
     uplink: {rate_mbps: 5, latency_s: 0.01, bandwidth: )" +
                                        up + R"(},
     downlink: {rate_mbps: 5, latency_s: 0.01, bandwidth: )" +
                                        down + R"(}}
)");
}

const BandwidthModel& uplink_of(const Platform& p) { return p.networks[0].uplink.bandwidth; }

std::string load_error(const TempDir& dir, const std::string& up) {
  try {
    load_platform_file(write_lte(dir, up, "{model: constant}"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string load_error(const std::string& up) {
  TempDir dir;
  return load_error(dir, up);
}

}  // namespace

TEST_CASE("trace bandwidth: {trace, format} reads a public format on an uplink and a downlink") {
  TempDir dir;
  const Platform p = load_platform_file(
      write_lte(dir, "{trace: t/one.mahimahi, format: mahimahi}", "{trace: t/be.log, format: belgium4g}"));
  // Mahimahi `1`: 12 Mbit/s, looping (the default for public formats) every 1 ms.
  CHECK(uplink_of(p).kind == BandwidthModel::Kind::Trace);
  CHECK(uplink_of(p).trace == Points{{0.0, 12e6}});
  CHECK(uplink_of(p).period_s == 0.001);
  // belgium4g: 1250000 B / 1 s = 10e6 from 0, 625000 B / 1 s = 5e6 from 1 s; period 2 s.
  CHECK(p.networks[0].downlink.bandwidth.trace == Points{{0.0, 10e6}, {1.0, 5e6}});
  CHECK(p.networks[0].downlink.bandwidth.period_s == 2.0);
}

TEST_CASE("trace bandwidth: a shared wifi link takes the same keys") {
  TempDir dir;
  write_lte(dir, "{model: constant}", "{model: constant}");
  const auto path = dir.write("wifi.yaml", R"(
devices: [{name: phone, calibration: calibration/phone.json}, {name: server, calibration: calibration/server.json}]
networks: [{name: w, kind: wifi, members: [phone, server], rate_mbps: 8,
            bandwidth: {trace: t/lumos.csv, format: lumos5g, loop: false}}]
)");
  // Lumos5G Throughput 3, 6 Mbit/s over [0,1), [1,2); loop: false -> no period.
  const Platform p = load_platform_file(path);
  CHECK(p.networks[0].link.bandwidth.trace == Points{{0.0, 3e6}, {1.0, 6e6}});
  CHECK(p.networks[0].link.bandwidth.period_s == 0.0);
}

TEST_CASE("trace bandwidth: start_s and scale apply to the trace, loop keeps its period") {
  TempDir dir;
  const Platform p = load_platform_file(
      write_lte(dir, "{trace: t/fcc.txt, format: fcc, start_s: 7, scale: 2}", "{model: constant}"));
  // fcc: 1e6 over [0,5), 2e6 over [5,10), period 10. From trace time 7: 2e6 until trace 10 =
  // 3 s, then 1e6 until trace 15 -> 8 s, then 2e6; doubled: 4e6, 2e6, 4e6.
  CHECK(uplink_of(p).trace == Points{{0.0, 4e6}, {3.0, 2e6}, {8.0, 4e6}});
  CHECK(uplink_of(p).period_s == 10.0);
}

TEST_CASE("trace bandwidth: the model: trace spelling takes the new keys, coinfer stays without a repeat") {
  TempDir dir;
  const Platform p = load_platform_file(write_lte(
      dir, "{model: trace, file: t/pensieve.txt, format: pensieve}", "{model: trace, file: t/plain.csv}"));
  // pensieve rows (0,9), (1,2), (2,4): 2e6 over (0,1], 4e6 over (1,2], period 2.
  CHECK(uplink_of(p).trace == Points{{0.0, 2e6}, {1.0, 4e6}});
  CHECK(uplink_of(p).period_s == 2.0);
  CHECK(p.networks[0].downlink.bandwidth.period_s == 0.0);
}

TEST_CASE("trace bandwidth: bad keys and values name their key path") {
  CHECK_THAT(load_error("{trace: t/one.mahimahi, format: mahimahi, bogus: 1}"),
             Catch::Contains("networks[0].uplink.bandwidth") && Catch::Contains("bogus"));
  CHECK_THAT(load_error("{trace: t/one.mahimahi, format: mm}"),
             Catch::Contains("networks[0].uplink.bandwidth.format: unknown trace format 'mm'"));
  CHECK_THAT(load_error("{trace: t/fcc.txt, format: fcc, bin_ms: 5}"),
             Catch::Contains("bandwidth.bin_ms: bin_ms applies to format: mahimahi only"));
  CHECK_THAT(load_error("{trace: t/fcc.txt, format: fcc, scale: 0}"),
             Catch::Contains("bandwidth.scale: expected a factor > 0"));
  CHECK_THAT(load_error("{trace: t/one.mahimahi, file: t/one.mahimahi}"), Catch::Contains("not both"));
  CHECK_THAT(load_error("{trace: t/fcc.txt, format: fcc, loop: false, period_s: 20}"),
             Catch::Contains("bandwidth.loop: period_s repeats the trace"));
}

TEST_CASE("trace bandwidth: a bad line in the trace names the trace file and line") {
  TempDir dir;
  dir.write("t/bad.mahimahi", "1\n2\nx\n");
  CHECK_THAT(load_error(dir, "{trace: t/bad.mahimahi, format: mahimahi}"),
             Catch::Contains("t/bad.mahimahi: line 3: expected a millisecond offset"));
}

TEST_CASE("trace bandwidth: a constant Mahimahi uplink moves a transfer in 8 S / 12e6 + latency") {
  TempDir dir;
  // One opportunity per ms for 2 s, not looping: 12 Mbit/s throughout, on a link whose nominal
  // rate is 5 Mbit/s (the replay starts the link at the trace's first rate).
  std::string text;
  for (int ms = 1; ms <= 2000; ++ms) text += std::to_string(ms) + "\n";
  dir.write("t/flat.mahimahi", text);
  const Platform p = load_platform_file(
      write_lte(dir, "{trace: t/flat.mahimahi, format: mahimahi, loop: false}", "{model: constant}"));
  CHECK(uplink_of(p).trace == Points{{0.0, 12e6}});
  // 1.5e6 bytes at 12 Mbit/s: 8 * 1.5e6 / 12e6 = 1.0 s, plus 0.01 s latency = 1.01 s.
  const auto r = simulate_in_child(p, {{"p", "", {transfer_task("x", "phone", "server", 1.5e6, {})}}},
                                   single_workload(), {});
  REQUIRE(r.frames.size() == 1);
  CHECK(r.frames[0].end_s == Approx(1.01).epsilon(1e-9));
}

TEST_CASE("trace bandwidth: a replay over each format's trace is byte-identical when rerun") {
  const std::string formats[][2] = {{"one.mahimahi", "mahimahi"}, {"fcc.txt", "fcc"},
                                    {"pensieve.txt", "pensieve"}, {"hsdpa.log", "hsdpa"},
                                    {"be.log", "belgium4g"},      {"lumos.csv", "lumos5g"},
                                    {"plain.csv", "coinfer"}};
  for (const auto& [file, format] : formats) {
    TempDir dir;
    const auto bw = "{trace: t/" + file + ", format: " + format + ", loop: true}";
    const Platform p = load_platform_file(write_lte(dir, bw, bw));
    const Plan plan{
        "p",
        "",
        {transfer_task("u", "phone", "server", 3e5, {}), transfer_task("d", "server", "phone", 2e5, {"u"})}};
    const Workload w = stream_workload(4.0, 10, DropPolicy::Queue);
    const auto a = simulation_result_to_json(simulate_in_child(p, {plan}, w, {})).dump();
    const auto b = simulation_result_to_json(simulate_in_child(p, {plan}, w, {})).dump();
    CHECK(a == b);
  }
}
