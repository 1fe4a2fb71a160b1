#include "sim/scenario/results_csv.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/key_path.hpp"

namespace coinfer {

const std::vector<std::string> kMetricColumns{"scenario",
                                              "seed",
                                              "frames",
                                              "completed",
                                              "dropped",
                                              "latency_ms.mean",
                                              "latency_ms.p50",
                                              "latency_ms.p95",
                                              "latency_ms.max",
                                              "throughput_fps",
                                              "analytic_latency_ms",
                                              "energy_j.total",
                                              "bytes.total",
                                              "busy_s.total",
                                              "effective_accuracy"};

std::string csv_escape(const std::string& cell) {
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_escape(cells[i]);
  return line + "\n";
}

std::vector<CsvRecord> parse_csv(const std::string& text, const std::string& file,
                                 std::size_t* complete_bytes) {
  std::vector<CsvRecord> records;
  CsvRecord current;
  std::string cell;
  bool quoted = false, in_record = false, had_quote = false;
  std::size_t line = 1, record_line = 1, complete = 0;
  auto end_record = [&](std::size_t next) {
    complete = next;
    in_record = false;
    if (current.cells.empty() && cell.empty() && !had_quote) return;  // a blank line
    current.cells.push_back(std::move(cell));
    cell.clear();
    current.line = record_line;
    records.push_back(std::move(current));
    current = {};
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_record) {
      in_record = true;
      had_quote = false;
      record_line = line;
    }
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
    } else if (c == '"') {
      quoted = had_quote = true;
    } else if (c == ',') {
      current.cells.push_back(std::move(cell));
      cell.clear();
    } else if (c == '\n') {
      ++line;
      end_record(i + 1);
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      // CRLF: the LF ends the record
    } else {
      cell += c;
    }
  }
  if (in_record) {  // the text does not end with a newline
    if (complete_bytes) {
      *complete_bytes = complete;
      return records;
    }
    if (quoted) throw InputError(file, fmt::format("line {}", record_line), "unterminated quoted cell");
    end_record(text.size());
  }
  if (complete_bytes) *complete_bytes = complete;
  return records;
}

std::vector<std::string> csv_split(const std::string& text) {
  const auto records = parse_csv(text, "");
  return records.empty() ? std::vector<std::string>{""} : records.front().cells;
}

std::string cell_of(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

std::string metric_cell(const Json& results, const std::string& column) {
  if (const Json* v = find_at_path(results, column)) return cell_of(*v);
  const std::string suffix = ".total";
  if (column.size() > suffix.size() && column.ends_with(suffix)) {
    const Json* obj = find_at_path(results, column.substr(0, column.size() - suffix.size()));
    if (obj && obj->is_object()) {
      double sum = 0;
      for (const auto& [k, v] : obj->items())
        if (v.is_number()) sum += v.get<double>();
      return fmt::format("{}", sum);
    }
  }
  return "";
}

std::size_t csv_run_index(const CsvRecord& record, const std::string& file) {
  const std::string& cell = record.cells.at(0);
  if (cell.empty() || cell.size() > 12 || cell.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(file, fmt::format("line {}", record.line),
                     fmt::format("expected a run index in the first column, got '{}'", cell));
  return static_cast<std::size_t>(std::stoull(cell));
}

ResultsCsv::ResultsCsv(std::string path, std::vector<std::string> header)
    : path_(std::move(path)), header_(std::move(header)) {
  const auto expected_header = csv_line(header_);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InputError(path_, "", fmt::format("cannot open for appending: {}", std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path_, "",
                     "another coinfer sweep is writing this file; wait for it or use another --out");
  }
  std::string text = read_whole_file(path_);
  std::size_t keep = 0;
  const auto records = parse_csv(text, path_, &keep);
  if (keep != text.size()) {  // cut a partial last row left by a writer killed mid-write
    if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0)
      throw Error(fmt::format("{}: cannot cut a partial last row: {}", path_, std::strerror(errno)));
  }
  if (records.empty()) {
    if (::write(fd_, expected_header.data(), expected_header.size()) !=
        static_cast<ssize_t>(expected_header.size()))
      throw Error(fmt::format("{}: cannot write header", path_));
    return;
  }
  if (records.front().cells != header_)
    throw InputError(path_, "line 1",
                     "existing results file has a different header; use another --out directory");
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& rec = records[r];
    const auto where = fmt::format("line {}", rec.line);
    if (rec.cells.size() != header_.size())
      throw InputError(path_, where,
                       fmt::format("expected {} cells, got {}", header_.size(), rec.cells.size()));
    const auto run = csv_run_index(rec, path_);
    const auto [it, fresh] = rows_.emplace(run, rec);
    if (!fresh && it->second.cells != rec.cells)
      throw InputError(path_, where,
                       fmt::format("run {} appears twice with different cells (lines {} and {})", run,
                                   it->second.line, rec.line));
    done_.insert(run);
  }
}

void ResultsCsv::rewrite_sorted() {
  std::string text = csv_line(header_);
  for (const auto& [run, record] : rows_) text += csv_line(record.cells);
  write_file_atomic(path_, text);
  ::close(fd_);
  fd_ = -1;
}

ResultsCsv::~ResultsCsv() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

void ResultsCsv::append(std::size_t run, const std::vector<std::string>& cells) {
  if (fd_ < 0) throw Error(fmt::format("{}: appending after the file was closed", path_));
  std::vector<std::string> row{std::to_string(run)};
  row.insert(row.end(), cells.begin(), cells.end());
  row.resize(header_.size());
  const auto line = csv_line(row);
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw Error(fmt::format("{}: cannot append row: {}", path_, std::strerror(errno)));
  ::fsync(fd_);
  done_.insert(run);
  rows_[run] = CsvRecord{0, row};
}

}  // namespace coinfer
