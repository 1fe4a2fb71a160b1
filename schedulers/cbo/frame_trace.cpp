#include "schedulers/cbo/frame_trace.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"

namespace coinfer::cbo {
namespace {

constexpr std::string_view kSizePrefix = "size_bytes_", kServerPrefix = "server_correct_";

// Where each known column sits in a row.
struct Columns {
  std::optional<std::size_t> video, frame;
  std::size_t confidence = 0, correct = 0;
  std::vector<int> resolutions_px;
  std::vector<std::size_t> size, server;  // per resolution
};

// The <px> of `size_bytes_<px>` / `server_correct_<px>`, or 0 when `name` is not one of them.
int resolution_of(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return 0;
  name.remove_prefix(prefix.size());
  int px = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), px);
  return ec == std::errc() && end == name.data() + name.size() && px >= 1 ? px : 0;
}

Columns find_columns(const CsvRecord& header, const std::string& file) {
  const auto where = fmt::format("line {}", header.line);
  std::map<std::string, std::size_t, std::less<>> at;
  for (std::size_t c = 0; c < header.cells.size(); ++c)
    if (!at.emplace(header.cells[c], c).second)
      throw InputError(file, where, fmt::format("column '{}' appears twice", header.cells[c]));
  auto required = [&](const std::string& name) {
    const auto it = at.find(name);
    if (it == at.end()) throw InputError(file, where, fmt::format("missing column '{}'", name));
    return it->second;
  };
  auto optional = [&](const std::string& name) -> std::optional<std::size_t> {
    const auto it = at.find(name);
    return it == at.end() ? std::nullopt : std::optional(it->second);
  };
  Columns out;
  out.video = optional("video");
  out.frame = optional("frame");
  out.confidence = required("confidence");
  out.correct = required("correct");
  // px -> column of size_bytes_<px> / server_correct_<px>; `size_bytes_090` and `size_bytes_90`
  // would name the same resolution twice.
  std::map<int, std::size_t> size, server;
  for (std::size_t c = 0; c < header.cells.size(); ++c)
    for (auto [prefix, columns] : {std::pair{kSizePrefix, &size}, std::pair{kServerPrefix, &server}})
      if (const int px = resolution_of(header.cells[c], prefix); px != 0 && !columns->emplace(px, c).second)
        throw InputError(file, where, fmt::format("two {} columns name resolution {}", prefix, px));
  auto unmatched = [&](const std::map<int, std::size_t>& from, const std::map<int, std::size_t>& to,
                       std::string_view to_prefix) {
    for (const auto& [px, c] : from)
      if (!to.count(px))
        throw InputError(file, where,
                         fmt::format("column '{}' has no matching '{}{}'", header.cells[c], to_prefix, px));
  };
  unmatched(size, server, kServerPrefix);
  unmatched(server, size, kSizePrefix);
  for (const auto& [px, c] : size) {
    out.resolutions_px.push_back(px);
    out.size.push_back(c);
    out.server.push_back(server.at(px));
  }
  return out;
}

// Reads one cell; errors name the line and the column.
class RowReader {
 public:
  RowReader(const CsvRecord& row, const CsvRecord& header, const std::string& file)
      : row_(row), header_(header), file_(file) {}

  const std::string& text(std::size_t c) const { return row_.cells[c]; }

  double number(std::size_t c, double min, double max, bool min_open, const std::string& expected) const {
    const std::string& s = row_.cells[c];
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    const bool ok = ec == std::errc() && end == s.data() + s.size() && std::isfinite(v) && v <= max &&
                    (min_open ? v > min : v >= min);
    if (!ok) fail(c, fmt::format("expected {}, got '{}'", expected, s));
    return v;
  }

  bool flag(std::size_t c) const {
    const std::string& s = row_.cells[c];
    if (s != "0" && s != "1") fail(c, fmt::format("expected 0 or 1, got '{}'", s));
    return s == "1";
  }

  std::int64_t index(std::size_t c) const {
    const std::string& s = row_.cells[c];
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 0)
      fail(c, fmt::format("expected an integer >= 0, got '{}'", s));
    return v;
  }

 private:
  [[noreturn]] void fail(std::size_t c, const std::string& message) const {
    throw InputError(file_, fmt::format("line {}", row_.line),
                     fmt::format("column '{}': {}", header_.cells[c], message));
  }

  const CsvRecord& row_;
  const CsvRecord& header_;
  const std::string& file_;
};

TraceFrame read_frame(const RowReader& r, const Columns& cols, std::size_t line) {
  TraceFrame f;
  f.line = line;
  if (cols.video) f.video = r.text(*cols.video);
  if (cols.frame) f.index = r.index(*cols.frame);
  f.confidence = r.number(cols.confidence, 0, 1, false, "a number in [0, 1]");
  f.correct = r.flag(cols.correct);
  for (std::size_t k = 0; k < cols.resolutions_px.size(); ++k) {
    f.size_bytes.push_back(r.number(cols.size[k], 0, HUGE_VAL, true, "a number of bytes > 0"));
    f.server_correct.push_back(r.flag(cols.server[k]) ? 1 : 0);
  }
  return f;
}

}  // namespace

ScoredFrames FrameTrace::local() const {
  ScoredFrames out;
  for (const auto& f : frames) {
    out.confidence.push_back(f.confidence);
    out.correct.push_back(f.correct ? 1 : 0);
  }
  return out;
}

FrameTrace parse_frame_trace(const std::string& text, const std::string& file) {
  const auto records = parse_csv(text, file);
  if (records.empty()) throw InputError(file, "", "empty file, expected a header line");
  const CsvRecord& header = records.front();
  const Columns cols = find_columns(header, file);
  FrameTrace trace;
  trace.resolutions_px = cols.resolutions_px;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& row = records[r];
    if (row.cells.size() != header.cells.size())
      throw InputError(
          file, fmt::format("line {}", row.line),
          fmt::format("expected {} cells (as in the header), got {}", header.cells.size(), row.cells.size()));
    trace.frames.push_back(read_frame(RowReader(row, header, file), cols, row.line));
  }
  if (trace.frames.empty()) throw InputError(file, "", "no frames after the header line");
  return trace;
}

FrameTrace read_frame_trace(const std::string& path) {
  std::error_code ec;  // the throwing overloads would throw filesystem_error for a name too long
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, "", "is a directory, expected a trace CSV file");
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "", "file not found");
  return parse_frame_trace(read_whole_file(path), path);
}

void check_resolutions(const std::vector<int>& px) {
  if (px.empty()) throw InputError("", "resolutions", "expected at least one resolution");
  for (std::size_t i = 0; i < px.size(); ++i) {
    if (px[i] < 1 || px[i] > 4096)
      throw InputError("", "resolutions", fmt::format("expected pixels in [1, 4096], got {}", px[i]));
    if (i > 0 && px[i] <= px[i - 1])
      throw InputError("", "resolutions",
                       fmt::format("expected increasing resolutions, got {} after {}", px[i], px[i - 1]));
  }
}

std::string format_frame_trace(const FrameTrace& trace) {
  std::vector<std::string> header{"video", "frame", "confidence", "correct"};
  for (int px : trace.resolutions_px) {
    header.push_back(fmt::format("{}{}", kSizePrefix, px));
    header.push_back(fmt::format("{}{}", kServerPrefix, px));
  }
  std::string out = csv_line(header);
  for (const auto& f : trace.frames) {
    assert(f.index >= 0 && f.size_bytes.size() == trace.resolutions_px.size());
    std::vector<std::string> row{f.video, std::to_string(f.index), fmt::format("{:.6f}", f.confidence),
                                 f.correct ? "1" : "0"};
    for (std::size_t r = 0; r < trace.resolutions_px.size(); ++r) {
      row.push_back(fmt::format("{}", f.size_bytes.at(r)));
      row.push_back(f.server_correct.at(r) ? "1" : "0");
    }
    out += csv_line(row);
  }
  return out;
}

}  // namespace coinfer::cbo
