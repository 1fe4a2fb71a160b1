#pragma once
/// Decodes an H.264 stream with libavcodec's `+export_mvs` and reads each frame's motion vectors
/// (AV_FRAME_DATA_MOTION_VECTORS side data): the vectors MobiEye's VDS averages [Mao-PhD §4.4.2].
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/video/h264_encoder.hpp"

namespace coinfer::video {

/// One inter-predicted block: its size and centre in the current frame (pixels) and its motion in
/// pixels (motion_x / motion_scale: the block's content moved by (dx_px, dy_px) since the reference).
struct BlockMotion {
  int width = 0, height = 0;
  int center_x = 0, center_y = 0;
  double dx_px = 0.0, dy_px = 0.0;
};

/// A decoded frame: index, type ('I' or 'P'), luma plane and motion vectors (none for I frames).
struct DecodedFrame {
  std::int64_t index = 0;
  char type = 'I';
  Plane luma;
  std::vector<BlockMotion> blocks;
};

/// Mean motion of a frame: area-weighted mean of |(dx, dy)| over its blocks (pixels; 0 with no blocks),
/// and how many vectors it has. Area weighting makes a 16x16 block count as much as its four 8x8 parts.
struct MotionSummary {
  double mean_px = 0.0;
  std::size_t count = 0;
};
/// Example: one 16x16 block moving (3, 4) and one 8x8 block still: (256 * 5 + 64 * 0) / 320 = 4 px.
MotionSummary summarize_motion(const std::vector<BlockMotion>& blocks);

class MotionDecoder {
 public:
  MotionDecoder();
  ~MotionDecoder();
  MotionDecoder(const MotionDecoder&) = delete;
  MotionDecoder& operator=(const MotionDecoder&) = delete;

  /// Decodes one encoded frame (in stream order) and returns the frames it completes.
  std::vector<DecodedFrame> decode(const EncodedFrame& frame);
  /// The frames still held back, at the end of the stream.
  std::vector<DecodedFrame> flush();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace coinfer::video
