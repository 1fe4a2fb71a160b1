#include "sim/scenario/sweep_manifest.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/hash.hpp"
#include "sim/scenario/sweep.hpp"

namespace coinfer {

namespace {
constexpr const char* kFormat = "coinfer-sweep-results/1";
}

std::string manifest_path_for(const std::string& csv_path) {
  std::filesystem::path p(csv_path);
  const auto stem = p.extension() == ".csv" ? p.stem().string() : p.filename().string();
  return (p.parent_path() / (stem + ".sweep.json")).string();
}

void write_manifest(const std::string& csv_path, const SweepManifest& m) {
  const Json j{
      {"format", kFormat}, {"name", m.name},          {"sweep_file", m.sweep_file}, {"runs", m.runs},
      {"shard", m.shard},  {"shards", m.shard_count}, {"sweep_hash", m.sweep_hash}, {"header", m.header}};
  write_file_atomic(manifest_path_for(csv_path), j.dump(2) + "\n");
}

std::optional<SweepManifest> read_manifest(const std::string& csv_path) {
  const auto path = manifest_path_for(csv_path);
  if (std::error_code ec; !std::filesystem::exists(path, ec)) return std::nullopt;
  const Json j = read_json_file(path);
  try {
    json_reject_unknown_keys(
        j, "", {"format", "name", "sweep_file", "runs", "shard", "shards", "sweep_hash", "header"});
    if (json_string(j, "format", "") != kFormat)
      throw InputError("", "format", std::string("expected '") + kFormat + "'");
    SweepManifest m;
    m.name = json_string(j, "name", "");
    m.sweep_file = json_string(j, "sweep_file", "");
    m.runs = static_cast<std::size_t>(json_int(j, "runs", "", 1));
    m.shard_count = static_cast<std::size_t>(json_int(j, "shards", "", 1));
    m.shard = static_cast<std::size_t>(json_int(j, "shard", "", 1, static_cast<std::int64_t>(m.shard_count)));
    m.sweep_hash = json_string(j, "sweep_hash", "");
    const Json& header = json_at(j, "header", "");
    if (!header.is_array()) throw InputError("", "header", "expected a list of column names");
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (!header[i].is_string()) throw InputError("", index_path("header", i), "expected a string");
      m.header.push_back(header[i].get<std::string>());
    }
    return m;
  } catch (const InputError& e) {
    throw e.with_file(path);
  }
}

std::string sweep_hash_of(const std::vector<std::string>& point_hashes) {
  std::uint64_t h = fnv1a64("");
  for (const auto& p : point_hashes) h = fnv1a64(p + "\n", h);
  return fmt::format("{:016x}", h);
}

}  // namespace coinfer
