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
/// | `label`              | no       | the frame's true class, an integer in [0, N)                |
/// | `score_<k>`          | no       | the local model's feature vector: its output for class k    |
///
/// `size_bytes_<px>` and `server_correct_<px>` come in pairs, one pair per offload resolution
/// (<px> an integer >= 1, e.g. the paper's 45, 90, 134, 179, 224). The feature vector [CBO §III-A]
/// is `score_0` ... `score_<N-1>` (N >= 2 classes, every k from 0, each a finite number: the last
/// layer's output before the softmax) and comes with a `label` column; the local answer is the class
/// with the largest score. Calibration by `platt-vector` needs them. Other columns are allowed and
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
  std::int64_t label = -1;           ///< the true class; -1 without a feature vector
  std::vector<double> scores;        ///< the feature vector (FrameTrace::classes values), or empty
  std::size_t line = 0;              ///< 1-based line of the row in the file
};

struct FrameTrace {
  std::vector<int> resolutions_px;  ///< offload resolutions, increasing
  std::vector<TraceFrame> frames;   ///< in file order
  std::size_t classes = 0;          ///< N of the feature vector; 0 when the trace has none

  /// The local model's confidences and correctness (with the feature vectors and labels when the
  /// trace has them), in file order.
  ScoredFrames local() const;
};

/// Parses trace text; `file` only names it in errors. Throws `InputError` (at least one frame).
FrameTrace parse_frame_trace(const std::string& text, const std::string& file);
/// Reads and parses a trace file; a missing file or a folder is an `InputError` naming it.
FrameTrace read_frame_trace(const std::string& path);

/// Throws `InputError(file, "line 1", ...)` naming `method` unless the trace carries the feature
/// vector columns (`score_<k>` and `label`).
void require_feature_vectors(const FrameTrace& trace, const std::string& file, const std::string& method);

/// Checks a list of offload resolutions a trace generator is asked for: non-empty, strictly
/// increasing, each in [1, 4096] px. Throws `InputError("", "resolutions", ...)`.
void check_resolutions(const std::vector<int>& resolutions_px);

/// The trace as CSV text in the format above: `video,frame,confidence,correct`, then the
/// `size_bytes_<px>,server_correct_<px>` pair of every resolution, then (when `classes` > 0) `label`
/// and `score_0` ... `score_<N-1>`. Confidences and scores get 6 decimals, sizes their shortest
/// round-trip form. Every frame needs an index >= 0 and one size and server answer
/// per resolution, and `classes` scores and a label in [0, classes) when `classes` > 0 (asserted). The same
/// trace always gives the same bytes, and `parse_frame_trace` reads it back.
std::string format_frame_trace(const FrameTrace& trace);

}  // namespace coinfer::cbo
