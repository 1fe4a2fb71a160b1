// Parameters of the `pipeline` partitioner: read and checked where they enter (partitioner.<key>).
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "partitioners/pipeline/compressor.hpp"
#include "partitioners/pipeline/pipeline_partitioner.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

const std::string kPath = "partitioner";

std::vector<std::string> device_list(const Json& params) {
  const std::string path = join_path(kPath, "devices");
  const Json& d = params.at("devices");
  if (!d.is_array() || d.empty()) throw InputError("", path, "expected a non-empty list of device names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!d[i].is_string() || d[i].get<std::string>().empty())
      throw InputError("", index_path(path, i), "expected a device name");
    if (std::find(out.begin(), out.end(), d[i].get<std::string>()) != out.end())
      throw InputError("", index_path(path, i),
                       fmt::format("device '{}' is listed twice", d[i].get<std::string>()));
    out.push_back(d[i].get<std::string>());
  }
  return out;
}

std::vector<std::size_t> split_list(const Json& params, std::size_t devices) {
  const std::string path = join_path(kPath, "splits");
  const Json& s = params.at("splits");
  if (s.is_string() && s.get<std::string>() == "auto") return {};
  if (!s.is_array()) throw InputError("", path, "expected 'auto' or a list of split positions");
  if (s.size() + 1 != devices)
    throw InputError(
        "", path,
        fmt::format("expected {} split positions for {} devices, got {}", devices - 1, devices, s.size()));
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto v =
        json_as_int(s[i], index_path(path, i), out.empty() ? 1 : static_cast<std::int64_t>(out.back()) + 1);
    out.push_back(static_cast<std::size_t>(v));
  }
  return out;
}

std::vector<std::int64_t> compressor_list(const Json& params) {
  const std::string path = join_path(kPath, "compressors");
  const Json& c = params.at("compressors");
  if (!c.is_array()) throw InputError("", path, "expected a list of compression ratios (2, 4, 8)");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto gamma = json_as_int(c[i], index_path(path, i), 2, 8);
    try {
      compressor_spec(gamma);
    } catch (const InputError& e) {
      throw InputError("", index_path(path, i), e.message());
    }
    if (std::find(out.begin(), out.end(), gamma) != out.end())
      throw InputError("", index_path(path, i), fmt::format("ratio {} is listed twice", gamma));
    out.push_back(gamma);
  }
  return out;
}

/// `accuracy: {"1": 0.902, "2": 0.892, ...}`: nu per gamma, every one in [0, 1]; when given, one
/// entry for the uncompressed model (1) and one per compressor.
std::map<std::int64_t, double> accuracy_map(const Json& params,
                                            const std::vector<std::int64_t>& compressors) {
  const std::string path = join_path(kPath, "accuracy");
  const Json& a = params.at("accuracy");
  std::map<std::int64_t, double> out;
  if (a.is_null()) return out;
  if (!a.is_object()) throw InputError("", path, "expected a mapping of ratio (1: uncompressed) to accuracy");
  for (const auto& [key, value] : a.items()) {
    std::int64_t gamma = 0;
    const auto parsed = std::from_chars(key.data(), key.data() + key.size(), gamma);
    const bool known =
        parsed.ec == std::errc() && parsed.ptr == key.data() + key.size() &&
        (gamma == 1 || std::find(compressors.begin(), compressors.end(), gamma) != compressors.end());
    if (!known)
      throw InputError(
          "", join_path(path, key),
          fmt::format("expected 1 (uncompressed) or a ratio of partitioner.compressors, got '{}'", key));
    out[gamma] = json_as_number(value, join_path(path, key), 0.0, 1.0);
  }
  for (const auto gamma : compressors)
    if (!out.contains(gamma))
      throw InputError("", path, fmt::format("missing the accuracy of ratio {}", gamma));
  if (!out.contains(1)) throw InputError("", path, "missing the accuracy of the uncompressed model (key 1)");
  return out;
}

}  // namespace

PipelineParams pipeline_params_from_json(const Json& params) {
  PipelineParams p;
  p.devices = device_list(params);
  p.splits = split_list(params, p.devices.size());
  p.ops_macs = params.at("ops").get<std::string>() == "macs";
  p.blocks = params.at("units").get<std::string>() == "blocks";
  p.compressors = compressor_list(params);
  p.compress_split = static_cast<std::size_t>(params.at("compress_split").get<std::int64_t>());
  if (!p.compressors.empty() && p.compress_split >= p.devices.size())
    throw InputError("", join_path(kPath, "compress_split"),
                     fmt::format("expected a split point in [1, {}] ({} devices)", p.devices.size() - 1,
                                 p.devices.size()));
  p.default_gamma = params.at("default_gamma").get<std::int64_t>();
  if (p.default_gamma != 1 &&
      std::find(p.compressors.begin(), p.compressors.end(), p.default_gamma) == p.compressors.end())
    throw InputError(
        "", join_path(kPath, "default_gamma"),
        fmt::format("expected 1 or a ratio of partitioner.compressors, got {}", p.default_gamma));
  p.accuracy = accuracy_map(params, p.compressors);
  if (params.contains("network") && params.at("network").is_string()) p.network = params.at("network");
  return p;
}

}  // namespace coinfer
