#include "schedulers/cbo/frame_trace.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/csv_table.hpp"

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
  const CsvHeader h(header, file);
  Columns out;
  out.video = h.optional("video");
  out.frame = h.optional("frame");
  out.confidence = h.required("confidence");
  out.correct = h.required("correct");
  // px -> column of size_bytes_<px> / server_correct_<px>; `size_bytes_090` and `size_bytes_90`
  // would name the same resolution twice.
  std::map<int, std::size_t> size, server;
  for (std::size_t c = 0; c < header.cells.size(); ++c)
    for (auto [prefix, columns] : {std::pair{kSizePrefix, &size}, std::pair{kServerPrefix, &server}})
      if (const int px = resolution_of(header.cells[c], prefix); px != 0 && !columns->emplace(px, c).second)
        h.fail(fmt::format("two {} columns name resolution {}", prefix, px));
  auto unmatched = [&](const std::map<int, std::size_t>& from, const std::map<int, std::size_t>& to,
                       std::string_view to_prefix) {
    for (const auto& [px, c] : from)
      if (!to.count(px))
        h.fail(fmt::format("column '{}' has no matching '{}{}'", header.cells[c], to_prefix, px));
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

TraceFrame read_frame(const CsvCells& r, const Columns& cols, std::size_t line) {
  TraceFrame f;
  f.line = line;
  if (cols.video) f.video = r.text(*cols.video);
  if (cols.frame)
    f.index = static_cast<std::int64_t>(
        r.integer(*cols.frame, 0, "an integer >= 0", std::numeric_limits<std::int64_t>::max()));
  f.confidence = r.number(cols.confidence, 0, 1, "a number in [0, 1]");
  f.correct = r.flag(cols.correct);
  for (std::size_t k = 0; k < cols.resolutions_px.size(); ++k) {
    f.size_bytes.push_back(r.number(cols.size[k], 0, HUGE_VAL, "a number of bytes > 0", true));
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
  const CsvTable table = parse_csv_table(text, file, "frames");
  const Columns cols = find_columns(table.header, file);
  FrameTrace trace;
  trace.resolutions_px = cols.resolutions_px;
  for (const CsvRecord& row : table.rows)
    trace.frames.push_back(read_frame(CsvCells(row, table.header, file), cols, row.line));
  return trace;
}

FrameTrace read_frame_trace(const std::string& path) {
  return parse_frame_trace(read_data_file(path, "a trace CSV file"), path);
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
