#pragma once
// Helpers shared by the engine tests: platforms built in code, temporary files.
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/platform/platform.hpp"
#include "tests/scratch_dir.hpp"

namespace coinfer::test {

inline Device test_device(const std::string& name, double idle_w = 1.0, double busy_w = 2.0) {
  Device d;
  d.name = name;
  d.role = "device";
  d.calibration.edit().name = name;
  d.calibration.edit().power = {idle_w, busy_w};
  return d;
}

inline LinkSpec constant_link(double rate_bps, double latency_s) {
  LinkSpec l;
  l.rate_bps = rate_bps;
  l.latency_s = latency_s;
  return l;
}

inline Network shared_network(const std::string& name, NetworkKind kind, std::vector<std::string> members,
                              double rate_bps, double latency_s) {
  Network n;
  n.name = name;
  n.kind = kind;
  n.members = std::move(members);
  n.link = constant_link(rate_bps, latency_s);
  return n;
}

/// An access network `name` to `base`: each member its own uplink and downlink of constant rate.
inline Network access_network(const std::string& name, std::vector<std::string> members,
                              const std::string& base, LinkSpec uplink, LinkSpec downlink) {
  Network n;
  n.name = name;
  n.kind = NetworkKind::Lte;
  n.members = std::move(members);
  n.base = base;
  n.uplink = uplink;
  n.downlink = downlink;
  return n;
}

inline Platform make_platform(std::vector<Device> devices, std::vector<Network> networks) {
  Platform p;
  p.name = "test";
  p.devices = std::move(devices);
  p.networks = std::move(networks);
  return p;
}

/// Phones p1..pn and a server s (the last device) on one shared network `net` of `kind`.
inline Platform phones_and_server(int n, NetworkKind kind, double rate_bps, double latency_s) {
  std::vector<Device> devices;
  std::vector<std::string> members{"s"};
  for (int i = 1; i <= n; ++i) {
    devices.push_back(test_device("p" + std::to_string(i)));
    members.push_back("p" + std::to_string(i));
  }
  devices.push_back(test_device("s"));
  return make_platform(std::move(devices),
                       {shared_network("net", kind, std::move(members), rate_bps, latency_s)});
}

/// Devices a and b on one 8 Mbps (1 MB/s) WiFi cell `w` with 10 ms latency.
inline Platform wifi_cell_pair() {
  return make_platform({test_device("a"), test_device("b")},
                       {shared_network("w", NetworkKind::Wifi, {"a", "b"}, 8e6, 0.01)});
}

/// A fresh directory of the test's own (mkdtemp), removed at the end of its scope.
using TempDir = ScratchDir;

/// A valid calibration file with the given power states (and a wifi radio model).
inline std::string calibration_text(const std::string& name, double idle_w = 1.0, double busy_w = 2.0) {
  return R"({"format": "coinfer-calibration/1", "name": ")" + name +
         R"(", "kind": "phone_cpu", "precision": "fp32", "memory_bytes": 2147483648,
  "op_scale": {"default": 1.0}, "power": {"idle_w": )" +
         std::to_string(idle_w) + R"(, "busy_w": )" + std::to_string(busy_w) + R"(},
  "radio": {"wifi": {"uplink_alpha_mw_per_mbps": 283.17, "uplink_beta_mw": 132.86,
                     "downlink_alpha_mw_per_mbps": 137.01, "downlink_beta_mw": 132.86}},
  "references": []})";
}

}  // namespace coinfer::test
