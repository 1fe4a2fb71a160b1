#pragma once
/// Per-frame traces for confidence-based offloading (Tan & Cao): one CSV row per video
/// frame, with what the local (NPU) model answered and what the server would answer at each
/// offload resolution.
///
/// Format: RFC 4180 CSV (LF or CRLF), a header line naming the columns, then one row per frame,
/// every row with as many cells as the header. Columns, in any order:
///
/// | column               | required | value                                                      |
/// |----------------------|----------|------------------------------------------------------------|
/// | `video`              | no       | video id (any text)                                         |
/// | `frame`              | no       | frame index within its video, an integer >= 0               |
/// | `confidence`         | yes      | the local model's raw confidence in its answer, in [0, 1]   |
/// | `correct`            | yes      | 1 when the local answer is right, else 0                    |
/// | `size_bytes_<px>`    | no       | the frame's size in bytes encoded at <px> pixels, > 0       |
/// | `server_correct_<px>`| no       | 1 when the server model is right on the <px> frame, else 0  |
///
/// `size_bytes_<px>` and `server_correct_<px>` come in pairs, one pair per offload resolution
/// (<px> an integer >= 1, e.g. the paper's 45, 90, 134, 179, 224). Other columns are allowed and
/// ignored; a column named twice is an error. Example:
///
///     video,frame,confidence,correct,size_bytes_90,server_correct_90,size_bytes_224,server_correct_224
///     v01,0,0.91,1,2113,1,9822,1
///     v01,1,0.40,0,2087,0,9760,1
///
/// Every error is an `InputError` naming the file, the line and the column:
/// `t.csv: line 3: column 'confidence': expected a number in [0, 1], got '1.5'`.
///
///     auto trace = cbo::read_frame_trace("examples/cbo/digits_trace.csv");
///     cbo::ScoredFrames local = trace.local();
#include <cstdint>
#include <string>
#include <vector>

#include "schedulers/cbo/calibration_error.hpp"

namespace coinfer::cbo {

struct TraceFrame {
  std::string video;                 ///< "" without a `video` column
  std::int64_t index = -1;           ///< the `frame` column; -1 without one
  double confidence = 0;             ///< raw local confidence in [0, 1]
  bool correct = false;              ///< the local answer is right
  std::vector<double> size_bytes;    ///< per resolution (FrameTrace::resolutions_px order)
  std::vector<char> server_correct;  ///< per resolution
  std::size_t line = 0;              ///< 1-based line of the row in the file
};

struct FrameTrace {
  std::vector<int> resolutions_px;  ///< offload resolutions, increasing
  std::vector<TraceFrame> frames;   ///< in file order

  /// The local model's confidences and correctness, in file order.
  ScoredFrames local() const;
};

/// Parses trace text; `file` only names it in errors. Throws `InputError` (at least one frame).
FrameTrace parse_frame_trace(const std::string& text, const std::string& file);
/// Reads and parses a trace file; a missing file or a folder is an `InputError` naming it.
FrameTrace read_frame_trace(const std::string& path);

/// Checks a list of offload resolutions a trace generator is asked for: non-empty, strictly
/// increasing, each in [1, 4096] px. Throws `InputError("", "resolutions", ...)`.
void check_resolutions(const std::vector<int>& resolutions_px);

/// The trace as CSV text in the format above: `video,frame,confidence,correct`, then the
/// `size_bytes_<px>,server_correct_<px>` pair of every resolution. Confidences get 6 decimals, sizes
/// their shortest round-trip form. Every frame needs an index >= 0 and one size and server answer
/// per resolution (asserted). The same trace always gives the same bytes, and `parse_frame_trace` reads it
/// back.
std::string format_frame_trace(const FrameTrace& trace);

}  // namespace coinfer::cbo
