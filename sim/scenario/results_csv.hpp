#pragma once
/// The sweep results table: one CSV row per finished run, appended atomically so that a killed
/// sweep resumes without losing or redoing rows, and shards merge by run index.
///
/// Columns: `run`, the sweep's axis keys, then the metric columns of `kMetricColumns`
/// (a `x.total` column sums the numbers of object `x`, e.g. energy over devices).
#include <set>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Metric columns read from a run's results.json.
extern const std::vector<std::string> kMetricColumns;

/// RFC 4180 quoting where needed.
std::string csv_escape(const std::string& cell);
std::string csv_line(const std::vector<std::string>& cells);
/// Splits one CSV line (quoted cells may hold commas and doubled quotes).
std::vector<std::string> csv_split(const std::string& line);

/// A results value as a cell: numbers in shortest round-trip form, strings raw, null empty.
std::string cell_of(const Json& value);
/// Looks a column up in a results document (`latency_ms.p95`, `energy_j.total`).
std::string metric_cell(const Json& results, const std::string& column);

/// Appends rows to a CSV file. Creating the file writes the header; reopening checks it.
/// A partial last line (a writer killed mid-row) is cut off when the file is opened.
class ResultsCsv {
 public:
  /// Throws `InputError(path, "", ...)` when an existing file has a different header.
  ResultsCsv(std::string path, std::vector<std::string> header);
  ~ResultsCsv();
  ResultsCsv(const ResultsCsv&) = delete;
  ResultsCsv& operator=(const ResultsCsv&) = delete;

  /// Run indices already present (column `run`).
  const std::set<std::size_t>& done() const { return done_; }
  /// Appends one row with a single write(2) on an O_APPEND descriptor, then fsync.
  void append(std::size_t run, const std::vector<std::string>& cells);

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::set<std::size_t> done_;
  int fd_ = -1;
};

/// Joins shard CSVs with identical headers into `out_path`, rows sorted by run, duplicates
/// (same run index) kept once. Throws `InputError` on a header mismatch or a missing file.
/// Returns the number of rows written.
std::size_t merge_results(const std::vector<std::string>& inputs, const std::string& out_path);

}  // namespace coinfer
