// The synthetic pan: where its window is, frame by frame, and what it draws.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/video/pan_source.hpp"

using namespace coinfer::video;
using Catch::Matchers::Contains;

namespace {

// A 64x48 yuv444 image whose luma is its column index (a horizontal ramp).
Picture ramp_image() {
  Picture p;
  p.y = Plane(64, 48);
  p.u = Plane(64, 48, 128);
  p.v = Plane(64, 48, 128);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) p.y.at(x, y) = static_cast<std::uint8_t>(x);
  return p;
}

}  // namespace

TEST_CASE("reflect folds a position back into its range like a bouncing ball") {
  CHECK(reflect(3, 0, 10) == 3);
  CHECK(reflect(12, 0, 10) == 8);  // 2 past the top
  CHECK(reflect(23, 0, 10) == 3);  // past the top (to 0 at 20), then 3 up again
  CHECK(reflect(-4, 0, 10) == 4);  // 4 below the bottom
  CHECK(reflect(5, 2, 2) == 2);    // no room: the one position
}

TEST_CASE("the pan window starts centred, moves by the segment speeds and bounces at the edge") {
  // 64x48 image, 32x24 window: room 32 x 24, so the left edge starts at 16 (centre x 32) and the top at
  // 12 (centre y 24). Frames 0..2 move 4 px/frame in x, then 2 frames 0, -3.
  PanSource pan(ramp_image(), {{{3, 4, 0}, {2, 0, -3}}, {32, 24}, 1.0}, {{32, 24}});
  CHECK(pan.frames() == 5);
  CHECK(pan.window_at(0).center_x == 32);
  CHECK(pan.window_at(2).center_x == 40);  // 16 + 8 = 24 left edge -> centre 40
  CHECK(pan.window_at(4).center_y == 18);  // top 12 - 2 * 3 = 6 -> centre 18
  PanSource fast(ramp_image(), {{{4, 10, 0}}, {32, 24}, 1.0}, {{32, 24}});
  // Left edge 16 + 30 = 46 passes the room (32) by 14 and folds back to 18 -> centre 34.
  CHECK(fast.window_at(3).center_x == 34);
}

TEST_CASE("the pan window zooms in by the factor per frame down to half its size") {
  PanSource pan(ramp_image(), {{{4, 0, 0}}, {32, 24}, 2.0}, {{32, 24}});
  CHECK(pan.window_at(1).width == Approx(16));  // 32 / 2
  CHECK(pan.window_at(2).width == Approx(32));  // 1/4 folds back (in log scale) to 1
}

TEST_CASE("a pan frame resamples the window: at scale 1 it is the window's pixels") {
  // Window 32 wide at left edge 16: the output's column x is the ramp's column 16 + x.
  PanSource pan(ramp_image(), {{{1, 0, 0}}, {32, 24}, 1.0}, {{32, 24}, {64, 48}});
  const auto frame = pan.next();
  REQUIRE(frame);
  CHECK((*frame)[0].y.at(0, 0) == 16);
  CHECK((*frame)[0].y.at(31, 23) == 47);
  // Twice the size: output column 2x + 1 sits at window coordinate x + 0.25 -> 16 + x + 0.25, rounds to 16 +
  // x.
  CHECK((*frame)[1].y.at(11, 5) == 21);
  CHECK((*frame)[1].u.at(3, 3) == 128);
  CHECK_FALSE(pan.next());
}

TEST_CASE("a pan window larger than the image is refused, naming --window") {
  CHECK_THROWS_WITH(PanSource(ramp_image(), {{{1, 0, 0}}, {80, 24}, 1.0}, {{32, 24}}),
                    Contains("--window: expected a window inside the 64x48 image, got 80x24"));
}
