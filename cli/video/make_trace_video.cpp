// `coinfer make-trace video CLIP -o FILE` and `coinfer make-trace pan IMAGE -o FILE`: every frame of a
// clip, or of a synthetic pan over a still image, is encoded with x264 as MobiEye streams it, and the CSV
// holds per frame its type, motion vectors, mask densities and encoded bytes per size
// (docs/guide/video-traces.md). The same options give a byte-identical file unless --host-times is set.
#include "cli/video/make_trace_video.hpp"

#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/video/clip_reader.hpp"
#include "sim/video/pan_source.hpp"
#include "sim/video/video_trace.hpp"

namespace coinfer::cli {
namespace {

struct VideoCli {
  std::string input, output;
  std::vector<std::string> sizes{"640x480"};
  video::VideoTraceOptions o;
  double crf = -1.0;  // -1: not given (--crf and --bitrate-kbps exclude each other)
};

struct PanCli : VideoCli {
  double dx_px = 0.0, dy_px = 0.0;
  std::vector<std::string> speeds;
  std::string window = "320x240";
  double zoom = 1.0;
};

// The options both subcommands share: sizes, encoder, frame count, masks.
void add_trace_options(CLI::App& cmd, VideoCli& c) {
  cmd.add_option("--output,-o", c.output, "Trace CSV to write")->required();
  cmd.add_option("--size", c.sizes,
                 "Encoded sizes WxH (repeat or comma-separate); the first gives motion and masks")
      ->delimiter(',')
      ->allow_extra_args(false)  // one WxH list per --size: a positional after it stays positional
      ->capture_default_str();
  cmd.add_option("--gop", c.o.encoder.gop, "Frames per group of pictures (an I frame every N)")
      ->check(at_least_one())
      ->capture_default_str();
  auto* crf = cmd.add_option("--crf", c.crf, "x264 constant rate factor, 0..51 (default 23)")
                  ->check(number_in(0, 51));
  cmd.add_option("--bitrate-kbps", c.o.encoder.bitrate_kbps, "Average bitrate instead of CRF (kbit/s)")
      ->check(at_least_one())
      ->excludes(crf);
  cmd.add_option("--preset", c.o.encoder.preset, "x264 preset")->capture_default_str();
  cmd.add_option("--fps", c.o.encoder.fps, "Frame rate the rate control assumes")
      ->check(number_in(0.001, 1000))
      ->capture_default_str();
  cmd.add_option("--frames", c.o.max_frames, "Frames to trace (default: all)")->check(at_least_one());
  cmd.add_option("--threshold", c.o.threshold, "Eq. 4.2 brightness threshold (luma levels)")
      ->check(integer_in(1, 255))
      ->capture_default_str();
  cmd.add_option("--margin-px", c.o.margin_px, "Feedback mask margin in pixels")
      ->check(integer_in(0, 8192))
      ->capture_default_str();
  cmd.add_flag("--host-times", c.o.host_times, "Add wall-clock encode/decode columns (not reproducible)");
}

void prepare(VideoCli& c) {
  c.o.sizes.clear();
  for (const auto& s : c.sizes) c.o.sizes.push_back(video::parse_size(s, "--size"));
  if (c.crf >= 0.0) c.o.encoder.crf = c.crf;
  video::check_encoder_settings(c.o.encoder);  // before the input is read
}

void write_and_report(video::FrameSource& source, const VideoCli& c) {
  const auto trace = video::make_video_trace(source, c.o);
  write_file_atomic(c.output, video::format_video_trace(trace));
  double motion = 0.0;
  std::size_t p_frames = 0;
  for (const auto& r : trace.rows)
    if (r.type == 'P') motion += r.motion_px, ++p_frames;
  std::cout << fmt::format("{}: {} frames ({} P), GoP {}, {}; mean motion over P frames {:.2f} px at {}\n",
                           c.output, trace.rows.size(), p_frames, c.o.encoder.gop,
                           c.o.encoder.bitrate_kbps > 0 ? fmt::format("{} kbit/s", c.o.encoder.bitrate_kbps)
                                                        : fmt::format("crf {}", c.o.encoder.crf),
                           p_frames ? motion / p_frames : 0.0, to_string(c.o.sizes.front()));
  for (std::size_t k = 0; k < trace.sizes.size(); ++k) {
    double bytes = 0.0;
    for (const auto& r : trace.rows) bytes += static_cast<double>(r.bytes[k]);
    std::cout << fmt::format("{:>9}: mean {:.0f} bytes per frame\n", to_string(trace.sizes[k]),
                             bytes / static_cast<double>(trace.rows.size()));
  }
}

void add_video(CLI::App& parent) {
  auto c = std::make_shared<VideoCli>();
  auto* cmd = parent.add_subcommand("video", kVideoSummary);
  cmd->add_option("clip", c->input, "Video clip (or image) to read")->required();
  add_trace_options(*cmd, *c);
  cmd->callback([c] {
    prepare(*c);
    video::ClipReader reader(c->input, c->o.sizes);
    write_and_report(reader, *c);
  });
}

// "FRAMES:DX[:DY]" -> a segment; throws InputError("", "--speeds", ...).
video::PanSegment parse_segment(const std::string& text) {
  const auto bad = [&text] {
    return InputError("", "--speeds",
                      fmt::format("expected FRAMES:DX[:DY] with FRAMES an integer >= 1, got '{}'", text));
  };
  std::vector<double> v;
  for (std::size_t start = 0; start <= text.size();) {
    const auto end = std::min(text.find(':', start), text.size());
    double x = 0.0;
    const auto [p, ec] = std::from_chars(text.data() + start, text.data() + end, x);
    if (ec != std::errc() || p != text.data() + end) throw bad();
    v.push_back(x);
    start = end + 1;
  }
  if ((v.size() != 2 && v.size() != 3) || !(v[0] >= 1 && v[0] <= 1e7) || v[0] != std::floor(v[0]))
    throw bad();
  return {static_cast<int>(v[0]), v[1], v.size() == 3 ? v[2] : 0.0};
}

video::PanOptions pan_options(const PanCli& c) {
  video::PanOptions p;
  p.window = video::parse_size(c.window, "--window");
  p.zoom = c.zoom;
  for (const auto& s : c.speeds) p.segments.push_back(parse_segment(s));
  if (c.speeds.empty()) {
    if (c.o.max_frames == 0) throw InputError("", "--frames", "expected --frames N (or --speeds segments)");
    p.segments.push_back({static_cast<int>(c.o.max_frames), c.dx_px, c.dy_px});
  }
  return p;
}

void add_pan(CLI::App& parent) {
  auto c = std::make_shared<PanCli>();
  c->sizes = {"320x240"};
  auto* cmd = parent.add_subcommand("pan", kPanSummary);
  cmd->add_option("image", c->input, "Still image (JPEG, PNG, ...)")->required();
  add_trace_options(*cmd, *c);
  auto* dx =
      cmd->add_option("--dx", c->dx_px, "Pan speed in image pixels per frame, x")->capture_default_str();
  auto* dy =
      cmd->add_option("--dy", c->dy_px, "Pan speed in image pixels per frame, y")->capture_default_str();
  cmd->add_option("--speeds", c->speeds, "Segments FRAMES:DX[:DY], comma-separated, instead of --dx/--dy")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->excludes(dx)
      ->excludes(dy);
  cmd->add_option("--window", c->window,
                  "Crop window WxH in image pixels (motion at a size scales by size/window)")
      ->capture_default_str();
  cmd->add_option("--zoom", c->zoom, "Window shrink factor per frame (> 1 zooms in, between scale 1 and 1/2)")
      ->capture_default_str();
  cmd->callback([c] {
    prepare(*c);
    const auto options = pan_options(*c);
    video::PanSource pan(video::read_still_yuv444(c->input), options, c->o.sizes);
    write_and_report(pan, *c);
  });
}

}  // namespace

void add_make_trace_video(CLI::App& make_trace) {
  add_video(make_trace);
  add_pan(make_trace);
}

}  // namespace coinfer::cli
