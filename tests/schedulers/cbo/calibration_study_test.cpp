// The seeded train / held-out split and the Table I study (schedulers/cbo/calibration_study.hpp).
#include "schedulers/cbo/calibration_study.hpp"

#include <algorithm>
#include <stdexcept>

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

namespace {

// Ten frames with distinct confidences 0.05, 0.15, ..., 0.95, right from 0.45 on but for 0.85.
cbo::ScoredFrames ten_frames() {
  cbo::ScoredFrames f;
  for (int i = 0; i < 10; ++i) {
    f.confidence.push_back(0.05 + 0.1 * i);
    f.correct.push_back(i >= 4 && i != 8 ? 1 : 0);
  }
  return f;
}

}  // namespace

TEST_CASE("the split takes round(fraction x n) frames for training and keeps every frame once") {
  const auto frames = ten_frames();
  const auto split = cbo::split_frames(frames, 0.34, 9);  // round(3.4) = 3
  CHECK(split.train.size() == 3);
  CHECK(split.held_out.size() == 7);
  auto all = split.train.confidence;
  all.insert(all.end(), split.held_out.confidence.begin(), split.held_out.confidence.end());
  std::sort(all.begin(), all.end());
  CHECK(all == frames.confidence);  // distinct confidences: each frame exactly once
  CHECK(std::is_sorted(split.train.confidence.begin(), split.train.confidence.end()));  // file order kept
}

TEST_CASE("the split is a function of the seed") {
  const auto frames = ten_frames();
  CHECK(cbo::split_frames(frames, 0.5, 4).train.confidence ==
        cbo::split_frames(frames, 0.5, 4).train.confidence);
  bool differs = false;
  for (std::uint64_t seed = 5; seed < 10 && !differs; ++seed)
    differs = cbo::split_frames(frames, 0.5, seed).train.confidence !=
              cbo::split_frames(frames, 0.5, 4).train.confidence;
  CHECK(differs);
}

TEST_CASE("a split that leaves a part empty is a programming error") {
  CHECK(cbo::train_frame_count(10, 0.04) == 0);
  CHECK_THROWS_AS(cbo::split_frames(ten_frames(), 0.04, 1), std::invalid_argument);
  CHECK_THROWS_AS(cbo::split_frames(ten_frames(), 0.96, 1), std::invalid_argument);
}

TEST_CASE("the study starts with the uncalibrated scores, and isotonic is exact on its training part") {
  cbo::CalibratorRegistry registry("calibration method");
  cbo::register_confidence_calibrators(registry);
  const auto frames = ten_frames();
  const cbo::FrameSplit split{frames, frames};
  const auto rows = cbo::calibration_study(split, cbo::create_calibrators({"isotonic", "platt"}, registry));
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].method == "uncalibrated");
  CHECK(rows[0].parameters.is_null());
  // Uncalibrated, one frame per bin, |A - C| = C for a wrong frame and 1 - C for a right one:
  // wrong 0.05 .. 0.35 give 0.05 + 0.15 + 0.25 + 0.35 = 0.8, right 0.45 .. 0.75 give
  // 0.55 + 0.45 + 0.35 + 0.25 = 1.6, wrong 0.85 gives 0.85 and right 0.95 0.05: ECE = 3.3 / 10.
  CHECK_THAT(cbo::expected_calibration_error(rows[0].train_bins), WithinAbs(0.33, 1e-12));
  // Isotonic maps every frame of a block to the block's accuracy, so a bin holds whole blocks and
  // its mean confidence equals its accuracy: ECE 0 on the data it was fitted to.
  CHECK(rows[1].method == "isotonic");
  CHECK_THAT(cbo::expected_calibration_error(rows[1].train_bins), WithinAbs(0.0, 1e-12));
  CHECK(rows[2].parameters.contains("a"));
  const auto json = cbo::calibration_row_json(rows[0]);
  CHECK(json["held_out"]["reliability"].size() == 10);
}
