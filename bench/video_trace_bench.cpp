// Speed of a video trace (sim/video/video_trace.hpp) at 1280x960 on one thread: frames per second of the
// whole chain (a synthetic pan over scikit-learn's china.jpg, or a clip with --clip; x264 veryfast, GoP
// 30; the decode with motion vectors; eq. 4.2 and feedback masks), its ratio to 30 fps (target >= 1: a
// trace as fast as a camera), and against the reference measured in the same run: decoding the same
// stream alone (libavcodec's H.264 decoder with +export_mvs), the least any trace of motion vectors costs.
// Medians over the repeats; each repeat runs the whole chain once. The CPU time of the chain is printed
// too: on a machine whose cores other processes share, wall time understates the speed.
//
//     build/bench/video_trace_bench [--repeats R] [--frames N] [--clip PATH]
#include <time.h>
#include <algorithm>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "process_measure.hpp"
#include "sim/core/error.hpp"
#include "sim/video/clip_reader.hpp"
#include "sim/video/motion_vectors.hpp"
#include "sim/video/pan_source.hpp"
#include "sim/video/video_trace.hpp"

namespace {

using namespace coinfer::video;
using Clock = std::chrono::steady_clock;

const Size kSize{1280, 960};
const char* const kChina = "/usr/lib/python3/dist-packages/sklearn/datasets/images/china.jpg";

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// This process's CPU seconds (one thread runs everything): unlike wall time, not inflated when other
// processes share the cores.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::unique_ptr<FrameSource> open_source(const std::string& clip, int frames) {
  if (!clip.empty()) return std::make_unique<ClipReader>(clip, std::vector<Size>{kSize});
  // 2 px/frame across a 320x240 window: 8 px/frame at 1280x960.
  return std::make_unique<PanSource>(
      read_still_yuv444(kChina), PanOptions{{{frames, 2.0, 0.5}}, {320, 240}, 1.0}, std::vector<Size>{kSize});
}

// The source's frames encoded at kSize as the trace encodes them, for the decode-only reference.
std::vector<EncodedFrame> encode_all(FrameSource& source, int frames) {
  H264Encoder encoder(kSize, EncoderSettings{});
  std::vector<EncodedFrame> out;
  for (int i = 0; i < frames; ++i) {
    auto p = source.next();
    if (!p) break;
    for (auto& e : encoder.encode((*p)[0], i)) out.push_back(std::move(e));
  }
  for (auto& e : encoder.flush()) out.push_back(std::move(e));
  return out;
}

double decode_seconds(const std::vector<EncodedFrame>& stream) {
  const auto t0 = Clock::now();
  MotionDecoder decoder;
  for (const auto& e : stream) decoder.decode(e);
  decoder.flush();
  return seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3, frames = 90;
  std::string clip;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--frames") == 0) frames = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--clip") == 0) clip = argv[i + 1];
  }
  if (repeats < 1 || frames < 2) {
    std::fprintf(stderr, "usage: video_trace_bench [--repeats R >= 1] [--frames N >= 2] [--clip PATH]\n");
    return 2;
  }
  try {
    std::vector<double> trace_s, trace_cpu_s, decode_s;
    std::size_t traced = 0, decoded = 0;
    for (int r = 0; r < repeats; ++r) {
      VideoTraceOptions o;
      o.sizes = {kSize};
      o.max_frames = frames;
      auto source = open_source(clip, frames);
      const auto t0 = Clock::now();
      const double c0 = cpu_seconds();
      traced = make_video_trace(*source, o).rows.size();
      trace_cpu_s.push_back(cpu_seconds() - c0);
      trace_s.push_back(seconds_since(t0));
      auto again = open_source(clip, frames);
      const auto stream = encode_all(*again, frames);
      decoded = stream.size();
      decode_s.push_back(decode_seconds(stream));
    }
    const double per_trace = coinfer::bench::median(trace_s) / static_cast<double>(traced);
    const double per_trace_cpu = coinfer::bench::median(trace_cpu_s) / static_cast<double>(traced);
    const double per_decode = coinfer::bench::median(decode_s) / static_cast<double>(decoded);
    std::printf("video trace at %dx%d, one thread, %zu frames of %s; median over %d runs\n", kSize.width,
                kSize.height, traced, clip.empty() ? "a 2 px/frame pan over china.jpg" : clip.c_str(),
                repeats);
    std::printf("make-trace: %.2f ms per frame, %.1f fps (CPU time: %.2f ms per frame, %.1f fps)\n",
                1e3 * per_trace, 1.0 / per_trace, 1e3 * per_trace_cpu, 1.0 / per_trace_cpu);
    std::printf("decode alone (H.264 + motion vectors): %.2f ms per frame\n", 1e3 * per_decode);
    std::printf("ratio make-trace fps / 30 fps: %.3f (target >= 1; on CPU time %.3f)\n",
                1.0 / per_trace / 30.0, 1.0 / per_trace_cpu / 30.0);
    std::printf("ratio make-trace / decode time per frame: %.3f\n", per_trace / per_decode);
    return 0;
  } catch (const coinfer::Error& e) {
    std::fprintf(stderr, "video_trace_bench: %s\n", e.what());
    return 2;
  }
}
