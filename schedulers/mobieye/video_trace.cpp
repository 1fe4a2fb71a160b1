#include "schedulers/mobieye/video_trace.hpp"

#include <cassert>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/csv_table.hpp"

namespace coinfer::mobieye {
namespace {

constexpr std::string_view kBytesPrefix = "bytes_", kEncodePrefix = "host_encode_ms_";
constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// "320x240" -> {320, 240}; nullopt unless both sides are integers in [1, 65535].
std::optional<FrameSize> parse_size(std::string_view wxh) {
  auto side = [](std::string_view s) -> std::optional<int> {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 1 || v > 65535) return std::nullopt;
    return v;
  };
  const auto x = wxh.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const auto w = side(wxh.substr(0, x)), h = side(wxh.substr(x + 1));
  if (!w || !h) return std::nullopt;
  return FrameSize{*w, *h};
}

bool same_size(const FrameSize& a, const FrameSize& b) { return a.width == b.width && a.height == b.height; }

// Where each known column sits in a row.
struct Columns {
  std::size_t frame = 0, type = 0, motion_px = 0, mv_count = 0, mask_density = 0, feedback_density = 0;
  std::array<std::size_t, kMaskAges.size()> mask_by_age{};
  std::vector<FrameSize> sizes;
  std::vector<std::size_t> bytes;                       // per size
  std::vector<std::optional<std::size_t>> host_encode;  // per size
  std::optional<std::size_t> host_decode;
};

// The columns named `<prefix><W>x<H>`, by size, in header order.
std::vector<std::pair<FrameSize, std::size_t>> sized_columns(const CsvHeader& h, std::string_view prefix) {
  std::vector<std::pair<FrameSize, std::size_t>> out;
  for (std::size_t c = 0; c < h.names().size(); ++c) {
    std::string_view name = h.names()[c];
    if (!name.starts_with(prefix)) continue;
    const auto size = parse_size(name.substr(prefix.size()));
    if (!size)
      h.fail(fmt::format("column '{}': expected {}<W>x<H>, W and H integers in [1, 65535]", name, prefix));
    for (const auto& [seen, seen_column] : out)
      if (same_size(seen, *size))
        h.fail(fmt::format("columns '{}' and '{}' name the same size", h.names()[seen_column], name));
    out.emplace_back(*size, c);
  }
  return out;
}

Columns find_columns(const CsvRecord& header, const std::string& file) {
  const CsvHeader h(header, file);
  Columns out;
  out.frame = h.required("frame");
  out.type = h.required("type");
  out.motion_px = h.required("motion_px");
  out.mv_count = h.required("mv_count");
  out.mask_density = h.required("mask_density");
  out.feedback_density = h.required("feedback_density");
  for (std::size_t k = 0; k < kMaskAges.size(); ++k)
    out.mask_by_age[k] = h.required(fmt::format("mask_d{}", kMaskAges[k]));
  for (const auto& [size, c] : sized_columns(h, kBytesPrefix)) {
    out.sizes.push_back(size);
    out.bytes.push_back(c);
  }
  if (out.sizes.empty()) h.fail("missing column 'bytes_<W>x<H>' (at least one encoded size)");
  out.host_encode.assign(out.sizes.size(), std::nullopt);
  for (const auto& [size, c] : sized_columns(h, kEncodePrefix)) {
    std::size_t k = 0;
    while (k < out.sizes.size() && !same_size(out.sizes[k], size)) ++k;
    if (k == out.sizes.size())
      h.fail(
          fmt::format("column '{}' has no matching '{}{}'", header.cells[c], kBytesPrefix, size_name(size)));
    out.host_encode[k] = c;
  }
  out.host_decode = h.optional("host_decode_ms");
  return out;
}

VideoFrame read_frame(const CsvCells& r, const Columns& cols, std::size_t index, std::size_t line) {
  if (r.integer(cols.frame, 0, "the frame index") != index)
    r.fail(cols.frame,
           fmt::format("expected {} (rows are frames 0, 1, 2, ...), got '{}'", index, r.text(cols.frame)));
  VideoFrame f;
  f.line = line;
  const std::string& type = r.text(cols.type);
  if (type != "I" && type != "P") r.fail(cols.type, fmt::format("expected I or P, got '{}'", type));
  f.type = type[0];
  f.motion_px = r.number(cols.motion_px, 0, HUGE_VAL, "pixels >= 0");
  f.mv_count = static_cast<std::size_t>(r.integer(cols.mv_count, 0, "an integer >= 0"));
  f.mask_density = r.number(cols.mask_density, 0, 1, "a density in [0, 1]");
  f.feedback_density = r.number(cols.feedback_density, 0, 1, "a density in [0, 1]");
  for (std::size_t k = 0; k < kMaskAges.size(); ++k) {
    const std::size_t c = cols.mask_by_age[k];
    // The frame kMaskAges[k] earlier exists from frame kMaskAges[k] on; before it the cell may be empty.
    f.mask_by_age[k] =
        index < kMaskAges[k]
            ? r.number_or_nan(c, 0, 1, "a density in [0, 1] or empty")
            : r.number(c, 0, 1, fmt::format("a density in [0, 1] (frame >= {})", kMaskAges[k]));
  }
  for (std::size_t k = 0; k < cols.sizes.size(); ++k) {
    f.bytes.push_back(static_cast<double>(r.integer(cols.bytes[k], 1, "an integer number of bytes >= 1")));
    f.host_encode_ms.push_back(cols.host_encode[k]
                                   ? r.number_or_nan(*cols.host_encode[k], 0, HUGE_VAL, "milliseconds >= 0")
                                   : kNotMeasured);
  }
  f.host_decode_ms =
      cols.host_decode ? r.number_or_nan(*cols.host_decode, 0, HUGE_VAL, "milliseconds >= 0") : kNotMeasured;
  return f;
}

}  // namespace

std::string size_name(const FrameSize& size) { return fmt::format("{}x{}", size.width, size.height); }

std::size_t VideoTrace::size_index(const std::string& wxh, const std::string& key_path) const {
  if (const auto size = parse_size(wxh))
    for (std::size_t k = 0; k < sizes.size(); ++k)
      if (same_size(sizes[k], *size)) return k;
  std::string known;
  for (const auto& s : sizes) known += (known.empty() ? "" : ", ") + size_name(s);
  throw InputError("", key_path, fmt::format("expected one of the trace's sizes: {}; got '{}'", known, wxh));
}

double VideoTrace::mask_density_at_age(std::size_t frame, std::size_t age) const {
  assert(frame < frames.size());
  const auto& by_age = frames[frame].mask_by_age;
  // Points (0, 0) and (d, mask_d<d>) for the known cells with d <= frame; linear between, flat beyond.
  double prev_age = 0, prev_density = 0;
  for (std::size_t k = 0; k < kMaskAges.size(); ++k) {
    const auto d = kMaskAges[k];
    if (d > frame || std::isnan(by_age[k])) continue;
    if (age <= d) {
      const double t = (static_cast<double>(age) - prev_age) / (static_cast<double>(d) - prev_age);
      return std::lerp(prev_density, by_age[k], t);  // exact at t = 1, between the two values otherwise
    }
    prev_age = static_cast<double>(d);
    prev_density = by_age[k];
  }
  return prev_density;
}

std::vector<double> VideoTrace::motion() const {
  std::vector<double> out;
  out.reserve(frames.size());
  for (const auto& f : frames) out.push_back(f.motion_px);
  return out;
}

VideoTrace parse_video_trace(const std::string& text, const std::string& file) {
  const CsvTable table = parse_csv_table(text, file, "frames");
  const Columns cols = find_columns(table.header, file);
  VideoTrace trace;
  trace.sizes = cols.sizes;
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    trace.frames.push_back(
        read_frame(CsvCells(table.rows[r], table.header, file), cols, r, table.rows[r].line));
  return trace;
}

VideoTrace read_video_trace(const std::string& path) {
  return parse_video_trace(read_data_file(path, "a video trace CSV file"), path);
}

}  // namespace coinfer::mobieye
