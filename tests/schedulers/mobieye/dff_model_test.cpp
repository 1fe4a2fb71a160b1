// Closed forms of DFF / ADFF timing (schedulers/mobieye/dff_model.hpp) against the worked examples of
// [Mao-PhD §4.3.2].
#include "schedulers/mobieye/dff_model.hpp"

#include <catch2/catch.hpp>

namespace mobieye = coinfer::mobieye;

TEST_CASE("eq. 4.1: FeatNet 0.6 s over FlowNet 0.2 s delays the feature map 3 frames") {
  // Fig. 4.3: ceil(0.6 / 0.2) = ceil(3) = 3 (0.6 / 0.2 is 2.9999999999999996 in doubles).
  CHECK(mobieye::feature_delay_frames(0.6, 0.2) == 3);
}

TEST_CASE("eq. 4.1: 0.2 s of other work per frame brings the delay down to 2 frames") {
  // sec. 4.3.2: ceil(0.6 / (0.2 + 0.2)) = ceil(1.5) = 2.
  CHECK(mobieye::feature_delay_frames(0.6, 0.2, 0.2) == 2);
}

TEST_CASE("eq. 4.1: a ratio that is an integer up to rounding is not rounded up") {
  // 1.1 / 0.1 = 11.000000000000002 in doubles; the delay is 11 frames, not 12. A real remainder still
  // rounds up: ceil(1.15 / 0.1) = ceil(11.5) = 12.
  CHECK(mobieye::feature_delay_frames(1.1, 0.1) == 11);
  CHECK(mobieye::feature_delay_frames(1.15, 0.1) == 12);
}

TEST_CASE("ADFF's largest key-to-inter distance at interval 7 and delay 3 is 9 frames, sequential 6") {
  // sec. 4.3.2: sequential 7 - 1 = 6; asynchronous 7 - 1 + 3 = 9.
  CHECK(mobieye::max_key_distance(7, 3, false) == 6);
  CHECK(mobieye::max_key_distance(7, 3, true) == 9);
}

TEST_CASE("sequential DFF at 0.09 s / 0.02 s and interval 7 averages 0.03 s per frame") {
  // sec. 4.3.2 (GTX 1080): one 0.09 s key frame and six 0.02 s inter frames: (0.09 + 6 * 0.02) / 7 = 0.21
  // / 7.
  CHECK(mobieye::sequential_mean_frame_s(0.09, 0.02, 7) == Approx(0.03).margin(1e-15));
  // Interval 1 is every frame a key frame: 0.09 s.
  CHECK(mobieye::sequential_mean_frame_s(0.09, 0.02, 1) == 0.09);
}
