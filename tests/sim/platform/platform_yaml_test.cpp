#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "sim/core/error.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using coinfer::test::calibration_text;
using coinfer::test::TempDir;

namespace {

// A platform directory with two calibration files and the given YAML as platform.yaml.
std::string write_platform(const TempDir& dir, const std::string& yaml) {
  dir.write("calibration/phone.json", calibration_text("phone", 0.5, 2.5));
  dir.write("calibration/server.json", calibration_text("server", 50.0, 200.0));
  return dir.write("platform.yaml", yaml);
}

const char* kGood = R"(
name: edge
devices:
  - {name: phone, calibration: calibration/phone.json, role: phone}
  - {name: server, calibration: calibration/server.json, role: server}
networks:
  - name: wlan
    kind: wifi
    members: [phone, server]
    owner: server
    rate_mbps: 18.88
    latency_s: 0.005
    wake_up_s: 0.1
    power_save_timeout_s: 0.2
  - name: lte
    kind: lte
    members: [phone]
    base: server
    uplink: {rate_mbps: 5.85, latency_s: 0.035}
    downlink: {rate_bps: 12.7e6, latency_s: 0.03, bandwidth: {model: uniform, low_mbps: 10, high_mbps: 15, period_s: 1}}
)";

std::string load_error(const std::string& yaml) {
  TempDir dir;
  const auto path = write_platform(dir, yaml);
  try {
    load_platform_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("platform YAML loads devices, calibrations and networks") {
  TempDir dir;
  const auto path = write_platform(dir, kGood);
  const Platform p = load_platform_file(path);
  REQUIRE(p.name == "edge");
  REQUIRE(p.devices.size() == 2);
  CHECK(p.devices[0].role == "phone");
  // Calibration paths resolve against the platform file's folder; power states come from them.
  CHECK(p.devices[1].calibration->power.busy_w == Approx(200.0));
  REQUIRE(p.networks.size() == 2);
  const Network& wlan = p.networks[0];
  CHECK(wlan.kind == NetworkKind::Wifi);
  CHECK(wlan.link.rate_bps == Approx(18.88e6));  // rate_mbps * 1e6
  CHECK(wlan.link.latency_s == Approx(0.005));
  CHECK(wlan.wake_up_s == Approx(0.1));
  CHECK(wlan.owner == "server");
  const Network& lte = p.networks[1];
  CHECK(lte.is_cellular());
  CHECK(lte.base == "server");
  CHECK(lte.uplink.rate_bps == Approx(5.85e6));
  CHECK(lte.downlink.rate_bps == Approx(12.7e6));
  CHECK(lte.downlink.bandwidth.kind == BandwidthModel::Kind::Uniform);
  CHECK(lte.downlink.bandwidth.low_bps == Approx(10e6));
  CHECK(p.network_between("phone", "server") == 0u);  // first network in file order
}

TEST_CASE("platform: an unknown device in a network is an InputError naming the member") {
  const auto msg = load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, ghost], rate_mbps: 10}]
)");
  CHECK_THAT(msg,
             Catch::Contains("platform.yaml: networks[0].members[1]: unknown device 'ghost'; devices: a, b"));
}

TEST_CASE("platform: a negative rate is an InputError") {
  const auto msg = load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wired, members: [a, b], rate_bps: -5}]
)");
  CHECK_THAT(msg, Catch::Contains("networks[0].rate_bps: expected a rate > 0, got -5"));
}

TEST_CASE("platform: a missing calibration file is an InputError") {
  const auto msg = load_error(R"(
devices: [{name: a, calibration: calibration/nexus6.json}]
)");
  CHECK_THAT(msg, Catch::Contains("devices[0].calibration: file 'calibration/nexus6.json' not found"));
}

TEST_CASE("platform: malformed YAML is an InputError naming the file") {
  const auto msg = load_error("devices: [{name: a, calibration: x.json\nnetworks: ]");
  CHECK_THAT(msg, Catch::Contains("platform.yaml"));
  CHECK(msg != "no error");
}

TEST_CASE("platform: further structural errors name their key") {
  CHECK_THAT(load_error("devices: [{name: a, calibration: calibration/phone.json, colour: red}]"),
             Catch::Contains("devices[0].colour: unknown key"));
  CHECK_THAT(load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: a, calibration: calibration/phone.json}])"),
             Catch::Contains("devices[1].name: duplicate device name 'a'"));
  CHECK_THAT(load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: s, calibration: calibration/server.json}]
networks: [{name: l, kind: lte, members: [a], uplink: {rate_mbps: 5}, downlink: {rate_mbps: 5}}])"),
             Catch::Contains("networks[0].base: missing key"));
  CHECK_THAT(load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, b], rate_mbps: 10, wake_up_s: 0.1}])"),
             Catch::Contains("networks[0].power_save_timeout_s: missing key"));
  CHECK_THAT(load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, b], rate_mbps: 10, bandwidth: {model: normal, stddev_mbps: 1, period_s: 1}}])"),
             Catch::Contains("networks[0].bandwidth.floor_bps: missing key"));
  CHECK_THAT(load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: satellite, members: [a, b], rate_mbps: 10}])"),
             Catch::Contains("networks[0].kind"));
}

TEST_CASE("platform: wake_up_per defaults to radio and accepts channel") {
  TempDir dir;
  CHECK(load_platform_file(write_platform(dir, kGood)).networks[0].wake_up_per == WakeUpPer::Radio);
  const auto path = dir.write("channel.yaml", R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, b], rate_mbps: 10, wake_up_s: 0.1, power_save_timeout_s: 0.2,
            wake_up_per: channel}])");
  CHECK(load_platform_file(path).networks[0].wake_up_per == WakeUpPer::Channel);
}

TEST_CASE("platform: a bad wake_up_per is an InputError naming the file and key") {
  const auto msg = load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, b], rate_mbps: 10, wake_up_s: 0.1, power_save_timeout_s: 0.2,
            wake_up_per: link}])");
  CHECK_THAT(msg, Catch::Contains("platform.yaml") &&
                      Catch::Contains("networks[0].wake_up_per: expected one of radio, channel, got 'link'"));
}

TEST_CASE("platform: a bandwidth trace file is read relative to the platform") {
  TempDir dir;
  dir.write("traces/wlan.csv", "time_s,rate_bps\n0,8e6\n# a comment\n2.5, 16e6\n");
  const auto path = write_platform(dir, R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wifi, members: [a, b], rate_mbps: 8, bandwidth: {model: trace, file: traces/wlan.csv}}]
)");
  const Platform p = load_platform_file(path);
  const auto& trace = p.networks[0].link.bandwidth.trace;
  REQUIRE(trace.size() == 2);
  CHECK(trace[1].first == Approx(2.5));
  CHECK(trace[1].second == Approx(16e6));
}

TEST_CASE("bandwidth trace text: bad lines and decreasing times are errors with a line number") {
  CHECK_THROWS_WITH(parse_bandwidth_trace("0 1e6\n1 abc\n", "t.csv"), Catch::Contains("t.csv: line 2"));
  CHECK_THROWS_WITH(parse_bandwidth_trace("0 1e6\n2 1e6\n1 1e6\n", "t.csv"),
                    Catch::Contains("line 3: times must increase strictly"));
  CHECK_THROWS_WITH(parse_bandwidth_trace("0 0\n", "t.csv"), Catch::Contains("line 1: rate must be > 0"));
}

namespace {

// Two wired devices joined by one link with the given keys.
std::string wired(const std::string& link_keys) {
  return load_error(R"(
devices: [{name: a, calibration: calibration/phone.json}, {name: b, calibration: calibration/phone.json}]
networks: [{name: n, kind: wired, members: [a, b], )" +
                    link_keys + "}]\n");
}

}  // namespace

TEST_CASE("platform: rates beyond 1 Tb/s or below 1 bps are out of range") {
  CHECK_THAT(wired("rate_bps: 1e13"),
             Catch::Contains("networks[0].rate_bps: expected a rate in [1, 1e+12] bps"));
  CHECK_THAT(wired("rate_mbps: 1e-7"),
             Catch::Contains("networks[0].rate_mbps: expected a rate in [1e-06, 1e+06] Mbps"));
  CHECK(wired("rate_bps: 1e12") == "no error");  // the bound itself
}

TEST_CASE("platform: a latency over an hour is out of range") {
  CHECK_THAT(wired("rate_mbps: 10, latency_s: 1e5"),
             Catch::Contains("networks[0].latency_s: expected a number in [0, 3600], got 100000"));
}

TEST_CASE("platform: a bandwidth period under a millisecond is out of range") {
  // one draw per period over the simulated time: 1e-300 s would never let the clock advance
  CHECK_THAT(wired("rate_mbps: 10, bandwidth: {model: uniform, low_mbps: 1, high_mbps: 2, period_s: 1e-300}"),
             Catch::Contains("networks[0].bandwidth.period_s: expected a period in [0.001, 1e+09] s"));
  CHECK_THAT(wired("rate_mbps: 10, bandwidth: {model: trace, points: [[0, 1e6]], period_s: 1e-6}"),
             Catch::Contains("networks[0].bandwidth.period_s: expected a period of at least 0.001 s"));
}

TEST_CASE("platform: 1e400 in a platform file names the key path") {
  CHECK_THAT(wired("rate_mbps: 1e400"),
             Catch::Contains("platform.yaml: networks[0].rate_mbps: number out of range (1e400)"));
}

TEST_CASE("bandwidth trace text: a number beyond double is out of range, with its line") {
  CHECK_THROWS_WITH(parse_bandwidth_trace("0 1e6\n1 1e400\n", "t.csv"),
                    Catch::Contains("t.csv: line 2: number out of range"));
  CHECK_THROWS_WITH(parse_bandwidth_trace("0 1e13\n", "t.csv"),
                    Catch::Contains("line 1: rate must be in [1, 1e+12] bps"));
}

TEST_CASE("the example platforms load") {
  for (const char* name : {"wlan4.yaml", "edge_wifi_lte.yaml"}) {
    INFO(name);
    const Platform p = load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/" + name);
    CHECK(!p.devices.empty());
    CHECK(!p.networks.empty());
  }
  const Platform edge = load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/edge_wifi_lte.yaml");
  // A wifi network with a base is an access network: per-member uplink and downlink.
  CHECK(edge.networks[0].is_access());
  CHECK(edge.networks[0].uplink.rate_bps == Approx(18.88e6));
  CHECK(edge.networks[0].downlink.rate_bps == Approx(54.97e6));
  CHECK(radio_power_model(edge.devices[0].calibration, NetworkKind::Lte) != nullptr);  // "lte" or "4g"
  CHECK(radio_power_model(edge.devices[1].calibration, NetworkKind::Lte) == nullptr);  // a wired server
}

namespace {

// kGood with extra keys on its first device (the phone), written to `dir`.
std::string good_with_phone_keys(const TempDir& dir, const std::string& keys) {
  std::string yaml = kGood;
  const std::string phone = "role: phone}";
  yaml.replace(yaml.find(phone), phone.size(), "role: phone, " + keys + "}");
  return write_platform(dir, yaml);
}

}  // namespace

TEST_CASE("platform: a device's time_scale multiplies every op class of its calibration, not its power") {
  TempDir dir;
  const Platform p = load_platform_file(good_with_phone_keys(dir, "time_scale: 4"));
  REQUIRE_FALSE(p.devices[0].calibration->op_scale.empty());
  for (const auto& [op, scale] : p.devices[0].calibration->op_scale)
    CHECK(scale == Approx(4.0));  // 1.0 in the file
  CHECK(p.devices[0].calibration->power.busy_w == Approx(2.5));
  for (const auto& [op, scale] : p.devices[1].calibration->op_scale) CHECK(scale == Approx(1.0));  // its own
}

TEST_CASE("platform: a time_scale of 0 is out of range, naming the device") {
  TempDir dir;
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "time_scale: 0")),
                    Catch::Matchers::Contains("devices[0].time_scale"));
}

TEST_CASE("platform: batch_lanes is set on the device's calibration, 1 unless given") {
  TempDir dir;
  const Platform p = load_platform_file(good_with_phone_keys(dir, "batch_lanes: 8"));
  CHECK(p.devices[0].calibration->batch_lanes == 8);
  CHECK(p.devices[1].calibration->batch_lanes == 1);
}

TEST_CASE("platform: batch_lanes of 0 is out of range, naming the device") {
  TempDir dir;
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "batch_lanes: 0")),
                    Catch::Matchers::Contains("devices[0].batch_lanes"));
}

TEST_CASE("platform: op_time_scale multiplies only the named op classes, after time_scale") {
  TempDir dir;
  const Platform p =
      load_platform_file(good_with_phone_keys(dir, "time_scale: 2, op_time_scale: {fc: 10, conv: 0.5}"));
  const auto& scale = p.devices[0].calibration->op_scale;
  CHECK(scale.at("fc") == Approx(20.0));  // 1.0 in the file, x 2, x 10
  CHECK(scale.at("conv") == Approx(1.0));
  CHECK(scale.at("pool") == Approx(2.0));
}

TEST_CASE("platform: op_time_scale naming no op class is one error listing the classes") {
  TempDir dir;
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "op_time_scale: {dense: 10}")),
                    Catch::Matchers::Contains("devices[0].op_time_scale") && Catch::Matchers::Contains("fc"));
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "op_time_scale: {fc: 0}")),
                    Catch::Matchers::Contains("devices[0].op_time_scale.fc"));
}

namespace {

// A cell of `count` phones (one group) and a server; `members` is the cell's member list.
std::string phone_cell(const TempDir& dir, const std::string& count, const std::string& members,
                       const std::string& more_devices = "") {
  return write_platform(
      dir,
      "devices:\n"
      "  - {name: phone, calibration: calibration/phone.json, role: phone, slots: 2, count: " +
          count + "}\n  - {name: server, calibration: calibration/server.json}\n" + more_devices +
          "networks:\n  - {name: cell, kind: lte, members: " + members +
          ", base: server, uplink: {rate_mbps: 5}, downlink: {rate_mbps: 10}}\n");
}

// The error loading phone_cell(dir, count, members) gives ("" when it loads).
std::string cell_error(const TempDir& dir, const std::string& count, const std::string& members) {
  try {
    load_platform_file(phone_cell(dir, count, members));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("platform: count declares identical devices named 1..N, in the file's order") {
  TempDir dir;
  const Platform p = load_platform_file(phone_cell(dir, "3", "[phone1, phone2, phone3]"));
  REQUIRE(p.devices.size() == 4);
  CHECK(p.devices[0].name == "phone1");
  CHECK(p.devices[2].name == "phone3");
  CHECK(p.devices[3].name == "server");
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(p.devices[i].role == "phone");
    CHECK(p.devices[i].slots == 2);
    CHECK(p.devices[i].calibration->name == p.devices[0].calibration->name);
    CHECK(p.devices[i].calibration.shares_with(p.devices[0].calibration));  // one copy for the group
  }
  REQUIRE(p.groups.size() == 1);
  CHECK(p.groups[0].name == "phone");
  CHECK(p.groups[0].first == 0);
  CHECK(p.groups[0].count == 3);
}

TEST_CASE("platform: a network member naming a group lists every device of it") {
  TempDir dir;
  const Platform p = load_platform_file(phone_cell(dir, "4", "[phone]"));
  CHECK(p.networks[0].members == std::vector<std::string>{"phone1", "phone2", "phone3", "phone4"});
}

TEST_CASE("platform: a group is not a device, and a group with one of its devices lists it twice") {
  TempDir dir;
  CHECK_THAT(cell_error(dir, "2", "[phone, phone2]"),
             Catch::Matchers::Contains("networks[0].members[1]: device 'phone2' is listed twice"));
  CHECK_THAT(cell_error(dir, "2", "[phone3]"),
             Catch::Matchers::Contains("unknown device 'phone3'; devices: phone1..phone2, server"));
}

TEST_CASE("platform: a count of 0 or 1e9 is out of range, naming the device") {
  TempDir dir;
  CHECK_THAT(cell_error(dir, "0", "[phone]"), Catch::Matchers::Contains("devices[0].count"));
  CHECK_THAT(cell_error(dir, "1e9", "[phone]"), Catch::Matchers::Contains("devices[0].count"));
  CHECK_THAT(cell_error(dir, "20000", "[phone]"), Catch::Matchers::Contains("devices[0].count"));
}

TEST_CASE("platform: a name a count makes that is already taken is one error naming the entry") {
  TempDir dir;
  CHECK_THROWS_WITH(load_platform_file(phone_cell(
                        dir, "2", "[phone]", "  - {name: phone2, calibration: calibration/phone.json}\n")),
                    Catch::Matchers::Contains("devices[2].name: duplicate device name 'phone2'"));
  CHECK_THROWS_WITH(
      load_platform_file(
          write_platform(dir,
                         "devices:\n  - {name: phone2, calibration: calibration/phone.json}\n"
                         "  - {name: phone, calibration: calibration/phone.json, count: 3}\n")),
      Catch::Matchers::Contains("devices[1].name: count makes the device 'phone2', a name already taken"));
}

TEST_CASE("platform: an unknown device among many is named with a short list") {
  TempDir dir;
  CHECK_THAT(cell_error(dir, "4000", "[phone, tablet]"),
             Catch::Matchers::Contains("unknown device 'tablet'; devices: phone1..phone4000, server") &&
                 !Catch::Matchers::Contains("phone17"));
}

TEST_CASE("platform: more than 16384 devices in all is one error at the entry that passes the limit") {
  TempDir dir;
  CHECK(cell_error(dir, "16383", "[phone]").empty());  // and the server: 16384
  CHECK_THAT(cell_error(dir, "16384", "[phone]"),
             Catch::Matchers::Contains(
                 "devices[1]: the platform would have 16385 devices, over the limit of 16384"));
}

TEST_CASE("platform: a device's queue discipline and dynamic batching") {
  TempDir dir;
  const Platform p = load_platform_file(
      good_with_phone_keys(dir, "queue: edf, batching: {max_batch: 8, max_wait_ms: 5}, drop_expired: true"));
  CHECK(p.devices[0].queue == QueueDiscipline::Edf);
  CHECK(p.devices[0].drop_expired);
  REQUIRE(p.devices[0].batching);
  CHECK(p.devices[0].batching->max_batch == 8);
  CHECK(p.devices[0].batching->max_wait_s == Approx(0.005));
  CHECK(p.devices[0].batching->time_ratio.empty());  // scenarios fill it from the cost model
  const Platform plain = load_platform_file(good_with_phone_keys(dir, "slots: 1"));
  CHECK(plain.devices[0].queue == QueueDiscipline::Fifo);
  CHECK_FALSE(plain.devices[0].batching);
  CHECK_FALSE(plain.devices[0].drop_expired);
}

TEST_CASE("platform: a batch of 0, a negative wait or an unknown discipline is refused") {
  TempDir dir;
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "batching: {max_batch: 0}")),
                    Catch::Matchers::Contains("devices[0].batching.max_batch"));
  CHECK_THROWS_WITH(
      load_platform_file(good_with_phone_keys(dir, "batching: {max_batch: 2, max_wait_ms: -1}")),
      Catch::Matchers::Contains("devices[0].batching.max_wait_ms"));
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "batching: {max_wait_ms: 1}")),
                    Catch::Matchers::Contains("devices[0].batching.max_batch"));
  CHECK_THROWS_WITH(load_platform_file(good_with_phone_keys(dir, "queue: lifo")),
                    Catch::Matchers::Contains("devices[0].queue") && Catch::Matchers::Contains("lifo"));
}

TEST_CASE("while a platform file memo lives, each file is read once, and read again after") {
  TempDir dir;
  const auto path = write_platform(dir, kGood);
  {
    const PlatformFileMemo memo;
    CHECK(load_platform_file(path).name == "edge");
    std::string changed = kGood;
    changed.replace(changed.find("name: edge"), 10, "name: changed");
    dir.write("platform.yaml", changed);
    CHECK(load_platform_file(path).name == "edge");         // what was read first
    CHECK_THROWS_AS(PlatformFileMemo(), std::logic_error);  // one at a time
  }
  CHECK(load_platform_file(path).name == "changed");
}
