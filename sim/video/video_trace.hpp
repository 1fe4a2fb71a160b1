#pragma once
/// A per-frame video trace for MobiEye [Mao-PhD §4.4-§4.6]: every frame of a source is encoded with x264 at
/// each size, the first size's stream is decoded again for its motion vectors, and the decoded luma gives
/// the masks' densities. format_video_trace() writes the CSV that docs/guide/video-traces.md describes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/video/frame_source.hpp"
#include "sim/video/h264_encoder.hpp"

namespace coinfer::video {

/// The frame distances of the mask_d<d> columns.
inline constexpr std::array<int, 6> kMaskDistances{1, 2, 4, 8, 16, 32};

struct VideoTraceOptions {
  std::vector<Size> sizes;  ///< one encode per size; the first gives the types, motion and masks
  EncoderSettings encoder;
  long max_frames = 0;      ///< 0: every frame of the source
  int threshold = 15;       ///< eq. 4.2's brightness threshold (luma levels)
  int margin_px = 64;       ///< the feedback mask's margin
  bool host_times = false;  ///< measure wall-clock encode/decode times (not reproducible)
};

struct VideoFrameRow {
  char type = 'I';
  double motion_px = 0.0;  ///< area-weighted mean |MV| at the first size (0 for I frames)
  std::size_t mv_count = 0;
  double mask_density = 0.0;  ///< eq. 4.2 against the last I frame (0 on I frames)
  double feedback_density = 0.0;
  std::array<std::optional<double>, kMaskDistances.size()> mask_d;  ///< eq. 4.2 against frame i - d
  std::vector<std::size_t> bytes;                                   ///< encoded bytes per size
  std::vector<double> encode_ms;                                    ///< per size, with host_times
  double decode_ms = 0.0;                                           ///< first size, with host_times
};

struct VideoTrace {
  std::vector<Size> sizes;
  bool host_times = false;
  std::vector<VideoFrameRow> rows;
};

/// Runs the whole chain over `source` (whose frames come at `options.sizes`). Throws InputError for bad
/// settings (see H264Encoder) or a threshold/margin out of range, and when the source gives no frame.
/// Example: `make_video_trace(pan, {.sizes = {{320, 240}}})`.
VideoTrace make_video_trace(FrameSource& source, const VideoTraceOptions& options);

/// The CSV: header `frame,type,motion_px,mv_count,mask_density,feedback_density,mask_d1,...,mask_d32,
/// bytes_<W>x<H>...[,host_encode_ms_<W>x<H>...,host_decode_ms]`, one LF-terminated row per frame.
std::string format_video_trace(const VideoTrace& trace);

}  // namespace coinfer::video
