#pragma once
/// `coinfer merge`: joins sweep results CSVs (shards, or a resumed sweep's pieces) into one.
///
/// The inputs must have the same header and manifests of the same sweep (sweep_manifest.hpp).
/// Rows are sorted by run; a run present in two inputs must have identical cells (a conflict
/// is refused, naming both places); runs of the sweep that no input holds are listed and
/// refused unless `allow_partial`. The merged file is written whole or not at all, with a
/// manifest of its own (shard 1 of 1), so it can be merged again.
///
///     auto m = merge_results({"a/results.shard-1-of-2.csv", "b/results.shard-2-of-2.csv"}, "all.csv");
#include <string>
#include <vector>

namespace coinfer {

struct MergeSummary {
  std::size_t rows = 0;
  std::vector<std::size_t> missing;  ///< runs no input holds (only with allow_partial)
  bool missing_known = true;         ///< false when an input had no manifest (allow_partial)
};

/// Throws `InputError` on a missing file, a header mismatch, a malformed row, a conflict,
/// inputs from different sweeps, or missing runs (without `allow_partial`).
MergeSummary merge_results(const std::vector<std::string>& inputs, const std::string& out_path,
                           bool allow_partial = false);

}  // namespace coinfer
