// `coinfer trace-info FILE --format F [--start-s S] [--scale X] [--bin-ms N] [--csv OUT.csv]
// [--png OUT.png]`: reads a bandwidth trace in one of the public formats
// (sim/platform/trace_formats.hpp) as a scenario would (start offset and scale applied; a trace
// with a period is seen over one period) and prints its duration, the time-weighted mean rate,
// min, p5/p50/p95 and max (Mbit/s), and the number of points. `--csv` writes the schedule
// (`time_s,rate_mbps`, one row per point: the rate holds until the next row); `--png` a step plot
// of rate over time, 640 x 240 px, black on white, no text: x spans [0, duration], y [0, max rate]
// (both printed), each pixel column drawn from the least to the greatest rate in force during it.
#include <png.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/platform/trace_formats.hpp"
#include "sim/platform/trace_window.hpp"

namespace coinfer::cli {
namespace {

struct TraceInfoOptions {
  std::string file;
  std::string format;
  double start_s = 0.0;
  double scale = 1.0;
  int bin_ms = TraceReadOptions{}.bin_ms;
  bool bin_ms_given = false;
  std::string csv;
  std::string png;
};

constexpr int kPlotWidth = 640, kPlotHeight = 240;

std::string mbps(double bps) { return fmt::format("{:.6g}", bps / 1e6); }

std::string schedule_csv(const TraceSchedule& s) {
  std::string out = "time_s,rate_mbps\n";
  for (const auto& [t, r] : s.points) out += fmt::format("{:.9g},{:.9g}\n", t, r / 1e6);
  return out;
}

// Grey image rows, 255 = white; rows top to bottom, so rate 0 is the bottom row.
std::vector<unsigned char> plot_pixels(const TraceSchedule& s, double duration_s, double max_bps) {
  std::vector<unsigned char> img(static_cast<std::size_t>(kPlotWidth) * kPlotHeight, 255);
  const auto row_of = [&](double bps) {
    const double y = max_bps > 0.0 ? bps / max_bps : 0.0;
    return std::clamp(kPlotHeight - 1 - static_cast<int>(y * (kPlotHeight - 1) + 0.5), 0, kPlotHeight - 1);
  };
  const auto& p = s.points;
  std::size_t k = 0;
  for (int x = 0; x < kPlotWidth; ++x) {
    const double t0 = duration_s * x / kPlotWidth, t1 = duration_s * (x + 1) / kPlotWidth;
    while (k + 1 < p.size() && p[k + 1].first <= t0) ++k;
    double lo = p[k].second, hi = lo;
    for (std::size_t j = k + 1; j < p.size() && p[j].first < t1; ++j) {
      lo = std::min(lo, p[j].second);
      hi = std::max(hi, p[j].second);
    }
    for (int y = row_of(hi); y <= row_of(lo); ++y) img[static_cast<std::size_t>(y) * kPlotWidth + x] = 0;
  }
  return img;
}

void write_png(const std::string& path, const std::vector<unsigned char>& pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = kPlotWidth;
  image.height = kPlotHeight;
  image.format = PNG_FORMAT_GRAY;
  if (!png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), kPlotWidth, nullptr))
    throw InputError("", "--png", fmt::format("cannot write '{}': {}", path, image.message));
}

void run_trace_info(const TraceInfoOptions& o) {
  const auto format = trace_format_from_name(o.format, "--format");
  if (!(o.scale > 0.0)) throw InputError("", "--scale", "expected a factor > 0");
  if (o.bin_ms_given && format != TraceFormat::Mahimahi)
    throw InputError("", "--bin-ms", "applies to --format mahimahi only");
  const TraceSchedule read = read_trace_file(o.file, format, {o.bin_ms});
  TraceWindow w;
  w.start_s = o.start_s;
  w.scale = o.scale;
  w.loop = read.period_s > 0.0;  // seen over one period, as a looping link sees it
  const TraceSchedule s = apply_trace_window(read, w);
  const TraceStats st = trace_stats(s);
  std::cout << fmt::format("{}: format {}{}, start {} s, scale {}\n", o.file, o.format,
                           format == TraceFormat::Mahimahi ? fmt::format(" ({} ms bins)", o.bin_ms) : "",
                           o.start_s, o.scale);
  std::cout << fmt::format("duration {} s ({}), {} points\n", st.duration_s,
                           s.period_s > 0.0 ? "the trace's period" : "to its last point", st.points);
  std::cout << fmt::format("rate Mbit/s (time-weighted): mean {}, min {}, p5 {}, p50 {}, p95 {}, max {}\n",
                           mbps(st.mean_bps), mbps(st.min_bps), mbps(st.p5_bps), mbps(st.p50_bps),
                           mbps(st.p95_bps), mbps(st.max_bps));
  if (!o.csv.empty()) {
    write_file_atomic(o.csv, schedule_csv(s));
    std::cout << fmt::format("wrote {} ({} rows)\n", o.csv, s.points.size());
  }
  if (!o.png.empty()) {
    write_png(o.png, plot_pixels(s, st.duration_s > 0.0 ? st.duration_s : 1.0, st.max_bps));
    std::cout << fmt::format("wrote {} ({}x{} px: x 0 to {} s, y 0 to {} Mbit/s)\n", o.png, kPlotWidth,
                             kPlotHeight, st.duration_s > 0.0 ? st.duration_s : 1.0, mbps(st.max_bps));
  }
}

}  // namespace

void add_trace_info_command(CLI::App& app) {
  auto o = std::make_shared<TraceInfoOptions>();
  auto* cmd =
      app.add_subcommand("trace-info", "Summarise a bandwidth trace (mahimahi, pensieve, fcc, hsdpa, ...)");
  cmd->add_option("file", o->file, "Trace file")->required();
  cmd->add_option("--format", o->format, fmt::format("{}", fmt::join(trace_format_names(), " | ")))
      ->required();
  cmd->add_option("--start-s", o->start_s, "Trace time that becomes time 0")
      ->capture_default_str()
      ->check(non_negative());
  cmd->add_option("--scale", o->scale, "Factor on every rate")->capture_default_str();
  cmd->add_option("--bin-ms", o->bin_ms, "mahimahi: rate bin width in ms")
      ->capture_default_str()
      ->check(integer_in(1, 3600000));  // as a platform's bin_ms
  cmd->add_option("--csv", o->csv, "Write the schedule as CSV: time_s,rate_mbps");
  cmd->add_option("--png", o->png, "Write a step plot of rate over time (PNG)");
  auto* bin = cmd->get_option("--bin-ms");
  cmd->callback([o, bin] {
    o->bin_ms_given = bin->count() > 0;
    run_trace_info(*o);
  });
}

}  // namespace coinfer::cli
