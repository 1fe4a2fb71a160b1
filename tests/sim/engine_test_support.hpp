#pragma once
// Helpers shared by the engine tests: platforms built in code, temporary files.
#include <unistd.h>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/platform/platform.hpp"

namespace coinfer::test {

inline Device test_device(const std::string& name, double idle_w = 1.0, double busy_w = 2.0) {
  Device d;
  d.name = name;
  d.role = "device";
  d.calibration.name = name;
  d.calibration.power = {idle_w, busy_w};
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

inline Platform make_platform(std::vector<Device> devices, std::vector<Network> networks) {
  Platform p;
  p.name = "test";
  p.devices = std::move(devices);
  p.networks = std::move(networks);
  return p;
}

/// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("coinfer_engine_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

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
