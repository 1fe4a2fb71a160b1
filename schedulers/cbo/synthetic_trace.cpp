#include "schedulers/cbo/synthetic_trace.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer::cbo {
namespace {

constexpr std::int64_t kMaxFrames = 100'000'000;

void check_options(const SyntheticTraceOptions& o) {
  if (o.videos < 1) throw InputError("", "videos", "expected an integer >= 1");
  if (o.frames_per_video < 1) throw InputError("", "frames-per-video", "expected an integer >= 1");
  if (o.videos > kMaxFrames / o.frames_per_video)
    throw InputError("", "frames-per-video", fmt::format("videos x frames exceeds {} frames", kMaxFrames));
  if (!(std::isfinite(o.logit_lo) && std::isfinite(o.logit_hi) && o.logit_lo <= o.logit_hi))
    throw InputError("", "logit-range",
                     fmt::format("expected finite LO,HI with LO <= HI, got {},{}", o.logit_lo, o.logit_hi));
  if (!std::isfinite(o.slope) || !std::isfinite(o.offset))
    throw InputError("", "miscalibration", "expected two finite numbers SLOPE,OFFSET");
  check_resolutions(o.resolutions_px);
  if (o.server_accuracy.size() != o.resolutions_px.size())
    throw InputError("", "accuracy-per-resolution",
                     fmt::format("expected {} accuracies (one per resolution), got {}",
                                 o.resolutions_px.size(), o.server_accuracy.size()));
  for (double a : o.server_accuracy)
    if (!(a >= 0 && a <= 1))
      throw InputError("", "accuracy-per-resolution", fmt::format("expected numbers in [0, 1], got {}", a));
  if (!(o.bytes_per_pixel > 0 && std::isfinite(o.bytes_per_pixel)))
    throw InputError("", "bytes-per-pixel", fmt::format("expected a number > 0, got {}", o.bytes_per_pixel));
  if (!(o.size_jitter >= 0 && o.size_jitter < 1))
    throw InputError("", "size-jitter", fmt::format("expected a number in [0, 1), got {}", o.size_jitter));
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

FrameTrace make_synthetic_trace(const SyntheticTraceOptions& o) {
  check_options(o);
  Rng rng(o.seed);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng.uniform()); };
  FrameTrace t;
  t.resolutions_px = o.resolutions_px;
  for (std::int64_t v = 0; v < o.videos; ++v)
    for (std::int64_t k = 0; k < o.frames_per_video; ++k) {
      TraceFrame f;
      f.video = fmt::format("v{:02}", v);
      f.index = k;
      const double z = uniform(o.logit_lo, o.logit_hi);
      f.confidence = sigmoid(z);
      f.correct = uniform(0, 1) < sigmoid(o.slope * z + o.offset);
      for (std::size_t r = 0; r < o.resolutions_px.size(); ++r) {
        const double px = o.resolutions_px[r];
        const double size = o.bytes_per_pixel * px * px * uniform(1 - o.size_jitter, 1 + o.size_jitter);
        f.size_bytes.push_back(std::max(1.0, std::round(size)));
        f.server_correct.push_back(uniform(0, 1) < o.server_accuracy[r]);
      }
      t.frames.push_back(std::move(f));
    }
  return t;
}

}  // namespace coinfer::cbo
