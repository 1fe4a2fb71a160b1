/// Per-frame CBO traces (schedulers/cbo/frame_trace: `coinfer calibrate-confidence TRACE`). An
/// accepted trace holds at least one frame, confidences in [0, 1], sizes > 0 and one size and one
/// server answer per resolution, resolutions increasing, and (with a feature vector) N >= 2 finite
/// scores and a label in [0, N) per frame, which Platt on the vector fits and applies; the
/// calibration error of its scores is defined.
#include "fuzz/fuzz_support.hpp"
#include "schedulers/cbo/frame_trace.hpp"
#include "schedulers/cbo/platt_vector.hpp"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  const std::string text = fuzz::as_text(data, size);
  fuzz::accept_or_reject([&] {
    const cbo::FrameTrace trace = cbo::parse_frame_trace(text, "fuzz.csv");
    fuzz::check(!trace.frames.empty(), "an accepted trace has a frame");
    for (std::size_t r = 1; r < trace.resolutions_px.size(); ++r)
      fuzz::check(trace.resolutions_px[r - 1] < trace.resolutions_px[r], "resolutions increase");
    for (const auto& f : trace.frames) {
      fuzz::check(f.confidence >= 0.0 && f.confidence <= 1.0, "confidence in [0, 1]");
      fuzz::check(f.size_bytes.size() == trace.resolutions_px.size(), "a size per resolution");
      fuzz::check(f.server_correct.size() == trace.resolutions_px.size(), "a server answer per resolution");
      for (double s : f.size_bytes) fuzz::check(s > 0.0, "sizes > 0");
      fuzz::check(f.scores.size() == trace.classes, "a score per class");
      fuzz::check(trace.classes == 0 || (f.label >= 0 && static_cast<std::size_t>(f.label) < trace.classes),
                  "a label in [0, N)");
    }
    if (trace.classes > 0 && trace.classes <= 16 && trace.frames.size() <= 64) {  // small: N Newton fits
      const auto local = trace.local();
      const auto fit = cbo::fit_platt_vector(local);
      for (const auto& x : local.scores) {
        const double p = cbo::platt_vector_apply(fit, x);
        fuzz::check(std::isfinite(p) && p >= 0.0 && p <= 1.0, "a calibrated confidence in [0, 1]");
      }
    }
    const auto bins = cbo::reliability_bins(trace.local());
    const double ece = cbo::expected_calibration_error(bins);
    const double mce = cbo::maximum_calibration_error(bins);
    fuzz::check(ece >= 0.0 && ece <= mce + 1e-12 && mce <= 1.0, "0 <= ECE <= MCE <= 1");
  });
  return 0;
}
