// The trace measured on the real digits (schedulers/cbo/digits_trace.hpp) and the copy shipped in
// examples/cbo/digits_trace.csv (written by `coinfer make-trace digits --seed 1`). Needs
// python3-sklearn's digits.csv.gz, as the training tests do.
#include "schedulers/cbo/digits_trace.hpp"

#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "schedulers/cbo/calibration_study.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/dataset.hpp"
#include "sim/kernels/png_compress.hpp"

namespace cbo = coinfer::cbo;
using Catch::Matchers::Contains;

namespace {

const std::string kShipped = std::string(COINFER_SOURCE_DIR) + "/examples/cbo/digits_trace.csv";

// A quick trace: 10% of the images trained on, one epoch each, two resolutions.
cbo::DigitsTraceOptions quick(std::uint64_t seed) {
  cbo::DigitsTraceOptions o;
  o.seed = seed;
  o.trace_fraction = 0.9;
  o.npu_epochs = 1;
  o.server_epochs = 1;
  o.resolutions_px = {45, 90};
  return o;
}

}  // namespace

TEST_CASE("the same options give a byte-identical digits trace") {
  const auto a = cbo::format_frame_trace(cbo::make_digits_trace(quick(3)).trace);
  CHECK(a == cbo::format_frame_trace(cbo::make_digits_trace(quick(3)).trace));
  CHECK(a != cbo::format_frame_trace(cbo::make_digits_trace(quick(4)).trace));
}

TEST_CASE("digits trace frames: the held-out images in pseudo-videos of consecutive frames") {
  auto o = quick(3);
  o.frames_per_video = 100;
  const auto t = cbo::make_digits_trace(o);
  REQUIRE(t.trace.frames.size() == 1617);  // round(0.9 x 1797)
  CHECK(t.summary.train_images == 180);
  CHECK(t.trace.frames[99].video == "v000");
  CHECK(t.trace.frames[100].video == "v001");
  CHECK(t.trace.frames[100].index == 0);
  CHECK(t.trace.frames.back().video == "v016");
}

TEST_CASE("a frame at r px keeps round(8 r / 224) pixels of detail and is r x r") {
  CHECK(cbo::digits_detail_px(45, 224) == 2);  // 1.61
  CHECK(cbo::digits_detail_px(90, 224) == 3);  // 3.21
  CHECK(cbo::digits_detail_px(134, 224) == 5);
  CHECK(cbo::digits_detail_px(179, 224) == 6);
  CHECK(cbo::digits_detail_px(224, 224) == 8);
  CHECK(cbo::digits_detail_px(10, 224) == 1);  // never below one pixel
  const coinfer::Tensor digit({1, 8, 8}, 0.25f);
  CHECK(cbo::digits_frame(digit, 45, 224).shape == coinfer::Shape{1, 45, 45});
}

TEST_CASE("the NPU's view at full detail is the digit, at g px its g x g area average scaled back") {
  coinfer::Tensor digit({1, 8, 8}, 0.0f);
  for (std::size_t i = 0; i < digit.data.size(); ++i) digit.data[i] = static_cast<float>(i % 8);  // column x
  CHECK(cbo::digits_npu_view(digit, 8).data == digit.data);
  // At 1 px: one value, the mean 3.5, everywhere.
  for (const float v : cbo::digits_npu_view(digit, 1).data) CHECK(v == Approx(3.5f));
  // At 2 px: the left half's mean 1.5 and the right half's 5.5, bilinear in between; rows all equal.
  const auto two = cbo::digits_npu_view(digit, 2);
  REQUIRE(two.shape == coinfer::Shape{1, 8, 8});
  CHECK(two.data[0] == Approx(1.5f));
  CHECK(two.data[7] == Approx(5.5f));
  for (std::size_t x = 0; x < 8; ++x) CHECK(two.data[56 + x] == Approx(two.data[x]));
}

TEST_CASE("npu-detail-px changes the NPU's columns only") {
  auto o = quick(5);
  const auto full = cbo::make_digits_trace(o);
  o.npu_detail_px = 2;
  const auto coarse = cbo::make_digits_trace(o);
  REQUIRE(coarse.trace.frames.size() == full.trace.frames.size());
  std::size_t confidence_moved = 0;
  for (std::size_t k = 0; k < full.trace.frames.size(); ++k) {
    const auto& a = full.trace.frames[k];
    const auto& b = coarse.trace.frames[k];
    CHECK(a.server_correct == b.server_correct);
    CHECK(a.size_bytes == b.size_bytes);
    confidence_moved += a.confidence != b.confidence;
  }
  CHECK(confidence_moved > full.trace.frames.size() / 2);
  CHECK(coarse.summary.npu_fp32_accuracy < full.summary.npu_fp32_accuracy);
}

TEST_CASE("the shipped npu-detail traces differ in the NPU's columns only") {
  // examples/cbo/npu-detail: the documented command at 8, 6, 5, 4, 3 and 2 px of NPU detail.
  const std::string dir = std::string(COINFER_SOURCE_DIR) + "/examples/cbo/npu-detail/";
  const auto full = cbo::read_frame_trace(dir + "digits_npu8px.csv");
  std::vector<double> accuracy;
  for (const int g : {8, 6, 5, 4, 3, 2}) {
    const auto t = cbo::read_frame_trace(dir + "digits_npu" + std::to_string(g) + "px.csv");
    REQUIRE(t.frames.size() == full.frames.size());
    double right = 0;
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
      INFO(g << " px, frame " << k);
      CHECK(t.frames[k].label == full.frames[k].label);
      CHECK(t.frames[k].server_correct == full.frames[k].server_correct);
      CHECK(t.frames[k].size_bytes == full.frames[k].size_bytes);
      right += t.frames[k].correct;
    }
    accuracy.push_back(right / static_cast<double>(t.frames.size()));
  }
  CHECK(accuracy[5] < accuracy[4]);  // 2 px below 3 px below every finer one
  CHECK(accuracy[4] < *std::min_element(accuracy.begin(), accuracy.begin() + 4));
}

TEST_CASE("the shipped digits trace: every frame's PNG grows with the resolution") {
  const auto t = cbo::read_frame_trace(kShipped);
  CHECK(t.resolutions_px == std::vector<int>{45, 90, 134, 179, 224});
  REQUIRE(t.frames.size() == 899);
  for (const auto& f : t.frames)
    for (std::size_t r = 1; r < f.size_bytes.size(); ++r) CHECK(f.size_bytes[r] > f.size_bytes[r - 1]);
}

TEST_CASE("the shipped digits trace: sizes and NPU columns are what the tool measures") {
  // The NPU columns depend on the NPU options only, so a run at one resolution reproduces them fast
  // (the documented command's server is trained on all five resolutions). On the machine that wrote
  // the file they agree exactly; another build may round the GEMM kernels differently (AVX2 or
  // AVX-512 chosen at run time, another compiler's contraction), which 20 epochs of SGD carry into
  // the weights, so elsewhere we ask for near agreement: a model's answers, not its bits.
  const auto shipped = cbo::read_frame_trace(kShipped);
  cbo::DigitsTraceOptions o;  // the documented command: defaults, seed 1
  o.resolutions_px = {45};
  const auto again = cbo::make_digits_trace(o).trace;
  REQUIRE(again.frames.size() == shipped.frames.size());
  double same_answer = 0, confidence_gap = 0;
  for (std::size_t k = 0; k < again.frames.size(); ++k) {
    same_answer += again.frames[k].correct == shipped.frames[k].correct;
    confidence_gap += std::abs(again.frames[k].confidence - shipped.frames[k].confidence);
  }
  const auto n = static_cast<double>(again.frames.size());
  CHECK(same_answer / n >= 0.97);
  CHECK(confidence_gap / n < 0.01);
  // Sizes: the first frames re-encoded at every resolution (the frames are split.test in order).
  const auto data = coinfer::load_digits(coinfer::default_digits_path());
  const auto split = coinfer::split_dataset(data.size(), 0.5, 1);
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t r = 0; r < shipped.resolutions_px.size(); ++r) {
      const auto frame = cbo::digits_frame(data.samples[split.test[k]], shipped.resolutions_px[r], 224);
      CHECK(static_cast<double>(coinfer::kernels::png_compress(frame).png.size()) ==
            shipped.frames[k].size_bytes[r]);
    }
}

TEST_CASE("the shipped digits trace: the NPU's raw confidences are miscalibrated, Platt helps held out") {
  // Fit on half the frames, measure on the other half (the calibration library, as
  // `coinfer calibrate-confidence` does), for several splits.
  const auto t = cbo::read_frame_trace(kShipped);
  cbo::CalibratorRegistry methods("calibration method");
  cbo::register_confidence_calibrators(methods);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto rows = cbo::calibration_study(cbo::split_frames(t.local(), 0.5, seed),
                                             cbo::create_calibrators({"platt"}, methods));
    const double raw = cbo::expected_calibration_error(rows[0].held_out_bins);
    const double platt = cbo::expected_calibration_error(rows[1].held_out_bins);
    INFO("seed " << seed << ": held-out ECE " << raw << " raw, " << platt << " Platt");
    CHECK(raw > 0.15);  // overconfident: mean confidence 0.85, accuracy 0.60
    CHECK(platt < raw);
  }
}

TEST_CASE("the shipped digits trace: the feature vector agrees with the NPU's confidence and answer") {
  // The label and score columns were added from a rerun of the documented command
  // (examples/cbo/README.md): softmax of the scores must give the file's confidence, and the
  // largest score's class must be the label exactly when the file says the NPU is right.
  const auto t = cbo::read_frame_trace(kShipped);
  REQUIRE(t.classes == 10);
  for (const auto& f : t.frames) {
    const auto top = std::max_element(f.scores.begin(), f.scores.end());
    double sum = 0;
    for (const double x : f.scores) sum += std::exp(x - *top);
    INFO("line " << f.line);
    CHECK(std::abs(1 / sum - f.confidence) < 2e-5);  // both columns rounded to 6 decimals
    CHECK((top - f.scores.begin() == f.label) == f.correct);
  }
}

TEST_CASE("the shipped digits trace: Platt on the feature vector calibrates better than on the top score") {
  const auto t = cbo::read_frame_trace(kShipped);
  cbo::CalibratorRegistry methods("calibration method");
  cbo::register_confidence_calibrators(methods);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto rows = cbo::calibration_study(cbo::split_frames(t.local(), 0.5, seed),
                                             cbo::create_calibrators({"platt", "platt-vector"}, methods));
    const double platt = cbo::expected_calibration_error(rows[1].held_out_bins);
    const double vector = cbo::expected_calibration_error(rows[2].held_out_bins);
    INFO("seed " << seed << ": held-out ECE " << platt << " Platt, " << vector << " Platt on the vector");
    CHECK(vector < platt);
  }
}

TEST_CASE("the digits trace carries the NPU's feature vector and each frame's label") {
  const auto t = cbo::make_digits_trace(quick(2)).trace;
  REQUIRE(t.classes == 10);
  for (const auto& f : t.frames) {
    REQUIRE(f.scores.size() == 10);
    const auto top = std::max_element(f.scores.begin(), f.scores.end()) - f.scores.begin();
    CHECK((top == f.label) == f.correct);
  }
  const auto again = cbo::parse_frame_trace(cbo::format_frame_trace(t), "t.csv");
  CHECK(again.classes == 10);
  CHECK(again.frames[3].label == t.frames[3].label);
  CHECK(std::abs(again.frames[3].scores[7] - t.frames[3].scores[7]) <= 5e-7);
}

TEST_CASE("the server is less accurate at lower resolutions on the shipped digits trace") {
  // The 45 and 90 px frames keep 2 and 3 pixels of detail of 8; compare them with 224 px.
  const auto t = cbo::read_frame_trace(kShipped);
  std::vector<double> right(t.resolutions_px.size(), 0.0);
  for (const auto& f : t.frames)
    for (std::size_t r = 0; r < right.size(); ++r) right[r] += f.server_correct[r];
  CHECK(right[0] < right[1]);
  CHECK(right[1] < right[4]);
  CHECK(right[0] < 0.7 * right[4]);
}

TEST_CASE("digits trace options are checked, naming the option") {
  auto o = quick(1);
  o.npu_bits = 9;
  CHECK_THROWS_WITH(cbo::make_digits_trace(o),
                    Contains("npu-bits") && Contains("expected an integer in [2, 8]"));
  o = quick(1);
  o.trace_fraction = 1;
  CHECK_THROWS_WITH(cbo::make_digits_trace(o), Contains("trace-fraction"));
  o = quick(1);
  o.npu_detail_px = 0;
  CHECK_THROWS_WITH(cbo::make_digits_trace(o),
                    Contains("npu-detail-px") && Contains("expected an integer in [1, 8], got 0"));
  o.npu_detail_px = 9;
  CHECK_THROWS_WITH(cbo::make_digits_trace(o), Contains("npu-detail-px"));
  o = quick(1);
  o.resolutions_px = {};
  CHECK_THROWS_WITH(cbo::make_digits_trace(o), Contains("resolutions: expected at least one resolution"));
}
