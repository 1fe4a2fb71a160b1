// The Fig. 4.12(a) motion summary (schedulers/mobieye/motion_histogram.hpp) by hand.
#include "schedulers/mobieye/motion_histogram.hpp"

#include <cmath>

#include <catch2/catch.hpp>

namespace mobieye = coinfer::mobieye;

namespace {

mobieye::VideoTrace trace_of(const std::vector<std::pair<char, double>>& frames) {
  mobieye::VideoTrace t;
  for (auto [type, motion] : frames) {
    mobieye::VideoFrame f;
    f.type = type;
    f.motion_px = motion;
    t.frames.push_back(f);
  }
  return t;
}

}  // namespace

TEST_CASE("the motion summary bins P frames in unit bins truncated at 10, skipping I frames") {
  // P motions 0.5, 2, 9.5, 12 (the I frame's 7 is skipped): bins [0,1), [2,3), [9,10), >=10 hold one
  // quarter each; below 1: 1/4; above 9: 2/4; mean 24 / 4 = 6; median (2 + 9.5) / 2 = 5.75.
  const auto s = mobieye::summarize_motion(trace_of({{'I', 7}, {'P', 0.5}, {'P', 2}, {'P', 12}, {'P', 9.5}}));
  CHECK(s.frames == 4);
  CHECK(s.fraction_by_bin == std::vector<double>{0.25, 0, 0.25, 0, 0, 0, 0, 0, 0, 0.25, 0.25});
  CHECK(s.below_1 == 0.25);
  CHECK(s.above_9 == 0.5);
  CHECK(s.mean == 6.0);
  CHECK(s.median == 5.75);
}

TEST_CASE("motion on a bin edge falls in the bin above it, and counts as neither below 1 nor above 9") {
  // P motions 1, 3, 10: bins [1,2), [3,4), >=10 hold a third each; 1 is not < 1, 10 is > 9.
  const auto s = mobieye::summarize_motion(trace_of({{'P', 10}, {'P', 1}, {'P', 3}}));
  CHECK(s.fraction_by_bin[1] == Approx(1.0 / 3));
  CHECK(s.fraction_by_bin[3] == Approx(1.0 / 3));
  CHECK(s.fraction_by_bin[10] == Approx(1.0 / 3));
  CHECK(s.below_1 == 0.0);
  CHECK(s.above_9 == Approx(1.0 / 3));
}

TEST_CASE("the motion median of an odd count of P frames is the middle value") {
  // Sorted 1, 3, 10: the middle is 3 (the mean would be 14 / 3).
  CHECK(mobieye::summarize_motion(trace_of({{'P', 10}, {'P', 1}, {'P', 3}})).median == 3.0);
}

TEST_CASE("a trace without P frames summarises to no frames and a NaN mean") {
  const auto s = mobieye::summarize_motion(trace_of({{'I', 0}}));
  CHECK(s.frames == 0);
  CHECK(s.fraction_by_bin == std::vector<double>(mobieye::kMotionBins, 0.0));
  CHECK(std::isnan(s.mean));
  CHECK(std::isnan(s.median));
}

TEST_CASE("a motion past size_t's range lands in the open last bin") {
  // 2e22 px does not fit a size_t: it must be clamped to the last bin before the conversion (a
  // fuzz finding: the conversion itself was undefined).
  const auto s = mobieye::summarize_motion(trace_of({{'P', 2e22}, {'P', 0.5}}));
  CHECK(s.fraction_by_bin.back() == 0.5);
  CHECK(s.fraction_by_bin.front() == 0.5);
  CHECK(s.above_9 == 0.5);
}
