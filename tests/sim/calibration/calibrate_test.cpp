// Re-fitting shipped files: on the deterministic estimate basis every shipped file's fitted
// figures are reproduced within 5% (what `coinfer calibrate --check --basis estimate` verifies).
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

HostProfile nominal(const Graph& g) { return estimate_host_profile(g, HostSpeed::nominal()); }

std::vector<std::string> shipped_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(COINFER_SOURCE_DIR "/platforms/calibration"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every shipped file passes the calibrate check on the estimate basis") {
  for (const auto& f : shipped_files()) {
    INFO(f);
    const DeviceCalibration c = load_calibration_file(f);
    if (c.provenance) continue;  // fitted to per-layer profiles, not figures: checked by refitting them
    const CalibrationFit fit = refit_calibration(c, nominal);
    REQUIRE(fit.fitted);
    for (const auto& r : fit.figures) CHECK(r.available);
    const auto failures = check_calibration(c, fit, 5.0);
    for (const auto& failure : failures) UNSCOPED_INFO(failure);
    CHECK(failures.empty());
  }
}

TEST_CASE("a single-figure file is refitted exactly") {
  const DeviceCalibration c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  const CalibrationFit fit = refit_calibration(c, nominal);
  REQUIRE(fit.figures.size() >= 1);
  // VGG-16 15809 ms (MoDNN Table 1): one fitted figure -> one scale, residual ~0 (scales are rounded to 5
  // digits: <= 0.005%).
  CHECK(std::fabs(fit.figures[0].refit_residual_pct) < 0.01);
  CHECK(fit.free_parameters == 1);
}

TEST_CASE("a figure whose model is unknown is skipped and fails the check") {
  DeviceCalibration c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  c.references.at(0).model = "vgg17";
  const CalibrationFit fit = refit_calibration(c, nominal);
  CHECK_FALSE(fit.figures[0].available);
  CHECK_THAT(fit.figures[0].skip_reason, Contains("unknown model 'vgg17'"));
  const auto failures = check_calibration(c, fit);
  REQUIRE_FALSE(failures.empty());
  CHECK_THAT(failures[0], Contains("model unavailable"));
}

TEST_CASE("stored scales are checked against the figures on the host they were fitted on") {
  DeviceCalibration c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  c.fit = FitRecord{"nominal reference host", "estimate"};
  for (auto& [name, s] : c.op_scale) s *= 1.2;  // 20% off
  const CalibrationFit fit = refit_calibration(c, nominal);
  const auto failures = check_calibration(c, fit);
  // One fitted figure (VGG-16) off by 20%, then one line per op class whose scale differs.
  REQUIRE(failures.size() == 1 + kOpClassCount);
  CHECK_THAT(failures[0], Contains("stored op_scale gives +20.00%"));
  CHECK_THAT(failures[1], Contains("op_scale.conv: stored"));
  // After apply_fit the same check passes.
  const DeviceCalibration fixed = apply_fit(c, fit);
  CHECK(check_calibration(fixed, refit_calibration(fixed, nominal)).empty());
}

TEST_CASE("a stored scale that differs from the refit fails the check even when residuals pass") {
  // 1% off every class: the VGG-16 residual is +1% (within 5%), but the file is not what
  // `calibrate --write` would write, so the check reports each class (5-digit rounding allows 0.02%).
  DeviceCalibration c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  for (auto& [name, s] : c.op_scale) s *= 1.01;
  const auto failures = check_calibration(c, refit_calibration(c, nominal));
  REQUIRE(failures.size() == kOpClassCount);
  CHECK_THAT(failures[0], Contains("op_scale.conv") && Contains("+1.000%"));
}

TEST_CASE("a figure's work factor counts batch and training") {
  ReferenceFigure f;
  CHECK(figure_work_factor(f) == 1.0);
  f.batch = 150;
  CHECK(figure_work_factor(f) == 150.0);
  f.quantity = "train_step";
  CHECK(figure_work_factor(f) == 450.0);  // forward + backward ~ 3 forward passes
}

TEST_CASE("a figure can run a model at another input size") {
  const Graph g = build_zoo_model("resnet101");
  const Graph big = with_input_shape(g, {3, 600, 1000});
  CHECK(big.name() == "resnet101@3x600x1000");
  CHECK(big.total_params() == g.total_params());
  // Convolutions scale with the pixel count: 600*1000 / (224*224) = 11.96x; the fc does not.
  CHECK(static_cast<double>(big.total_macs()) / static_cast<double>(g.total_macs()) ==
        Approx(11.9).margin(0.3));
  CHECK_THROWS_AS(with_input_shape(g, {3, 8}), InputError);
}

TEST_CASE("host seconds are summed per op class") {
  const Graph g = build_zoo_model("lenet5");
  const HostProfile p = nominal(g);
  const auto by_class = host_seconds_by_class(g, p, 2.0);
  double total = 0.0;
  for (const auto& [c, s] : by_class) total += s;
  CHECK(total == Approx(2.0 * p.range_sum_s(0, g.size() - 1)));
  CHECK(by_class.at(OpClass::Conv) > 0.0);
}

namespace {

// op_scale 2 (fc 3) and a pinned LeNet-5 latency of 50 ms; `extra` adds reference figures.
DeviceCalibration pinned_device(const std::string& extra = "") {
  return calibration_from_json(Json::parse(R"({
    "format": "coinfer-calibration/1", "name": "dev", "kind": "phone_cpu", "precision": "fp32",
    "memory_bytes": 2147483648, "op_scale": {"default": 2.0, "fc": 3.0},
    "power": {"idle_w": 0.5, "busy_w": 3.0},
    "references": [{"model": "lenet5", "quantity": "latency", "value": 50, "unit": "ms",
                    "fitted": false, "pinned": true, "source": "test")" +
                                           extra + R"(}], "notes": "test"})"));
}

double total_s(const std::string& model, const DeviceCalibration& device) {
  const Graph g = build_zoo_model(model);
  return CostModel(g, nominal(g)).total_time_s(device);
}

}  // namespace

TEST_CASE("a pinned figure makes its model take the stated time, and no other model") {
  const DeviceCalibration unpinned = pinned_device();  // model_scale is filled by pin_model_times
  DeviceCalibration pinned = unpinned;
  pin_model_times(pinned);
  // The factor is the stated time over what op_scale predicts: 0.05 s / LeNet-5's op-scaled time.
  REQUIRE(pinned.model_scale.size() == 1);
  CHECK(pinned.model_scale.at("lenet5") == Approx(0.05 / total_s("lenet5", unpinned)).epsilon(1e-12));
  CHECK(total_s("lenet5", pinned) == Approx(0.05).epsilon(1e-12));
  CHECK(total_s("alexnet", pinned) == total_s("alexnet", unpinned));
}

TEST_CASE("a pinned training step counts its batch and the training factor") {
  // nexus5x.json pins LeNet's 11,031 ms per step of 128 ([Mao-PhD §3.6.2]): one sample's forward
  // pass is 11.031 s / (128 x 3).
  const DeviceCalibration c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5x.json");
  CHECK(c.model_scale.count("mxnet_lenet") == 1);
  CHECK(3.0 * 128.0 * total_s("mxnet_lenet", c) == Approx(11.031).epsilon(1e-12));
  CHECK(3.0 * 128.0 * total_s("convnet", c) == Approx(14.780).epsilon(1e-12));
}

TEST_CASE("a second pinned figure of the same model is an error naming it") {
  DeviceCalibration c = pinned_device(R"(}, {"model": "lenet5", "quantity": "latency", "value": 60,
    "unit": "ms", "pinned": true, "source": "test")");
  try {
    pin_model_times(c);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Contains("references[1].pinned") && Contains("a second pinned figure of 'lenet5'"));
  }
}

TEST_CASE("a pinned figure in a file fitted on measured host times is an error") {
  DeviceCalibration c = pinned_device();
  c.fit = FitRecord{"some cpu", "profile"};
  try {
    pin_model_times(c);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Contains("references[0].pinned") && Contains("estimate basis"));
  }
}
