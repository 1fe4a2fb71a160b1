#pragma once
/// The manifest written next to every sweep results CSV (`results.csv` ->
/// `results.sweep.json`, `results.shard-2-of-4.csv` -> `results.shard-2-of-4.sweep.json`): which
/// sweep the rows belong to, so that a resumed sweep and `coinfer merge` can tell a changed
/// sweep from the same one and list the runs still missing.
///
///     {"format": "coinfer-sweep-results/1", "name": "bw", "sweep_file": "sweeps/bw.yaml",
///      "runs": 40, "shard": 2, "shards": 4, "sweep_hash": "9f0c...", "header": ["run", ...]}
///
/// `sweep_hash` hashes every run's `point_hash` in order, so two manifests with the same hash
/// describe the same points under the same run numbers.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

struct SweepManifest {
  std::string name;
  std::string sweep_file;
  std::size_t runs = 0;   ///< runs of the whole sweep (every shard)
  std::size_t shard = 1;  ///< 1-based, as `--shard` takes it
  std::size_t shard_count = 1;
  std::string sweep_hash;
  std::vector<std::string> header;
};

/// `out/results.csv` -> `out/results.sweep.json`.
std::string manifest_path_for(const std::string& csv_path);

/// Writes the manifest of `csv_path` atomically.
void write_manifest(const std::string& csv_path, const SweepManifest& manifest);

/// The manifest of `csv_path`, or nullopt when there is none; a malformed one throws InputError.
std::optional<SweepManifest> read_manifest(const std::string& csv_path);

/// The sweep hash of a list of point hashes (FNV-1a 64 over them, newline-separated).
std::string sweep_hash_of(const std::vector<std::string>& point_hashes);

}  // namespace coinfer
