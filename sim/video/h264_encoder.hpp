#pragma once
/// H.264 through libavcodec's libx264, set up as MobiEye streams video [Mao-PhD §4.4]: no B frames, one
/// reference frame (each P frame's motion vectors point at the previous frame), an I frame every `gop`
/// frames and never elsewhere (scenecut off), one thread (the same bytes on every run).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/video/picture.hpp"

namespace coinfer::video {

struct EncoderSettings {
  int gop = 30;          ///< frames per group of pictures: an I frame every `gop` frames, >= 1
  double crf = 23.0;     ///< constant rate factor (x264's quality scale, 0..51), used when bitrate_kbps == 0
  int bitrate_kbps = 0;  ///< average bitrate (one-pass ABR) in kbit/s; 0: rate control by CRF
  double fps = 30.0;     ///< frame rate the rate control assumes (matters for the bitrate mode)
  std::string preset = "veryfast";  ///< x264 preset
};

/// Throws InputError("", "--gop" / "--crf" / "--bitrate-kbps" / "--fps" / "--preset", ...) for a setting
/// out of range, before any file is read. Example: `check_encoder_settings(EncoderSettings{})`.
void check_encoder_settings(const EncoderSettings& settings);

/// One encoded frame: its 0-based index, whether it is an I frame, and its bytes.
struct EncodedFrame {
  std::int64_t index = 0;
  bool key = false;
  std::vector<std::uint8_t> data;
};

class H264Encoder {
 public:
  /// Throws InputError("", "--preset", ...) for a preset x264 does not know, InputError("", "--gop", ...)
  /// for gop < 1. Example: `H264Encoder enc({640, 480}, EncoderSettings{});`.
  H264Encoder(Size size, const EncoderSettings& settings);
  ~H264Encoder();
  H264Encoder(const H264Encoder&) = delete;
  H264Encoder& operator=(const H264Encoder&) = delete;

  /// Submits frame `index` (pictures must come in order, at the encoder's size) and returns the frames
  /// whose encoding finished (x264's lookahead holds a few back).
  std::vector<EncodedFrame> encode(const Picture& picture, std::int64_t index);
  /// The frames still held back, at the end of the stream.
  std::vector<EncodedFrame> flush();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace coinfer::video
