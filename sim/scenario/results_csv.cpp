#include "sim/scenario/results_csv.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

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
                                              "busy_s.total"};

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

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        cells.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        cells.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\n' && c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
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

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t run_index_of(const std::vector<std::string>& cells, const std::string& path,
                         std::size_t line_no) {
  try {
    return static_cast<std::size_t>(std::stoull(cells.at(0)));
  } catch (const std::exception&) {
    throw InputError(path, fmt::format("line {}", line_no), "expected a run index in the first column");
  }
}

}  // namespace

ResultsCsv::ResultsCsv(std::string path, std::vector<std::string> header)
    : path_(std::move(path)), header_(std::move(header)) {
  const auto expected_header = csv_line(header_);
  if (std::filesystem::exists(path_)) {
    std::string text = read_all(path_);
    // Cut a partial last row left by a writer that was killed mid-write.
    const auto last_newline = text.rfind('\n');
    const auto keep = last_newline == std::string::npos ? 0 : last_newline + 1;
    if (keep != text.size()) {
      std::filesystem::resize_file(path_, keep);
      text.resize(keep);
    }
    std::istringstream lines(text);
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(lines, line)) {
      ++line_no;
      if (line_no == 1) {
        if (line + "\n" != expected_header)
          throw InputError(path_, "line 1",
                           "existing results file has a different header; use another --out directory");
        continue;
      }
      if (!line.empty()) done_.insert(run_index_of(csv_split(line), path_, line_no));
    }
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InputError(path_, "", fmt::format("cannot open for appending: {}", std::strerror(errno)));
  if (::lseek(fd_, 0, SEEK_END) == 0) {
    if (::write(fd_, expected_header.data(), expected_header.size()) !=
        static_cast<ssize_t>(expected_header.size()))
      throw Error(fmt::format("{}: cannot write header", path_));
  }
}

ResultsCsv::~ResultsCsv() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsCsv::append(std::size_t run, const std::vector<std::string>& cells) {
  std::vector<std::string> row{std::to_string(run)};
  row.insert(row.end(), cells.begin(), cells.end());
  row.resize(header_.size());
  const auto line = csv_line(row);
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw Error(fmt::format("{}: cannot append row: {}", path_, std::strerror(errno)));
  ::fsync(fd_);
  done_.insert(run);
}

std::size_t merge_results(const std::vector<std::string>& inputs, const std::string& out_path) {
  if (inputs.empty()) throw InputError("", "merge", "expected at least one results file");
  std::string header;
  std::map<std::size_t, std::string> rows;
  for (const auto& in : inputs) {
    if (!std::filesystem::exists(in)) throw InputError(in, "", "cannot open file");
    std::istringstream lines(read_all(in));
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(lines, line)) {
      ++line_no;
      if (line_no == 1) {
        if (header.empty())
          header = line;
        else if (line != header)
          throw InputError(in, "line 1", "header differs from " + inputs.front());
        continue;
      }
      if (!line.empty()) rows.emplace(run_index_of(csv_split(line), in, line_no), line);
    }
  }
  const auto tmp = out_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(out_path, "", "cannot write file");
    out << header << "\n";
    for (const auto& [run, line] : rows) out << line << "\n";
  }
  std::filesystem::rename(tmp, out_path);  // whole or nothing
  return rows.size();
}

}  // namespace coinfer
