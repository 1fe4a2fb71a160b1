#pragma once
/// The sweep results table: one CSV row per finished run, appended atomically so that a killed
/// sweep resumes without losing or redoing rows, and shards merge by run index.
///
/// Columns: `run`, `variant` (when the base has compare variants), the sweep's axis keys, the
/// metric columns of `kMetricColumns` (a `x.total` column sums the numbers of object `x`, e.g.
/// energy over devices; `effective_accuracy` is blank for a run whose plan variants carry no
/// accuracy), then `point_hash`, the identity of the scenario that produced the row.
/// Files are RFC 4180: a cell holding a comma, a quote, CR or LF is quoted, quotes doubled.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Metric columns read from a run's results.json.
extern const std::vector<std::string> kMetricColumns;

/// RFC 4180 quoting where needed.
std::string csv_escape(const std::string& cell);
/// One record, newline-terminated.
std::string csv_line(const std::vector<std::string>& cells);
/// The cells of the first record of `text` (quoted cells may hold commas, quotes and newlines).
std::vector<std::string> csv_split(const std::string& text);

struct CsvRecord {
  std::size_t line = 0;  ///< 1-based line where the record starts
  std::vector<std::string> cells;
};

/// Parses RFC 4180 text (LF or CRLF line ends). With `complete_bytes`, a last record that is not
/// newline-terminated (a writer killed mid-row) is left out and `*complete_bytes` is set to the
/// length of the complete part; without it such a record is kept when it is otherwise whole,
/// and an unterminated quote throws `InputError(file, "line N", ...)`.
std::vector<CsvRecord> parse_csv(const std::string& text, const std::string& file,
                                 std::size_t* complete_bytes = nullptr);

/// A results value as a cell: numbers in shortest round-trip form, strings raw, null empty.
std::string cell_of(const Json& value);
/// Looks a column up in a results document (`latency_ms.p95`, `energy_j.total`).
std::string metric_cell(const Json& results, const std::string& column);

/// The run index in a row's first cell; throws `InputError(file, "line N", ...)`.
std::size_t csv_run_index(const CsvRecord& record, const std::string& file);

/// Appends rows to a CSV file. Creating the file writes the header; reopening checks it and
/// every row (cell count, run index, no run twice with different cells). A partial last record
/// (a writer killed mid-row) is cut off when the file is opened. The file is locked while open,
/// so two sweeps cannot write it at once.
class ResultsCsv {
 public:
  /// Throws `InputError(path, ...)` when an existing file has a different header or a bad row,
  /// or another process holds it.
  ResultsCsv(std::string path, std::vector<std::string> header);
  ~ResultsCsv();
  ResultsCsv(const ResultsCsv&) = delete;
  ResultsCsv& operator=(const ResultsCsv&) = delete;

  /// Run indices already present (column `run`).
  const std::set<std::size_t>& done() const { return done_; }
  /// The rows already present, by run index.
  const std::map<std::size_t, CsvRecord>& rows() const { return rows_; }
  /// Appends one row with a single write(2) on an O_APPEND descriptor, then fsync.
  void append(std::size_t run, const std::vector<std::string>& cells);
  /// Rewrites the file atomically with its rows sorted by run (rows arrive in completion order),
  /// so a finished sweep's file does not depend on `--jobs`. No appends after this.
  void rewrite_sorted();

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::set<std::size_t> done_;
  std::map<std::size_t, CsvRecord> rows_;
  int fd_ = -1;
};

}  // namespace coinfer
