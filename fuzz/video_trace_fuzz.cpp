/// Per-frame MobiEye video traces (schedulers/mobieye/video_trace: what `coinfer make-trace video`
/// writes). An accepted trace holds at least one frame and one size; every frame is an I or P frame
/// with motion >= 0, densities in [0, 1] and one whole number of bytes >= 1 per size; every size is
/// found again by its name; eq. 4.2 density at any age stays in [0, 1]; the motion summary's
/// fractions sum to 1; VDS over the motion keeps every key-frame gap within [fi_min, fi_max].
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "schedulers/mobieye/key_frames.hpp"
#include "schedulers/mobieye/motion_histogram.hpp"
#include "schedulers/mobieye/video_trace.hpp"

namespace {

using namespace coinfer;

bool density(double d) { return d >= 0.0 && d <= 1.0; }

void check_frame(const mobieye::VideoTrace& trace, std::size_t i) {
  const auto& f = trace.frames[i];
  fuzz::check(f.type == 'I' || f.type == 'P', "type I or P");
  fuzz::check(f.motion_px >= 0.0 && std::isfinite(f.motion_px), "motion >= 0");
  fuzz::check(density(f.mask_density) && density(f.feedback_density), "densities in [0, 1]");
  fuzz::check(f.bytes.size() == trace.sizes.size() && f.host_encode_ms.size() == trace.sizes.size(),
              "bytes and encode times per size");
  for (double b : f.bytes) fuzz::check(b >= 1.0 && b == std::floor(b), "whole bytes >= 1");
  for (std::size_t k = 0; k < mobieye::kMaskAges.size(); ++k)
    fuzz::check(std::isnan(f.mask_by_age[k]) ? i < mobieye::kMaskAges[k] : density(f.mask_by_age[k]),
                "mask_d<d> in [0, 1], empty only before frame d");
  // Ages past 32 clamp: 0 .. 40 covers every branch of the interpolation.
  for (std::size_t age = 0; age <= 40; ++age)
    fuzz::check(density(trace.mask_density_at_age(i, age)), "density at any age in [0, 1]");
}

// VDS at a fixed range: every gap between key frames lies in [fi_min, fi_max], the tail at most fi_max.
void check_vds(const std::vector<double>& motion) {
  const mobieye::VdsParams p{0.0, 10.0, 2, 6};
  auto policy = mobieye::vds(p, motion);
  const auto keys = mobieye::key_frames(*policy, motion.size());
  fuzz::check(keys.front(), "frame 0 is a key frame");
  std::size_t last = 0;
  for (std::size_t f = 1; f < keys.size(); ++f)
    if (keys[f]) {
      fuzz::check(f - last >= 2 && f - last <= 6, "key-frame gap within [fi_min, fi_max]");
      last = f;
    }
  fuzz::check(keys.size() - last <= 6, "no gap longer than fi_max at the end");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  fuzz::accept_or_reject([&] {
    const auto trace = mobieye::parse_video_trace(text, "fuzz.csv");
    fuzz::check(!trace.frames.empty() && !trace.sizes.empty(), "an accepted trace has a frame and a size");
    for (std::size_t k = 0; k < trace.sizes.size(); ++k)
      fuzz::check(trace.size_index(mobieye::size_name(trace.sizes[k]), "size") == k, "sizes found by name");
    for (std::size_t i = 0; i < trace.frames.size(); ++i) check_frame(trace, i);
    const auto summary = mobieye::summarize_motion(trace);
    double total = 0;
    for (double share : summary.fraction_by_bin) total += share;
    fuzz::check(summary.frames == 0 || std::abs(total - 1.0) < 1e-9, "bin fractions sum to 1");
    check_vds(trace.motion());
  });
  return 0;
}
