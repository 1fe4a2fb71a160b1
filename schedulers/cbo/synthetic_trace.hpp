#pragma once
/// A seeded synthetic per-frame trace (frame_trace.hpp) for fast sweeps; nothing in it is measured
/// (schedulers/cbo/digits_trace.hpp makes a measured one). Per frame, with u ~ U(0, 1) draws from
/// coinfer's Rng(seed) in a fixed order:
/// - confidence distribution: a logit z ~ U(logit_lo, logit_hi), raw confidence s = sigmoid(z);
/// - miscalibration curve: the local answer is right with probability sigmoid(a z + b), so
///   (a, b) = (1, 0) is perfectly calibrated and a < 1 or b < 0 overconfident;
/// - per resolution r: the server is right with probability server_accuracy[r], and the frame's size
///   is max(1, round(bytes_per_pixel r^2 U(1 - size_jitter, 1 + size_jitter))) bytes.
/// Frames are grouped into `videos` videos of `frames_per_video` (ids v00, v01, ...).
///
///     SyntheticTraceOptions o;  o.seed = 7;
///     FrameTrace t = make_synthetic_trace(o);   // 4 x 60 frames, 5 resolutions
#include <cstdint>
#include <vector>

#include "schedulers/cbo/frame_trace.hpp"

namespace coinfer::cbo {

struct SyntheticTraceOptions {
  std::uint64_t seed = 12;
  std::int64_t videos = 4;
  std::int64_t frames_per_video = 60;
  double logit_lo = -1.0, logit_hi = 6.0;  ///< z ~ U(lo, hi)
  double slope = 0.45, offset = -0.3;      ///< P(right | z) = sigmoid(slope z + offset)
  std::vector<int> resolutions_px{45, 90, 134, 179, 224};
  std::vector<double> server_accuracy{0.40, 0.62, 0.74, 0.80, 0.84};  ///< per resolution
  double bytes_per_pixel = 0.2;
  double size_jitter = 0.3;  ///< in [0, 1)
};

/// Throws `InputError("", "<option>", ...)` for a bad option, named as the CLI names it
/// ("accuracy-per-resolution", "logit-range", ...).
FrameTrace make_synthetic_trace(const SyntheticTraceOptions& options);

}  // namespace coinfer::cbo
