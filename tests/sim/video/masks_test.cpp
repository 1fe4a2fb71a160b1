// MobiEye's computation masks [Mao-PhD §4.5.1] on planes and motion small enough to count by hand.
#include <catch2/catch.hpp>

#include "sim/video/masks.hpp"

using namespace coinfer::video;

namespace {

Plane row_plane(std::vector<std::uint8_t> values) {
  Plane p(static_cast<int>(values.size()), 1);
  p.data = std::move(values);
  return p;
}

// A 16x16 block centred in macroblock (bx, by), moving (dx, dy).
BlockMotion block(int bx, int by, double dx, double dy) { return {16, 16, 16 * bx + 8, 16 * by + 8, dx, dy}; }

}  // namespace

TEST_CASE("eq. 4.2 marks pixels whose brightness changed by at least the threshold") {
  // |key - cur| = {0, 15, 30, 14, 255, 16, 1, 0}; >= 15: positions 1, 2, 4, 5 -> 4 of 8 = 0.5.
  const auto key = row_plane({10, 10, 10, 10, 0, 100, 200, 255});
  const auto cur = row_plane({10, 25, 40, 24, 255, 84, 201, 255});
  CHECK(brightness_error_density(key, cur, 15) == 0.5);
  // Threshold 16: only 30, 255 and 16 remain -> 3 / 8.
  CHECK(brightness_error_density(key, cur, 16) == 0.375);
  // The ends: every |difference| is >= 0, none is >= 256.
  CHECK(brightness_error_density(key, cur, 0) == 1.0);
  CHECK(brightness_error_density(key, cur, 256) == 0.0);
}

TEST_CASE("eq. 4.2 of a frame against itself is empty") {
  const auto key = row_plane({0, 50, 255});
  CHECK(brightness_error_density(key, key, 1) == 0.0);
}

TEST_CASE("the feedback mask dilates the moving macroblocks by the margin, clipped to the frame") {
  FeedbackMask m({64, 64});  // 4 x 4 macroblocks
  // The still block and the one moving half a pixel (x264's sub-pixel jitter) mark nothing.
  m.add_moving(
      {block(1, 1, 2.0, 0.0), block(3, 3, 0.0, 0.0), block(0, 3, 0.25, -0.25), block(3, 0, 0.5, 0.0)});
  CHECK(m.marked() == 1);
  // Margin 0: the macroblock itself, 16 x 16 of 64 x 64 = 1/16.
  CHECK(m.density(0) == Approx(1.0 / 16));
  // Margin 8: x and y in [16 - 8, 32 + 8) = 32 px each -> 32 * 32 / 4096 = 1/4.
  CHECK(m.density(8) == Approx(0.25));
  // Margin 20: [0, 52) after clipping at 0 -> 52 * 52 / 4096.
  CHECK(m.density(20) == Approx(52.0 * 52.0 / 4096.0));
  // Margin 64 covers the whole 64 x 64 frame.
  CHECK(m.density(64) == 1.0);
}

TEST_CASE("the feedback mask grows as moving blocks add up, and clear() empties it") {
  FeedbackMask m({64, 32});  // 4 x 2 macroblocks
  m.add_moving({block(0, 0, 1.0, 0.0)});
  // Margin 0: 256 of 2048 pixels.
  CHECK(m.density(0) == Approx(0.125));
  // An 8x8 block straddling nothing new plus a block in macroblock (3, 1): 2 macroblocks -> 512 / 2048.
  m.add_moving({{8, 8, 4, 4, 0.0, -1.0}, block(3, 1, 0.0, 3.0)});
  CHECK(m.marked() == 2);
  CHECK(m.density(0) == Approx(0.25));
  m.clear();
  CHECK(m.density(64) == 0.0);
}

TEST_CASE("a block that straddles macroblocks marks each one it overlaps") {
  FeedbackMask m({64, 64});
  // 16x16 block centred at (16, 16) spans [8, 24) x [8, 24): macroblocks (0..1) x (0..1) -> 4 marked.
  m.add_moving({{16, 16, 16, 16, 1.0, 0.0}});
  CHECK(m.marked() == 4);
  CHECK(m.density(0) == Approx(0.25));  // 32 x 32 of 64 x 64
}
