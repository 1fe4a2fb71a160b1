#include "sim/video/clip_reader.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/video/av_handles.hpp"

namespace coinfer::video {
namespace {

// Throws the one-line error of a file FFmpeg cannot read as pictures.
[[noreturn]] void not_video(const std::string& path, const std::string& why) {
  throw InputError(path, "", "expected a video clip or an image FFmpeg can decode; " + why);
}

av::FormatPtr open_format(const std::string& path) {
  av::quiet_logs();
  AVFormatContext* raw = nullptr;
  if (const int rc = avformat_open_input(&raw, path.c_str(), nullptr, nullptr); rc < 0)
    not_video(path, av::error_text(rc));
  av::FormatPtr f(raw);
  if (const int rc = avformat_find_stream_info(f.get(), nullptr); rc < 0) not_video(path, av::error_text(rc));
  return f;
}

// The video stream's index. FFmpeg's "tty" demuxer shows any text file as ANSI art: not a picture.
int video_stream(AVFormatContext* f, const std::string& path) {
  const int index = av_find_best_stream(f, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (index < 0) not_video(path, "it has no video stream");
  if (f->streams[index]->codecpar->codec_id == AV_CODEC_ID_ANSI)
    not_video(path, "FFmpeg reads it only as text (ANSI art)");
  return index;
}

av::CodecPtr open_decoder(const AVStream* stream, const std::string& path) {
  const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
  if (codec == nullptr) not_video(path, "no decoder for its codec");
  av::CodecPtr c(avcodec_alloc_context3(codec));
  if (!c) throw std::bad_alloc();
  avcodec_parameters_to_context(c.get(), stream->codecpar);
  c->thread_count = 1;                 // one thread: the same frames in the same order on every run
  c->flags |= AV_CODEC_FLAG_BITEXACT;  // the reference IDCT: the same pixels on every CPU
  if (const int rc = avcodec_open2(c.get(), codec, nullptr); rc < 0) not_video(path, av::error_text(rc));
  return c;
}

// Scales `src` into `dst`'s planes (their sizes and format are dst's); `ctx` is reused while it fits.
void scale_into(SwsContext*& ctx, const AVFrame& src, AVPixelFormat dst_format, Picture& dst) {
  ctx = sws_getCachedContext(ctx, src.width, src.height, static_cast<AVPixelFormat>(src.format), dst.y.width,
                             dst.y.height, dst_format, SWS_BILINEAR | SWS_ACCURATE_RND | SWS_BITEXACT,
                             nullptr, nullptr, nullptr);
  if (ctx == nullptr) throw Error("libswscale: cannot convert this frame's pixel format");
  std::uint8_t* planes[4] = {dst.y.data.data(), dst.u.data.data(), dst.v.data.data(), nullptr};
  const int strides[4] = {dst.y.width, dst.u.width, dst.v.width, 0};
  sws_scale(ctx, src.data, src.linesize, 0, src.height, planes, strides);
}

}  // namespace

struct ClipReader::Impl {
  std::string path;
  std::vector<Size> sizes;
  av::FormatPtr format;
  int stream = -1;
  av::CodecPtr decoder;
  av::PacketPtr packet = av::make_packet();
  av::FramePtr frame = av::make_frame();
  std::vector<SwsContext*> scalers;
  bool flushed = false;

  ~Impl() {
    for (auto* s : scalers) sws_freeContext(s);
  }

  // Feeds the decoder one packet of the stream (or the end-of-stream flush); false when already flushed.
  bool feed() {
    if (flushed) return false;
    while (true) {
      const int rc = av_read_frame(format.get(), packet.get());
      if (rc < 0) {
        flushed = true;
        avcodec_send_packet(decoder.get(), nullptr);
        return true;
      }
      const bool ours = packet->stream_index == stream;
      const int sent = ours ? avcodec_send_packet(decoder.get(), packet.get()) : 0;
      av_packet_unref(packet.get());
      if (sent < 0 && sent != AVERROR_INVALIDDATA)
        throw InputError(path, "", "decoding failed: " + av::error_text(sent));
      if (ours) return true;
    }
  }

  // The next decoded frame in `frame`, or false at the end.
  bool decode() {
    while (true) {
      const int rc = avcodec_receive_frame(decoder.get(), frame.get());
      if (rc == 0) return true;
      if (rc == AVERROR_EOF) return false;
      if (rc != AVERROR(EAGAIN)) throw InputError(path, "", "decoding failed: " + av::error_text(rc));
      if (!feed()) return false;
    }
  }
};

ClipReader::ClipReader(const std::string& path, std::vector<Size> sizes) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->sizes = std::move(sizes);
  impl_->format = open_format(path);
  impl_->stream = video_stream(impl_->format.get(), path);
  impl_->decoder = open_decoder(impl_->format->streams[impl_->stream], path);
  impl_->scalers.assign(impl_->sizes.size(), nullptr);
}

ClipReader::~ClipReader() = default;

Size ClipReader::source_size() const { return {impl_->decoder->width, impl_->decoder->height}; }

std::optional<std::vector<Picture>> ClipReader::next() {
  if (!impl_->decode()) return std::nullopt;
  std::vector<Picture> out;
  out.reserve(impl_->sizes.size());
  for (std::size_t k = 0; k < impl_->sizes.size(); ++k) {
    out.emplace_back(impl_->sizes[k]);
    scale_into(impl_->scalers[k], *impl_->frame, AV_PIX_FMT_YUV420P, out.back());
  }
  av_frame_unref(impl_->frame.get());
  return out;
}

Picture read_still_yuv444(const std::string& path) {
  ClipReader reader(path, {});
  if (!reader.impl_->decode()) not_video(path, "it holds no frame");
  const AVFrame& f = *reader.impl_->frame;
  Picture p;
  p.y = Plane(f.width, f.height);
  p.u = Plane(f.width, f.height);
  p.v = Plane(f.width, f.height);
  SwsContext* ctx = nullptr;
  scale_into(ctx, f, AV_PIX_FMT_YUV444P, p);
  sws_freeContext(ctx);
  return p;
}

}  // namespace coinfer::video
