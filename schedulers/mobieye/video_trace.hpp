#pragma once
/// Per-frame video traces for MobiEye [Mao-PhD §4.4, §4.5]: what the H.264 stream of a clip looks
/// like frame by frame (frame type, motion, eq. 4.2 mask densities, encoded sizes), as written by
/// `coinfer make-trace video`.
///
/// Format: RFC 4180 CSV (LF or CRLF), a header line, then one row per frame, every row with as many
/// cells as the header. Columns, in any order:
///
/// | column                    | required | value                                                        |
/// |---------------------------|----------|--------------------------------------------------------------|
/// | `frame`                   | yes      | the row's index, 0, 1, 2, ...                                |
/// | `type`                    | yes      | `I` or `P`                                                   |
/// | `motion_px`               | yes      | mean motion-vector magnitude in pixels, >= 0 (0 on I frames) |
/// | `mv_count`                | yes      | motion vectors in the frame, an integer >= 0                 |
/// | `mask_density`            | yes      | eq. 4.2 mask density against the last I frame, in [0, 1]    |
/// | `feedback_density`        | yes      | feedback-mask density, in [0, 1]                             |
/// | `mask_d<d>`, d = 1, 2, 4, 8, 16, 32 | yes | eq. 4.2 density against the frame d earlier, in [0, 1];
/// empty when frame < d | | `bytes_<W>x<H>`           | >= 1     | the frame's encoded size at W x H pixels,
/// an integer >= 1    | | `host_encode_ms_<W>x<H>`  | no       | host encode time at a size that has a
/// `bytes_` column, >= 0  | | `host_decode_ms`          | no       | host decode time, >= 0 |
///
/// Host-time cells may be empty (unknown: NaN); a missing host-time column reads NaN too. Other
/// columns are ignored; a column named twice is an error. Example:
///
///     frame,type,motion_px,mv_count,mask_density,feedback_density,mask_d1,mask_d2,mask_d4,mask_d8,mask_d16,mask_d32,bytes_320x240
///     0,I,0,0,0,0,,,,,,,5120
///     1,P,1.95,300,0.04,0.2,0.04,,,,,,150
///
/// Every error is an `InputError` naming the file, the line and the column:
/// `v.csv: line 3: column 'type': expected I or P, got 'X'`.
///
///     const auto trace = mobieye::read_video_trace("examples/mobieye/china_pan.csv");
///     const double bytes = trace.frames[5].bytes[trace.size_index("320x240", "frame_size")];
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace coinfer::mobieye {

/// The ages d of the `mask_d<d>` columns, in VideoFrame::mask_by_age order.
inline constexpr std::array<std::size_t, 6> kMaskAges{1, 2, 4, 8, 16, 32};

struct VideoFrame {
  char type = 'P';                      ///< 'I' or 'P'
  double motion_px = 0;                 ///< mean |MV| in pixels (0 on I frames)
  std::size_t mv_count = 0;             ///< motion vectors in the frame
  double mask_density = 0;              ///< eq. 4.2 density against the last I frame, in [0, 1]
  double feedback_density = 0;          ///< feedback-mask density, in [0, 1]
  std::array<double, 6> mask_by_age{};  ///< d = 1, 2, 4, 8, 16, 32 (kMaskAges); NaN where empty
  std::vector<double> bytes;            ///< encoded size per size, VideoTrace::sizes order
  std::vector<double> host_encode_ms;   ///< per size, NaN where unknown
  double host_decode_ms = 0;            ///< NaN where unknown
  std::size_t line = 0;                 ///< 1-based line of the row in the file
};

struct FrameSize {
  int width = 0, height = 0;
};

struct VideoTrace {
  std::vector<FrameSize> sizes;    ///< the `bytes_<W>x<H>` columns, in header order
  std::vector<VideoFrame> frames;  ///< frame i is row i

  /// Index of "WxH" (e.g. "320x240") in sizes; throws `InputError("", key_path, "expected one of
  /// the trace's sizes: 320x240, 640x480; got '100x100'")` when absent (the caller adds its file).
  std::size_t size_index(const std::string& wxh, const std::string& key_path) const;
  /// eq. 4.2 density of frame `frame` against the frame `age` frames earlier (age 0 -> 0): linear
  /// interpolation in age between the points (0, 0) and (d, mask_d<d>) for every d <= frame whose
  /// cell is known, the last such point's value beyond it (so ages beyond 32, or beyond the frame's
  /// own index, are clamped); 0 for frame 0. `frame` must be a frame of the trace (asserted).
  /// Example: mask_d4 = 0.1, mask_d8 = 0.3, frame 10: age 6 -> 0.2, age 40 -> mask_d32.
  double mask_density_at_age(std::size_t frame, std::size_t age) const;
  /// motion_px of every frame, in order.
  std::vector<double> motion() const;
};

/// "WxH" of a size, e.g. "320x240".
std::string size_name(const FrameSize& size);

/// Parses trace text; `file` only names it in errors. Throws `InputError` (at least one frame).
VideoTrace parse_video_trace(const std::string& text, const std::string& file);
/// Reads and parses a trace file; a missing file or a folder is an `InputError` naming it.
VideoTrace read_video_trace(const std::string& path);

}  // namespace coinfer::mobieye
