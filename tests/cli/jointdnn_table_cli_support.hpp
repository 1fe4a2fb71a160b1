#pragma once
// Shared by the jointdnn-table end-to-end tests: a VGG-16 / TX2 + K40c scenario over 4G whose uplink
// follows a hand-built trace, its run, and what its frames chose.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace coinfer::testing {

// VGG-16 for the TX2's energy, 8-bit wire, over 4G whose uplink follows `uplink_points` ("[[t, bps],
// ...]"); a 2 fps stream of `frames`; an uplink grid of 0.5 .. 12 Mbps (at 0.5 Mbps the cell keeps
// every layer on the TX2, nothing sent; at 8 and 12 Mbps its cells offload); `compare` rows as YAML.
inline std::filesystem::path table_scenario(const std::string& name, const std::string& uplink_points,
                                            int frames, const std::string& compare) {
  const std::string root = COINFER_SOURCE_DIR;
  return write_text(name + ".yaml", "name: " + name + R"(
model: vgg16
platform:
  name: two_phase
  devices:
    - {name: tx2, calibration: )" + root +
                                        R"(/platforms/calibration/jetson_tx2.json, role: mobile}
    - {name: k40, calibration: )" + root +
                                        R"(/platforms/calibration/tesla_k40c.json, role: server}
  networks:
    - name: 4g
      kind: 4g
      members: [tx2]
      base: k40
      uplink: {rate_mbps: 5.85, latency_s: 0,
               bandwidth: {model: trace, points: )" +
                                        uplink_points + R"(}}
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
workload: {kind: stream, rate_fps: 2, frames: )" +
                                        std::to_string(frames) + R"(, policy: queue}
outputs: {stages: false, frames_csv: true}
seed: 1
compare:
)" + compare);
}

// Runs the scenario into a fresh folder named after it in `base` (the test's scratch folder by
// default); exit 0 required.
inline std::filesystem::path run_table_scenario(const std::filesystem::path& scenario,
                                                const std::filesystem::path& base = scratch_dir()) {
  const auto dir = base / scenario.stem();
  std::filesystem::remove_all(dir);
  const auto r = run_cli("run " + scenario.string() + " --out " + dir.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return dir;
}

// The plan variant of each frame (frames.csv's second column).
inline std::vector<int> frame_variants(const std::filesystem::path& csv) {
  std::istringstream in(read_text(csv));
  std::string line;
  std::getline(in, line);  // header
  std::vector<int> out;
  while (std::getline(in, line)) out.push_back(std::stoi(line.substr(line.find(',') + 1)));
  return out;
}

inline double cell_uplink_bps(const nlohmann::json& results, int variant) {
  return results["plan_variants"][static_cast<std::size_t>(variant)]["metadata"]["uplink_bps"].get<double>();
}

// results.json of two compare rows, less the keys that name the row: equal when the runs are.
inline bool same_results(const std::filesystem::path& a, const std::filesystem::path& b) {
  auto ja = nlohmann::json::parse(read_text(a / "results.json"));
  auto jb = nlohmann::json::parse(read_text(b / "results.json"));
  for (const char* key : {"scenario", "resolved_scenario"}) {
    if (!ja.contains(key) || !jb.contains(key)) return false;
    ja.erase(key);
    jb.erase(key);
  }
  return ja == jb && read_text(a / "frames.csv") == read_text(b / "frames.csv");
}

}  // namespace coinfer::testing
