#include "sim/scenario/csv_table.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace coinfer {

std::string read_data_file(const std::string& path, const std::string& what) {
  std::error_code ec;  // the throwing overloads would throw filesystem_error for a name too long
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "", "is a directory, expected " + what);
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "", "file not found");
  return read_whole_file(path);
}

CsvTable parse_csv_table(const std::string& text, const std::string& file, const std::string& rows) {
  auto records = parse_csv(text, file);
  if (records.empty()) throw InputError(file, "", "empty file, expected a header line");
  CsvTable table;
  table.header = std::move(records.front());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].cells.size() != table.header.cells.size())
      throw InputError(file, fmt::format("line {}", records[r].line),
                       fmt::format("expected {} cells (as in the header), got {}", table.header.cells.size(),
                                   records[r].cells.size()));
    table.rows.push_back(std::move(records[r]));
  }
  if (table.rows.empty()) throw InputError(file, "", fmt::format("no {} after the header line", rows));
  return table;
}

CsvHeader::CsvHeader(const CsvRecord& header, const std::string& file) : header_(header), file_(file) {
  for (std::size_t c = 0; c < header.cells.size(); ++c)
    if (!at_.emplace(header.cells[c], c).second)
      fail(fmt::format("column '{}' appears twice", header.cells[c]));
}

std::size_t CsvHeader::required(const std::string& name) const {
  const auto it = at_.find(name);
  if (it == at_.end()) fail(fmt::format("missing column '{}'", name));
  return it->second;
}

std::optional<std::size_t> CsvHeader::optional(const std::string& name) const {
  const auto it = at_.find(name);
  return it == at_.end() ? std::nullopt : std::optional(it->second);
}

void CsvHeader::fail(const std::string& message) const {
  throw InputError(file_, fmt::format("line {}", header_.line), message);
}

double CsvCells::number(std::size_t c, double min, double max, const std::string& expected,
                        bool min_open) const {
  const std::string& s = row_.cells[c];
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  const bool ok = ec == std::errc() && end == s.data() + s.size() && std::isfinite(v) && v <= max &&
                  (min_open ? v > min : v >= min);
  if (!ok) fail(c, fmt::format("expected {}, got '{}'", expected, s));
  return v;
}

double CsvCells::number_or_nan(std::size_t c, double min, double max, const std::string& expected) const {
  return row_.cells[c].empty() ? std::nan("") : number(c, min, max, expected);
}

std::uint64_t CsvCells::integer(std::size_t c, std::uint64_t min, const std::string& expected,
                                std::uint64_t max) const {
  const std::string& s = row_.cells[c];
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < min || v > max)
    fail(c, fmt::format("expected {}, got '{}'", expected, s));
  return v;
}

bool CsvCells::flag(std::size_t c) const {
  const std::string& s = row_.cells[c];
  if (s != "0" && s != "1") fail(c, fmt::format("expected 0 or 1, got '{}'", s));
  return s == "1";
}

void CsvCells::fail(std::size_t c, const std::string& message) const {
  throw InputError(file_, fmt::format("line {}", row_.line),
                   fmt::format("column '{}': {}", header_.cells[c], message));
}

}  // namespace coinfer
