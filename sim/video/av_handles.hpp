#pragma once
// Private to sim/video: owning handles for FFmpeg objects and FFmpeg's error text. Only the .cpp files of
// this folder include it, so FFmpeg's headers stay out of the public ones.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
}

#include <memory>
#include <string>

namespace coinfer::video::av {

struct FrameFree {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct CodecFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FormatClose {
  void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};
struct ScaleFree {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};

using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecFree>;
using FormatPtr = std::unique_ptr<AVFormatContext, FormatClose>;
using ScalePtr = std::unique_ptr<SwsContext, ScaleFree>;

/// FFmpeg's text for an AVERROR code ("Invalid data found when processing input").
inline std::string error_text(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

/// Silences FFmpeg's logging (x264's banner and statistics, swscale's notes): library code never prints,
/// and every failure that matters comes back as a return code.
inline void quiet_logs() { av_log_set_level(AV_LOG_QUIET); }

/// A fresh frame (throws std::bad_alloc when FFmpeg cannot allocate one).
inline FramePtr make_frame() {
  FramePtr f(av_frame_alloc());
  if (!f) throw std::bad_alloc();
  return f;
}
inline PacketPtr make_packet() {
  PacketPtr p(av_packet_alloc());
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace coinfer::video::av
