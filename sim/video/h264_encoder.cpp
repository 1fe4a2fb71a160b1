#include "sim/video/h264_encoder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

extern "C" {
#include <libavutil/opt.h>
}

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/error.hpp"
#include "sim/video/av_handles.hpp"

namespace coinfer::video {
namespace {

// x264's presets (x264_preset_names), checked here: x264 itself would print its complaint to stderr.
constexpr std::array<std::string_view, 10> kPresets{"ultrafast", "superfast", "veryfast", "faster",
                                                    "fast",      "medium",    "slow",     "slower",
                                                    "veryslow",  "placebo"};

}  // namespace

void check_encoder_settings(const EncoderSettings& s) {
  if (std::find(kPresets.begin(), kPresets.end(), s.preset) == kPresets.end())
    throw InputError("", "--preset",
                     fmt::format("expected one of {}; got '{}'", fmt::join(kPresets, ", "), s.preset));
  if (s.gop < 1) throw InputError("", "--gop", fmt::format("expected an integer >= 1, got {}", s.gop));
  if (!(s.crf >= 0.0 && s.crf <= 51.0))
    throw InputError("", "--crf", fmt::format("expected a number in [0, 51], got {}", s.crf));
  if (s.bitrate_kbps < 0)
    throw InputError("", "--bitrate-kbps", fmt::format("expected an integer >= 1, got {}", s.bitrate_kbps));
  if (!(s.fps > 0.0 && s.fps <= 1000.0))
    throw InputError("", "--fps", fmt::format("expected a number in (0, 1000], got {}", s.fps));
}

namespace {

// x264's own parameters, which libavcodec applies last: they pin what MobiEye's stream needs whatever the
// preset says.
std::string x264_params(const EncoderSettings& s) {
  return fmt::format("keyint={0}:min-keyint={0}:scenecut=0:bframes=0:ref=1:threads=1:sliced-threads=0",
                     s.gop);
}

av::CodecPtr open_encoder(Size size, const EncoderSettings& s) {
  const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
  if (codec == nullptr) throw Error("libavcodec was built without libx264");
  av::CodecPtr c(avcodec_alloc_context3(codec));
  if (!c) throw std::bad_alloc();
  c->width = size.width;
  c->height = size.height;
  c->pix_fmt = AV_PIX_FMT_YUV420P;
  const int fps_milli = static_cast<int>(std::lround(s.fps * 1000.0));
  c->time_base = AVRational{1000, fps_milli};
  c->framerate = AVRational{fps_milli, 1000};
  c->gop_size = s.gop;
  c->keyint_min = s.gop;
  c->max_b_frames = 0;
  c->refs = 1;
  c->thread_count = 1;
  if (s.bitrate_kbps > 0) c->bit_rate = static_cast<std::int64_t>(s.bitrate_kbps) * 1000;
  av_opt_set(c->priv_data, "preset", s.preset.c_str(), 0);
  if (s.bitrate_kbps == 0) av_opt_set_double(c->priv_data, "crf", s.crf, 0);
  av_opt_set(c->priv_data, "x264-params", x264_params(s).c_str(), 0);
  if (const int rc = avcodec_open2(c.get(), codec, nullptr); rc < 0)
    throw Error("libx264 did not open: " + av::error_text(rc));
  return c;
}

}  // namespace

struct H264Encoder::Impl {
  av::CodecPtr codec;
  av::FramePtr frame = av::make_frame();
  av::PacketPtr packet = av::make_packet();

  // Every packet the encoder has ready.
  std::vector<EncodedFrame> drain() {
    std::vector<EncodedFrame> out;
    while (true) {
      const int rc = avcodec_receive_packet(codec.get(), packet.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return out;
      if (rc < 0) throw Error("libx264: " + av::error_text(rc));
      out.push_back({packet->pts, (packet->flags & AV_PKT_FLAG_KEY) != 0,
                     std::vector<std::uint8_t>(packet->data, packet->data + packet->size)});
      av_packet_unref(packet.get());
    }
  }
};

H264Encoder::H264Encoder(Size size, const EncoderSettings& settings) : impl_(std::make_unique<Impl>()) {
  check_encoder_settings(settings);
  av::quiet_logs();
  impl_->codec = open_encoder(size, settings);
}

H264Encoder::~H264Encoder() = default;

std::vector<EncodedFrame> H264Encoder::encode(const Picture& picture, std::int64_t index) {
  AVFrame& f = *impl_->frame;
  f.format = AV_PIX_FMT_YUV420P;
  f.width = picture.y.width;
  f.height = picture.y.height;
  // The picture's planes are borrowed: libx264 copies its input, so no reference outlives this call.
  const Plane* planes[3] = {&picture.y, &picture.u, &picture.v};
  for (int p = 0; p < 3; ++p) {
    f.data[p] = const_cast<std::uint8_t*>(planes[p]->data.data());
    f.linesize[p] = planes[p]->width;
  }
  f.pts = index;
  if (const int rc = avcodec_send_frame(impl_->codec.get(), &f); rc < 0)
    throw Error("libx264: " + av::error_text(rc));
  return impl_->drain();
}

std::vector<EncodedFrame> H264Encoder::flush() {
  avcodec_send_frame(impl_->codec.get(), nullptr);
  return impl_->drain();
}

}  // namespace coinfer::video
