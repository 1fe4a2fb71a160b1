#pragma once
/// A CSV data file whose first line names its columns (a per-frame trace, say): its text, its header
/// looked up by name, and each cell checked. Every error is an InputError naming the file, the line
/// and, for a cell, the column.
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/results_csv.hpp"

namespace coinfer {

/// The text of the data file at `path`. InputError(path) when it is a directory ("expected `what`")
/// or does not exist.
std::string read_data_file(const std::string& path, const std::string& what);

/// A header line and the rows under it, each with the header's number of cells.
struct CsvTable {
  CsvRecord header;
  std::vector<CsvRecord> rows;
};

/// Parses `text` (parse_csv); InputError(file) when it is empty, when a row's cell count is not the
/// header's, or when no row follows the header ("no `rows` after the header line").
CsvTable parse_csv_table(const std::string& text, const std::string& file, const std::string& rows);

/// A header's columns by name. A name that appears twice is an InputError naming the header's line.
/// It refers to `header`, which must outlive it.
class CsvHeader {
 public:
  CsvHeader(const CsvRecord& header, const std::string& file);

  /// The column named `name`; InputError "missing column 'name'" when there is none.
  std::size_t required(const std::string& name) const;
  std::optional<std::size_t> optional(const std::string& name) const;
  const std::vector<std::string>& names() const { return header_.cells; }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const CsvRecord& header_;
  std::string file_;
  std::map<std::string, std::size_t, std::less<>> at_;
};

/// The cells of one row; errors name the file, the row's line and the column's name. It refers to
/// `row`, `header` and `file` (one reader a row, so nothing is copied): they must outlive it.
class CsvCells {
 public:
  CsvCells(const CsvRecord& row, const CsvRecord& header, const std::string& file)
      : row_(row), header_(header), file_(file) {}

  const std::string& text(std::size_t c) const { return row_.cells[c]; }
  /// A finite number in [min, max], or in (min, max] with `min_open`; `expected` says which in the error.
  double number(std::size_t c, double min, double max, const std::string& expected,
                bool min_open = false) const;
  /// NaN for an empty cell, else number().
  double number_or_nan(std::size_t c, double min, double max, const std::string& expected) const;
  /// An integer in [min, max] written without sign or point.
  std::uint64_t integer(std::size_t c, std::uint64_t min, const std::string& expected,
                        std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const;
  /// 0 or 1.
  bool flag(std::size_t c) const;
  [[noreturn]] void fail(std::size_t c, const std::string& message) const;

 private:
  const CsvRecord& row_;
  const CsvRecord& header_;
  const std::string& file_;
};

}  // namespace coinfer
