#include "sim/video/motion_vectors.hpp"

#include <algorithm>
#include <cmath>

extern "C" {
#include <libavutil/motion_vector.h>
#include <libavutil/opt.h>
}

#include "sim/core/error.hpp"
#include "sim/video/av_handles.hpp"

namespace coinfer::video {
namespace {

av::CodecPtr open_decoder() {
  const AVCodec* codec = avcodec_find_decoder(AV_CODEC_ID_H264);
  if (codec == nullptr) throw Error("libavcodec was built without an H.264 decoder");
  av::CodecPtr c(avcodec_alloc_context3(codec));
  if (!c) throw std::bad_alloc();
  c->thread_count = 1;
  av_opt_set(c.get(), "flags2", "+export_mvs", 0);
  if (const int rc = avcodec_open2(c.get(), codec, nullptr); rc < 0)
    throw Error("H.264 decoder did not open: " + av::error_text(rc));
  return c;
}

std::vector<BlockMotion> block_motion(const AVFrame& f) {
  std::vector<BlockMotion> out;
  const AVFrameSideData* sd = av_frame_get_side_data(&f, AV_FRAME_DATA_MOTION_VECTORS);
  if (sd == nullptr) return out;
  const auto* mv = reinterpret_cast<const AVMotionVector*>(sd->data);
  const std::size_t n = sd->size / sizeof(AVMotionVector);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    // src = dst + motion / scale: the block's content came from src, so it moved by -(motion / scale).
    const double scale = mv[i].motion_scale > 0 ? mv[i].motion_scale : 1.0;
    out.push_back(
        {mv[i].w, mv[i].h, mv[i].dst_x, mv[i].dst_y, -mv[i].motion_x / scale, -mv[i].motion_y / scale});
  }
  return out;
}

Plane copy_luma(const AVFrame& f) {
  Plane p(f.width, f.height);
  for (int y = 0; y < f.height; ++y)
    std::copy_n(f.data[0] + static_cast<std::ptrdiff_t>(y) * f.linesize[0], f.width,
                p.data.begin() + static_cast<std::ptrdiff_t>(y) * f.width);
  return p;
}

}  // namespace

MotionSummary summarize_motion(const std::vector<BlockMotion>& blocks) {
  double weighted = 0.0, area = 0.0;
  for (const auto& b : blocks) {
    const double a = static_cast<double>(b.width) * b.height;
    weighted += a * std::hypot(b.dx_px, b.dy_px);
    area += a;
  }
  return {area > 0.0 ? weighted / area : 0.0, blocks.size()};
}

struct MotionDecoder::Impl {
  av::CodecPtr codec = open_decoder();
  av::PacketPtr packet = av::make_packet();
  av::FramePtr frame = av::make_frame();

  std::vector<DecodedFrame> drain() {
    std::vector<DecodedFrame> out;
    while (true) {
      const int rc = avcodec_receive_frame(codec.get(), frame.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return out;
      if (rc < 0) throw Error("H.264 decoder: " + av::error_text(rc));
      const AVFrame& f = *frame;
      out.push_back({f.pts, f.pict_type == AV_PICTURE_TYPE_I ? 'I' : 'P', copy_luma(f), block_motion(f)});
      av_frame_unref(frame.get());
    }
  }
};

MotionDecoder::MotionDecoder() : impl_(std::make_unique<Impl>()) {}
MotionDecoder::~MotionDecoder() = default;

std::vector<DecodedFrame> MotionDecoder::decode(const EncodedFrame& frame) {
  AVPacket& p = *impl_->packet;
  p.data = const_cast<std::uint8_t*>(frame.data.data());
  p.size = static_cast<int>(frame.data.size());
  p.pts = frame.index;
  p.dts = frame.index;
  p.flags = frame.key ? AV_PKT_FLAG_KEY : 0;
  const int rc = avcodec_send_packet(impl_->codec.get(), &p);  // not refcounted: libavcodec copies it
  p.data = nullptr;
  p.size = 0;
  if (rc < 0) throw Error("H.264 decoder: " + av::error_text(rc));
  return impl_->drain();
}

std::vector<DecodedFrame> MotionDecoder::flush() {
  avcodec_send_packet(impl_->codec.get(), nullptr);
  return impl_->drain();
}

}  // namespace coinfer::video
