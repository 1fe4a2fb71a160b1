#include "sim/scenario/sweep_merge.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "sim/scenario/sweep_manifest.hpp"

namespace coinfer {
namespace {

struct Placed {
  std::string file;
  CsvRecord record;
};

std::string list_runs(const std::vector<std::size_t>& runs) {
  constexpr std::size_t kShown = 10;
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < runs.size() && i < kShown; ++i) parts.push_back(std::to_string(runs[i]));
  if (runs.size() > kShown) parts.push_back(fmt::format("... ({} in all)", runs.size()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Every input's manifest must describe the same sweep; returns it (nullopt when one is absent).
std::optional<SweepManifest> common_manifest(const std::vector<std::string>& inputs, bool allow_partial) {
  std::optional<SweepManifest> common;
  for (const auto& in : inputs) {
    const auto m = read_manifest(in);
    if (!m) {
      if (allow_partial) return std::nullopt;
      throw InputError(in, "",
                       fmt::format("no sweep manifest ({}) next to it, so missing runs cannot be listed; "
                                   "merge with --allow-partial to join it anyway",
                                   manifest_path_for(in)));
    }
    if (!common) {
      common = m;
    } else if (m->sweep_hash != common->sweep_hash || m->runs != common->runs) {
      throw InputError(
          in, "",
          fmt::format("comes from a different sweep than {} (sweep '{}' with {} runs, hash {}, vs "
                      "'{}' with {} runs, hash {})",
                      inputs.front(), m->name, m->runs, m->sweep_hash, common->name, common->runs,
                      common->sweep_hash));
    }
  }
  return common;
}

}  // namespace

MergeSummary merge_results(const std::vector<std::string>& inputs, const std::string& out_path,
                           bool allow_partial) {
  if (inputs.empty()) throw InputError("", "merge", "expected at least one results file");
  std::vector<std::string> header;
  std::map<std::size_t, Placed> rows;
  for (const auto& in : inputs) {
    std::error_code ec;  // the overloads that throw would throw filesystem_error for a name too long
    if (std::filesystem::is_directory(in, ec))
      throw InputError(in, "", "is a directory, expected a results CSV file");
    if (!std::filesystem::exists(in, ec)) throw InputError(in, "", "cannot open file");
    const auto records = parse_csv(read_whole_file(in), in);
    if (records.empty()) throw InputError(in, "", "empty file, expected a header line");
    if (header.empty())
      header = records.front().cells;
    else if (records.front().cells != header)
      throw InputError(in, "line 1", "header differs from " + inputs.front());
    for (std::size_t r = 1; r < records.size(); ++r) {
      const auto& rec = records[r];
      if (rec.cells.size() != header.size())
        throw InputError(in, fmt::format("line {}", rec.line),
                         fmt::format("expected {} cells, got {}", header.size(), rec.cells.size()));
      const auto run = csv_run_index(rec, in);
      const auto [it, fresh] = rows.emplace(run, Placed{in, rec});
      if (!fresh && it->second.record.cells != rec.cells)
        throw InputError(in, fmt::format("line {}", rec.line),
                         fmt::format("run {} conflicts with {} line {}: the same run with different results",
                                     run, it->second.file, it->second.record.line));
    }
  }
  const auto manifest = common_manifest(inputs, allow_partial);
  MergeSummary summary;
  summary.rows = rows.size();
  summary.missing_known = manifest.has_value();
  if (manifest) {
    if (manifest->header != header)
      throw InputError(inputs.front(), "line 1", "header differs from its sweep manifest");
    for (const auto& [run, placed] : rows)
      if (run >= manifest->runs)
        throw InputError(placed.file, fmt::format("line {}", placed.record.line),
                         fmt::format("run {} is outside the sweep's {} runs", run, manifest->runs));
    for (std::size_t run = 0; run < manifest->runs; ++run)
      if (!rows.count(run)) summary.missing.push_back(run);
    if (!summary.missing.empty() && !allow_partial)
      throw InputError(
          "", "merge",
          fmt::format("{} of {} runs are missing: {}; run their shards, or merge with --allow-partial",
                      summary.missing.size(), manifest->runs, list_runs(summary.missing)));
  }
  std::string text = csv_line(header);
  for (const auto& [run, placed] : rows) text += csv_line(placed.record.cells);
  write_file_atomic(out_path, text);  // whole or nothing
  if (manifest) {
    SweepManifest merged = *manifest;
    merged.shard = merged.shard_count = 1;
    write_manifest(out_path, merged);
  }
  return summary;
}

}  // namespace coinfer
