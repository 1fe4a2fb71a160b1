// ECE, MCE and the reliability bins of Tan & Cao sec. III-B (schedulers/cbo/calibration_error.hpp).
#include "schedulers/cbo/calibration_error.hpp"

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

TEST_CASE("calibration bin i holds i/10 < c <= (i+1)/10, and 0 goes to the first") {
  CHECK(cbo::calibration_bin(0.0) == 0);
  CHECK(cbo::calibration_bin(0.1) == 0);
  CHECK(cbo::calibration_bin(0.1000001) == 1);
  CHECK(cbo::calibration_bin(0.3) == 2);  // 10 * 0.3 is 3.0000000000000004 in doubles
  CHECK(cbo::calibration_bin(0.7) == 6);
  CHECK(cbo::calibration_bin(0.95) == 9);
  CHECK(cbo::calibration_bin(1.0) == 9);
}

TEST_CASE("ECE and MCE of a 10-frame example, by hand") {
  // frame:      0     1     2     3     4     5     6     7     8     9
  // confidence: 0.05  0.15  0.15  0.35  0.45  0.55  0.65  0.85  0.95  0.95
  // correct:    0     0     1     1     0     1     1     1     1     0
  // bin (1-based) |B|  C(B)  A(B)  |A - C|
  //   B1          1    0.05  0     0.05
  //   B2          2    0.15  0.5   0.35
  //   B4          1    0.35  1     0.65
  //   B5          1    0.45  0     0.45
  //   B6          1    0.55  1     0.45
  //   B7          1    0.65  1     0.35
  //   B9          1    0.85  1     0.15
  //   B10         2    0.95  0.5   0.45
  // ECE = (0.05 + 2 * 0.35 + 0.65 + 0.45 + 0.45 + 0.35 + 0.15 + 2 * 0.45) / 10 = 3.7 / 10 = 0.37
  // MCE = 0.65 (B4); the empty bins B3 and B8 count for neither.
  const cbo::ScoredFrames frames{{0.05, 0.15, 0.15, 0.35, 0.45, 0.55, 0.65, 0.85, 0.95, 0.95},
                                 {0, 0, 1, 1, 0, 1, 1, 1, 1, 0}};
  const auto bins = cbo::reliability_bins(frames);
  REQUIRE(bins.size() == 10);
  CHECK(bins[1].count == 2);
  CHECK_THAT(bins[1].mean_confidence, WithinAbs(0.15, 1e-12));
  CHECK_THAT(bins[1].accuracy, WithinAbs(0.5, 1e-12));
  CHECK(bins[2].count == 0);
  CHECK(bins[7].count == 0);
  CHECK_THAT(bins[9].lower, WithinAbs(0.9, 1e-12));
  CHECK_THAT(bins[9].upper, WithinAbs(1.0, 1e-12));
  CHECK_THAT(cbo::expected_calibration_error(bins), WithinAbs(0.37, 1e-12));
  CHECK_THAT(cbo::maximum_calibration_error(bins), WithinAbs(0.65, 1e-12));
}

TEST_CASE("a perfectly calibrated set has ECE and MCE 0, an empty one too") {
  // Bin B6 holds 0.6 x 5 with 3 right: A = C = 0.6; bin B1 holds 0.0 x 2, both wrong: A = C = 0.
  const cbo::ScoredFrames frames{{0.6, 0.6, 0.6, 0.6, 0.6, 0.0, 0.0}, {1, 1, 1, 0, 0, 0, 0}};
  const auto bins = cbo::reliability_bins(frames);
  CHECK_THAT(cbo::expected_calibration_error(bins), WithinAbs(0.0, 1e-12));
  CHECK_THAT(cbo::maximum_calibration_error(bins), WithinAbs(0.0, 1e-12));
  const auto none = cbo::reliability_bins({});
  CHECK(cbo::expected_calibration_error(none) == 0.0);
  CHECK(cbo::maximum_calibration_error(none) == 0.0);
}
