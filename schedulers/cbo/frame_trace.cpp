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

constexpr std::string_view kSizePrefix = "size_bytes_", kServerPrefix = "server_correct_",
                           kScorePrefix = "score_";

// Where each known column sits in a row.
struct Columns {
  std::optional<std::size_t> video, frame;
  std::size_t confidence = 0, correct = 0;
  std::vector<int> resolutions_px;
  std::vector<std::size_t> size, server;  // per resolution
  std::optional<std::size_t> label;
  std::vector<std::size_t> score;  // per class
};

// The n of `<prefix><n>`, n written in decimal digits only (at most an int), or nothing.
std::optional<int> number_after(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return std::nullopt;
  name.remove_prefix(prefix.size());
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return n;
}

// The <px> of `size_bytes_<px>` / `server_correct_<px>` (>= 1, leading zeros allowed), or 0 when
// `name` is not one of them.
int resolution_of(std::string_view name, std::string_view prefix) {
  const auto px = number_after(name, prefix);
  return px && *px >= 1 ? *px : 0;
}

// The <k> of `score_<k>` (written without leading zero), or -1.
int class_of(std::string_view name) {
  const auto k = number_after(name, kScorePrefix);
  const bool canonical = name.size() == kScorePrefix.size() + 1 || name[kScorePrefix.size()] != '0';
  return k && canonical ? *k : -1;
}

// The feature vector's columns: score_0 ... score_<N-1>, N >= 2, with a label column.
void find_feature_columns(const CsvRecord& header, const CsvHeader& h, Columns& out) {
  std::map<int, std::size_t> score;
  for (std::size_t c = 0; c < header.cells.size(); ++c)
    if (const int k = class_of(header.cells[c]); k >= 0) score.emplace(k, c);
  out.label = h.optional("label");
  if (score.empty() && !out.label) return;
  if (score.empty()) h.fail("column 'label' comes with the feature vector columns score_0, score_1, ...");
  if (!out.label) h.fail("the feature vector columns score_<k> need a 'label' column (the true class)");
  const int n = static_cast<int>(score.size());
  if (n < 2 || score.rbegin()->first != n - 1)
    h.fail(
        fmt::format("expected the feature vector columns score_0 ... score_<N-1> with N >= 2, got {} "
                    "columns up to score_{}",
                    n, score.rbegin()->first));
  for (const auto& [k, c] : score) out.score.push_back(c);
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
  find_feature_columns(header, h, out);
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
  if (cols.label) {
    const std::size_t n = cols.score.size();
    f.label =
        static_cast<std::int64_t>(r.integer(*cols.label, 0, fmt::format("a class in [0, {}]", n - 1), n - 1));
    for (const std::size_t c : cols.score)
      f.scores.push_back(r.number(c, -HUGE_VAL, HUGE_VAL, "a finite number"));
  }
  return f;
}

}  // namespace

ScoredFrames FrameTrace::local() const {
  ScoredFrames out;
  for (const auto& f : frames) {
    out.confidence.push_back(f.confidence);
    out.correct.push_back(f.correct ? 1 : 0);
    if (classes > 0) {
      out.scores.push_back(f.scores);
      out.labels.push_back(f.label);
    }
  }
  return out;
}

FrameTrace parse_frame_trace(const std::string& text, const std::string& file) {
  const CsvTable table = parse_csv_table(text, file, "frames");
  const Columns cols = find_columns(table.header, file);
  FrameTrace trace;
  trace.resolutions_px = cols.resolutions_px;
  trace.classes = cols.score.size();
  for (const CsvRecord& row : table.rows)
    trace.frames.push_back(read_frame(CsvCells(row, table.header, file), cols, row.line));
  return trace;
}

FrameTrace read_frame_trace(const std::string& path) {
  return parse_frame_trace(read_data_file(path, "a trace CSV file"), path);
}

void require_feature_vectors(const FrameTrace& trace, const std::string& file, const std::string& method) {
  if (trace.classes == 0)
    throw InputError(
        file, "line 1",
        fmt::format("calibration '{}' needs the feature vector columns score_0 ... score_<N-1> and "
                    "label (`coinfer make-trace digits` writes them); this trace has none",
                    method));
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
  if (trace.classes > 0) header.push_back("label");
  for (std::size_t k = 0; k < trace.classes; ++k) header.push_back(fmt::format("{}{}", kScorePrefix, k));
  std::string out = csv_line(header);
  for (const auto& f : trace.frames) {
    assert(f.index >= 0 && f.size_bytes.size() == trace.resolutions_px.size());
    std::vector<std::string> row{f.video, std::to_string(f.index), fmt::format("{:.6f}", f.confidence),
                                 f.correct ? "1" : "0"};
    for (std::size_t r = 0; r < trace.resolutions_px.size(); ++r) {
      row.push_back(fmt::format("{}", f.size_bytes.at(r)));
      row.push_back(f.server_correct.at(r) ? "1" : "0");
    }
    if (trace.classes > 0) {
      assert(f.scores.size() == trace.classes && f.label >= 0 &&
             static_cast<std::size_t>(f.label) < trace.classes);
      row.push_back(std::to_string(f.label));
      for (const double x : f.scores) row.push_back(fmt::format("{:.6f}", x));
    }
    out += csv_line(row);
  }
  return out;
}

}  // namespace coinfer::cbo
