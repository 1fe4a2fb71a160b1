#include "sim/platform/network_keys.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/platform/trace_formats.hpp"

namespace coinfer {
namespace {

using S = NetworkKeyScope;

const char* const kAll = "every network";
const char* const kShared = "wired; wifi, wifi_direct without base";
const char* const kAccess = "lte, 3g, 4g; wifi, wifi_direct with base";
const char* const kWifi = "wifi, wifi_direct";
const char* const kLink = "uplink, downlink";

// `format`: the names of trace_formats.hpp, coinfer (the default) first.
std::string trace_format_meaning() {
  const auto& names = trace_format_names();
  return fmt::format("{} (default: `time_s rate_bps`) | {}", names.front(),
                     fmt::join(names.begin() + 1, names.end(), " | "));
}

}  // namespace

const std::vector<NetworkKindDoc>& network_kinds() {
  static const std::vector<NetworkKindDoc> kinds{
      {"wifi", NetworkKind::Wifi,
       "a WLAN cell: every member reaches every other over one shared medium (max-min fair); with "
       "`base`, an access network (a per-member uplink and downlink to the base)"},
      {"wifi_direct", NetworkKind::WifiDirect,
       "WiFi Direct group: as wifi (radio power falls back to the calibration's wifi entry)"},
      {"wired", NetworkKind::Wired,
       "Ethernet-like: a full-duplex port of `rate` per member, end-to-end `latency_s`; no radio"},
      {"lte", NetworkKind::Lte,
       "cellular access network: each member's own uplink and downlink to `base` (radio power falls back to "
       "4g)"},
      {"3g", NetworkKind::Cellular3g,
       "cellular access network, as lte, with the calibration's 3g radio power"},
      {"4g", NetworkKind::Cellular4g,
       "cellular access network, as lte, with the calibration's 4g radio power"},
  };
  return kinds;
}

const std::vector<NetworkKeyDoc>& network_keys() {
  static const std::vector<NetworkKeyDoc> keys{
      {"name", S::Network, kAll, "network name (letters, digits, '_', '-', '.'), unique in the platform", {}},
      {"kind", S::Network, kAll, "wifi | wifi_direct | wired | lte | 3g | 4g", {}},
      {"members",
       S::Network,
       kAll,
       "device names: at least 2; an access network: at least 1, the radio side",
       {}},
      {"base", S::Access, kAccess, "the wired-side device members reach (e.g. the server); not a member", {}},
      {"uplink", S::Access, kAccess, "member -> base link: rate_bps | rate_mbps, latency_s, bandwidth", {}},
      {"downlink", S::Access, kAccess, "base -> member link: rate_bps | rate_mbps, latency_s, bandwidth", {}},
      {"owner", S::Wifi, kWifi, "access point / group owner, a member (informational)", {}},
      {"rate_bps", S::SharedOrWired, kShared, "nominal rate in bit/s (give rate_bps or rate_mbps)", {}},
      {"rate_mbps", S::SharedOrWired, kShared, "nominal rate in Mbit/s", {}},
      {"latency_s", S::SharedOrWired, kShared, "end-to-end latency in seconds, default 0", {}},
      {"bandwidth", S::SharedOrWired, kShared, "time variation of the rate (see the bandwidth keys)", {}},
      {"wake_up_s",
       S::Network,
       kAll,
       "radio wake-up in seconds paid by a transfer after an idle period, default 0 (wired: must be 0)",
       {}},
      {"power_save_timeout_s",
       S::Network,
       kAll,
       "idle seconds before the radio sleeps; required when wake_up_s > 0 (default: never)",
       {}},
      {"wake_up_per",
       S::Network,
       kAll,
       "radio (default): wake-up when the sender's radio idled; channel: per idle endpoint-pair channel",
       {}},
      {"serialized_radio",
       S::Network,
       kAll,
       "true: one transfer at a time, in ready order (default false)",
       {}},
      {"rate_bps", S::Link, kLink, "nominal rate in bit/s (give rate_bps or rate_mbps)", {}},
      {"rate_mbps", S::Link, kLink, "nominal rate in Mbit/s", {}},
      {"latency_s", S::Link, kLink, "latency in seconds, default 0", {}},
      {"bandwidth", S::Link, kLink, "time variation of the rate (see the bandwidth keys)", {}},
      {"model",
       S::Bandwidth,
       "bandwidth",
       "constant | normal | uniform | empirical | trace",
       {"constant", "normal", "uniform", "empirical", "trace"}},
      {"period_s",
       S::Bandwidth,
       "bandwidth",
       "seconds per random draw (> 0); trace: repeat period (default: none for coinfer, else the format's "
       "own)",
       {"normal", "uniform", "empirical", "trace"}},
      {"mean_bps",
       S::Bandwidth,
       "bandwidth: normal",
       "mean rate (or mean_mbps), default the link's rate",
       {"normal"}},
      {"mean_mbps", S::Bandwidth, "bandwidth: normal", "mean rate in Mbit/s", {"normal"}},
      {"stddev_bps",
       S::Bandwidth,
       "bandwidth: normal",
       "standard deviation (or stddev_mbps), >= 0",
       {"normal"}},
      {"stddev_mbps", S::Bandwidth, "bandwidth: normal", "standard deviation in Mbit/s", {"normal"}},
      {"floor_bps",
       S::Bandwidth,
       "bandwidth: normal",
       "draws below it are raised to it (or floor_mbps), > 0",
       {"normal"}},
      {"floor_mbps", S::Bandwidth, "bandwidth: normal", "floor in Mbit/s", {"normal"}},
      {"low_bps", S::Bandwidth, "bandwidth: uniform", "lowest rate (or low_mbps)", {"uniform"}},
      {"low_mbps", S::Bandwidth, "bandwidth: uniform", "lowest rate in Mbit/s", {"uniform"}},
      {"high_bps", S::Bandwidth, "bandwidth: uniform", "highest rate (or high_mbps), >= low", {"uniform"}},
      {"high_mbps", S::Bandwidth, "bandwidth: uniform", "highest rate in Mbit/s", {"uniform"}},
      {"values_bps",
       S::Bandwidth,
       "bandwidth: empirical",
       "rates drawn uniformly, one per period (or values_mbps)",
       {"empirical"}},
      {"values_mbps", S::Bandwidth, "bandwidth: empirical", "rates in Mbit/s", {"empirical"}},
      {"file",
       S::Bandwidth,
       "bandwidth: trace",
       "trace file in `format` (relative to the platform file); or trace, or points",
       {"trace"}},
      {"trace",
       S::Bandwidth,
       "bandwidth",
       "trace file; `{trace: F, ...}` spells `{model: trace, file: F, ...}`",
       {"trace"}},
      {"format", S::Bandwidth, "bandwidth: trace", trace_format_meaning(), {"trace"}},
      {"loop",
       S::Bandwidth,
       "bandwidth: trace",
       "repeat with the format's natural period; default true, but false for coinfer without period_s",
       {"trace"}},
      {"start_s",
       S::Bandwidth,
       "bandwidth: trace",
       "trace time that is simulation time 0, default 0",
       {"trace"}},
      {"scale", S::Bandwidth, "bandwidth: trace", "factor on every rate, in (0, 1e6], default 1", {"trace"}},
      {"bin_ms",
       S::Bandwidth,
       "bandwidth: trace",
       "mahimahi: width of a rate bin in ms, default 10 (a transfer ends within one bin of per-packet "
       "delivery)",
       {"trace"}},
      {"points",
       S::Bandwidth,
       "bandwidth: trace",
       "[[time_s, rate_bps], ...], times increasing from 0; or file",
       {"trace"}},
  };
  return keys;
}

std::vector<std::string> network_kind_names() {
  std::vector<std::string> out;
  for (const auto& k : network_kinds()) out.push_back(k.name);
  return out;
}

std::vector<std::string> network_keys_for(NetworkKind kind, bool access) {
  const bool wifi = kind == NetworkKind::Wifi || kind == NetworkKind::WifiDirect;
  std::vector<std::string> out;
  for (const auto& k : network_keys()) {
    const bool accepted = k.scope == S::Network || (k.scope == S::Access && access) ||
                          (k.scope == S::SharedOrWired && !access) || (k.scope == S::Wifi && wifi);
    if (accepted) out.push_back(k.key);
  }
  return out;
}

std::vector<std::string> link_keys() {
  std::vector<std::string> out;
  for (const auto& k : network_keys())
    if (k.scope == S::Link) out.push_back(k.key);
  return out;
}

std::vector<std::string> bandwidth_models() {
  for (const auto& k : network_keys())
    if (k.scope == S::Bandwidth && k.key == "model") return k.models;
  return {};
}

std::vector<std::string> bandwidth_keys(const std::string& model) {
  std::vector<std::string> out;
  for (const auto& k : network_keys())
    if (k.scope == S::Bandwidth && std::find(k.models.begin(), k.models.end(), model) != k.models.end())
      out.push_back(k.key);
  return out;
}

}  // namespace coinfer
