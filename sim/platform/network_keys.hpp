#pragma once
/// The keys a platform YAML accepts for a network, as one table: the platform parser
/// (platform_yaml.cpp) takes its lists of accepted keys from it, and `coinfer list networks`
/// prints it, so the listing cannot drift from the parser.
///
///     for (const auto& k : network_keys()) fmt::print("{} ({}): {}\n", k.key, k.applies_to, k.meaning);
///     auto keys = network_keys_for(NetworkKind::Lte, true);   // name, kind, members, base, uplink, ...
#include <string>
#include <vector>

#include "sim/platform/platform.hpp"

namespace coinfer {

/// A value of a network's `kind` and what it models (platform.hpp explains the links it implies).
struct NetworkKindDoc {
  std::string name;  ///< "wifi", "wifi_direct", "wired", "lte", "3g", "4g"
  NetworkKind kind;
  std::string meaning;
};

/// Where a key is accepted.
enum class NetworkKeyScope {
  Network,        ///< `networks[i]`, every kind
  SharedOrWired,  ///< `networks[i]` without a base: wired, or wifi / wifi_direct without `base`
  Access,         ///< `networks[i]` of an access network: cellular, or wifi / wifi_direct with `base`
  Wifi,           ///< `networks[i]` of kind wifi or wifi_direct
  Link,           ///< `networks[i].uplink` / `.downlink` of an access network
  Bandwidth,      ///< `bandwidth` (of a network or a link); `models` says for which models
};

struct NetworkKeyDoc {
  std::string key;
  NetworkKeyScope scope;
  std::string applies_to;  ///< the scope in words, for listings
  std::string meaning;
  std::vector<std::string> models;  ///< Bandwidth keys: the `model` values taking the key
};

/// Every kind, in the order listings show them.
const std::vector<NetworkKindDoc>& network_kinds();
/// Every key of a network, its links and its bandwidth model.
const std::vector<NetworkKeyDoc>& network_keys();

/// The names of `network_kinds()`.
std::vector<std::string> network_kind_names();
/// Keys accepted in `networks[i]` for a network of `kind`; `access`: it reaches a base
/// (cellular, or wifi with `base`).
std::vector<std::string> network_keys_for(NetworkKind kind, bool access);
/// Keys accepted in an access network's `uplink` / `downlink`.
std::vector<std::string> link_keys();
/// The bandwidth models (`constant`, `normal`, `uniform`, `empirical`, `trace`).
std::vector<std::string> bandwidth_models();
/// Keys accepted in a `bandwidth` mapping of `model`.
std::vector<std::string> bandwidth_keys(const std::string& model);

}  // namespace coinfer
