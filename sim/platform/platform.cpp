#include "sim/platform/platform.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/error.hpp"

namespace coinfer {

bool Network::is_cellular() const {
  return kind == NetworkKind::Lte || kind == NetworkKind::Cellular3g || kind == NetworkKind::Cellular4g;
}

bool Network::is_wireless() const { return kind != NetworkKind::Wired; }

std::vector<std::string> Network::endpoints() const {
  auto out = members;
  if (!base.empty()) out.push_back(base);
  return out;
}

bool Network::has_endpoint(const std::string& device) const {
  return device == base || std::find(members.begin(), members.end(), device) != members.end();
}

std::size_t Platform::device_index(const std::string& name) const {
  if (auto i = device_index_or_null(name)) return *i;
  throw InputError(file, "", fmt::format("unknown device '{}'; devices: {}", name, describe_devices()));
}

std::string Platform::describe_devices() const {
  constexpr std::size_t kMaxShown = 12;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < devices.size();) {
    const auto g =
        std::find_if(groups.begin(), groups.end(), [&](const DeviceGroup& x) { return x.first == i; });
    if (g != groups.end() && g->count > 1) {
      names.push_back(fmt::format("{}..{}", devices[i].name, devices[i + g->count - 1].name));
      i += g->count;
    } else {
      names.push_back(devices[i++].name);
    }
  }
  if (names.size() <= kMaxShown) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, ... ({} in all)", fmt::join(names.begin(), names.begin() + kMaxShown, ", "),
                     devices.size());
}

std::optional<std::size_t> Platform::device_index_or_null(const std::string& name) const {
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].name == name) return i;
  return std::nullopt;
}

std::optional<std::size_t> Platform::network_index_or_null(const std::string& name) const {
  for (std::size_t i = 0; i < networks.size(); ++i)
    if (networks[i].name == name) return i;
  return std::nullopt;
}

std::optional<std::size_t> Platform::network_between(const std::string& a, const std::string& b) const {
  for (std::size_t i = 0; i < networks.size(); ++i) {
    const auto& n = networks[i];
    // Every pair of endpoints is connected (cellular members reach each other up then down).
    if (n.has_endpoint(a) && n.has_endpoint(b)) return i;
  }
  return std::nullopt;
}

std::string network_kind_name(NetworkKind kind) {
  switch (kind) {
    case NetworkKind::Wifi:
      return "wifi";
    case NetworkKind::WifiDirect:
      return "wifi_direct";
    case NetworkKind::Lte:
      return "lte";
    case NetworkKind::Cellular3g:
      return "3g";
    case NetworkKind::Cellular4g:
      return "4g";
    case NetworkKind::Wired:
      return "wired";
  }
  return "?";
}

std::string radio_power_key(NetworkKind kind) {
  return kind == NetworkKind::Wired ? "" : network_kind_name(kind);  // a wired link has no radio
}

const RadioPowerModel* radio_power_model(const DeviceCalibration& calibration, NetworkKind kind) {
  // wifi_direct falls back to wifi, lte to 4g (JointDNN Table 3 gives a 4G column).
  std::string fallback;
  if (kind == NetworkKind::WifiDirect) fallback = "wifi";
  if (kind == NetworkKind::Lte) fallback = "4g";
  for (const auto& key : {radio_power_key(kind), fallback}) {
    if (key.empty()) continue;
    if (auto it = calibration.radio.find(key); it != calibration.radio.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace coinfer
