// End to end: jointdnn-table with bandwidth probes (probe_period_s) on a 2-phase 4G uplink.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/cli/cli_runner.hpp"

using Json = nlohmann::json;
using namespace coinfer::testing;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

// VGG-16 for the TX2's energy over 4G whose uplink is 0.5 Mbps for 15 s, then 12 Mbps; 2 fps x 80
// frames. At 0.5 Mbps the table's cell keeps every layer on the TX2 (nothing sent); at 12 Mbps its
// cells offload.
std::filesystem::path two_phase_scenario() {
  return write_text("probe_two_phase.yaml", R"(name: probe-two-phase
model: vgg16
platform:
  name: two_phase
  devices:
    - {name: tx2, calibration: )" + kRoot + R"(/platforms/calibration/jetson_tx2.json, role: mobile}
    - {name: k40, calibration: )" + kRoot + R"(/platforms/calibration/tesla_k40c.json, role: server}
  networks:
    - name: 4g
      kind: 4g
      members: [tx2]
      base: k40
      uplink: {rate_mbps: 5.85, latency_s: 0,
               bandwidth: {model: trace, points: [[0, 500000], [15, 12000000]]}}
      downlink: {rate_mbps: 13.76, latency_s: 0}
source: tx2
host_profile: {basis: estimate}
partitioner:
  name: jointdnn
  cloud: k40
  network: 4g
  objective: energy
  wire: int8
  table: {uplink_mbps: [0.5, 1, 2, 4, 8, 12], downlink_mbps: [5, 15]}
scheduler: {name: jointdnn-table}
workload: {kind: stream, rate_fps: 2, frames: 80, policy: queue}
outputs: {stages: false, frames_csv: true}
seed: 1
compare:
  - {label: table, set: {scheduler: {name: jointdnn-table}}}
  - {label: off, set: {scheduler: {name: jointdnn-table, probe_period_s: 0}}}
  - {label: probe, set: {scheduler: {name: jointdnn-table, probe_period_s: 2}}}
)");
}

const std::filesystem::path& two_phase_out() {
  static const std::filesystem::path out = [] {
    const auto dir = scratch_dir() / "probe_two_phase";
    std::filesystem::remove_all(dir);
    const auto r = run_cli("run " + two_phase_scenario().string() + " --out " + dir.string());
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return dir;
  }();
  return out;
}

// The plan variant of each frame (frames.csv's second column).
std::vector<int> variants(const std::filesystem::path& csv) {
  std::istringstream in(read_text(csv));
  std::string line;
  std::getline(in, line);  // header
  std::vector<int> out;
  while (std::getline(in, line)) out.push_back(std::stoi(line.substr(line.find(',') + 1)));
  return out;
}

double cell_uplink_bps(const Json& results, int variant) {
  return results["plan_variants"][static_cast<std::size_t>(variant)]["metadata"]["uplink_bps"].get<double>();
}

}  // namespace

TEST_CASE("jointdnn-table without probes stays on its low-rate cell after the uplink recovers") {
  const auto& out = two_phase_out();
  const auto r = Json::parse(read_text(out / "table" / "results.json"));
  const auto v = variants(out / "table" / "frames.csv");
  REQUIRE(v.size() == 80);
  for (std::size_t k = 40; k < v.size(); ++k) CHECK(cell_uplink_bps(r, v[k]) == 0.5e6);  // t >= 20 s
  CHECK_FALSE(r.contains("probes"));
}

TEST_CASE("jointdnn-table with probes returns to an offloading cell after the uplink recovers") {
  const auto& out = two_phase_out();
  const auto r = Json::parse(read_text(out / "probe" / "results.json"));
  const auto fixed = Json::parse(read_text(out / "table" / "results.json"));
  const auto v = variants(out / "probe" / "frames.csv");
  REQUIRE(v.size() == 80);
  for (std::size_t k = 60; k < v.size(); ++k) CHECK(cell_uplink_bps(r, v[k]) >= 8e6);  // t >= 30 s
  const double probe_bytes = r["probe_bytes"]["4g/tx2/up"].get<double>();
  CHECK(r["probes"]["4g/tx2/up"].get<double>() > 0);
  CHECK(r["probe_radio_energy_j"]["tx2"].get<double>() > 0);
  CHECK(r["scheduler_metrics"]["table_probes"].get<double>() > 0);
  // The frames themselves upload again: far more than the run without probes sent.
  CHECK(r["bytes"]["4g/tx2/up"].get<double>() - probe_bytes > 10 * fixed["bytes"]["4g/tx2/up"].get<double>());
}

TEST_CASE("jointdnn-table with probe_period_s 0 gives the same bytes as without the key") {
  const auto& out = two_phase_out();
  CHECK(read_text(out / "off" / "frames.csv") == read_text(out / "table" / "frames.csv"));
  auto off = Json::parse(read_text(out / "off" / "results.json"));
  auto table = Json::parse(read_text(out / "table" / "results.json"));
  for (const char* key : {"scenario", "resolved_scenario"}) {  // they name the compare label
    CHECK(off.contains(key));
    off.erase(key);
    table.erase(key);
  }
  CHECK(off == table);
}
