// `coinfer calibrate --from-profile`: fitting a device from per-layer profiles, and the
// `calibrate --write` rule that a file is written valid (estimate basis) or not at all.
//
// The synthetic csv profiles (tests/sim/calibration/synthetic_device.hpp) time each layer with
// work as its host estimate x a known scale of its op class, so the written op_scale must be those
// scales and every row's residual ~0.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/json_access.hpp"
#include "sim/models/zoo.hpp"
#include "tests/cli/cli_runner.hpp"
#include "tests/sim/calibration/synthetic_device.hpp"

using namespace coinfer;
using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

// A `layer,ms` profile of a zoo model on that device, in the scratch folder.
std::string synthetic_csv(const std::string& model) {
  std::string text = "layer,ms\n";
  for (const auto& t : test::synthetic_layer_times(build_zoo_model(model)))
    text += fmt::format("{},{:.9g}\n", t.name, t.ms);
  return write_text(model + ".csv", text).string();
}

// nexus5.json renamed "mine" (the stem of the copy), without its fit record unless `keep_fit`.
std::string nexus5_copy(bool keep_fit) {
  Json j = read_json_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  if (!keep_fit) j.erase("fit");
  j["name"] = "mine";
  return write_text("mine.json", j.dump(2)).string();
}

const std::string kDevice = "--name dev --description 'a test phone' --idle-w 1 --busy-w 4 --date 2025-03-14";

// The last column (residual %) of every row of the first per-row table printed.
std::vector<double> row_residuals_pct(const std::string& out) {
  std::istringstream in(out);
  std::string line;
  std::vector<double> residuals;
  while (std::getline(in, line) && !line.starts_with("---")) {
  }
  while (std::getline(in, line) && !line.empty() && line.back() == '%')
    residuals.push_back(std::stod(line.substr(line.find_last_of(' ') + 1)));
  return residuals;
}

std::string example(const std::string& name) {
  return "'" COINFER_SOURCE_DIR "/examples/profiles/" + name + "'";
}

}  // namespace

TEST_CASE("calibrate --from-profile recovers the per-class scales of a synthetic csv profile") {
  const auto out = scratch_dir() / "dev.json";
  const auto r = run_cli("calibrate --from-profile " + synthetic_csv("lenet5") + " --model lenet5 " +
                         kDevice + " -o " + out.string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("12 rows matched by name"));  // lenet5: 12 layers with work
  const auto residuals = row_residuals_pct(r.out);
  CHECK(residuals.size() == 12);
  for (double residual : residuals) CHECK(std::fabs(residual) < 0.1);
  const DeviceCalibration c = load_calibration_file(out.string());
  CHECK(c.op_scale.at("conv") == Approx(20.0).epsilon(1e-4));
  CHECK(c.op_scale.at("pool") == Approx(5.0).epsilon(1e-4));
  CHECK(c.op_scale.at("elementwise") == Approx(8.0).epsilon(1e-4));
  CHECK(c.op_scale.at("fc") == Approx(12.0).epsilon(1e-4));
  REQUIRE(c.provenance);
  CHECK(c.provenance->profiles.at(0).file == "lenet5.csv");  // relative to the file's folder
  CHECK(c.provenance->profiles.at(0).rows_matched == 12);
  CHECK(c.provenance->profiles.at(0).sha256.size() == 64);
}

TEST_CASE("a profile-fitted device works in coinfer costs") {
  const auto out = scratch_dir() / "dev.json";
  REQUIRE(run_cli("calibrate --from-profile " + synthetic_csv("lenet5") + " --model lenet5 " + kDevice +
                  " -o " + out.string())
              .exit_code == 0);
  const auto r = run_cli("costs lenet5 --device " + out.string());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("model lenet5 on dev"));
}

TEST_CASE("the same profiles and --date give a byte-identical file") {
  const auto csv = synthetic_csv("lenet5");
  const auto out = scratch_dir() / "dev.json";
  const std::string args =
      "calibrate --from-profile " + csv + " --model lenet5 " + kDevice + " -o " + out.string();
  REQUIRE(run_cli(args).exit_code == 0);
  const std::string first = read_text(out);
  std::filesystem::remove(out);
  REQUIRE(run_cli(args).exit_code == 0);
  CHECK(read_text(out) == first);
  CHECK_THAT(first, Contains("\"date\": \"2025-03-14\""));
}

TEST_CASE("a torch trace with a record_function range per layer is matched by name") {
  // examples/profiles/tiny_cnn_torch.json: 8 annotated layers; the model's softmax has no range.
  const auto r =
      run_cli("calibrate --from-profile " + example("tiny_cnn_torch.json") + " --model " +
              example("tiny_cnn.json") + " " + kDevice + " -o " + (scratch_dir() / "dev.json").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("8 rows matched by name"));
  CHECK_THAT(r.out, Contains("unmatched layers (no row times them): prob"));
}

TEST_CASE("a TFLite node with a fused relu is reported as one row covering both layers") {
  const auto r =
      run_cli("calibrate --from-profile " + example("tiny_cnn_tflite.csv") + " --format tflite-csv --model " +
              example("tiny_cnn.json") + " " + kDevice + " -o " + (scratch_dir() / "dev.json").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("7 rows matched by order"));
  CHECK_THAT(r.out, Contains("(CONV_2D, line 26) covers conv1, relu1"));
  CHECK_THAT(r.out, Contains("(CONV_2D, line 28) covers conv2, relu2"));
}

TEST_CASE("a profile whose rows match no layer is one error line naming the file, exit 2") {
  // 2 rows for lenet5's 12 layers with work, named after none of them: neither by name nor in
  // order (which needs one row per layer); the first stray row, foo, is on line 2.
  const std::string text = "layer,ms\nfoo,1.0\nbar,2.0\n";
  const auto csv = write_text("other.csv", text).string();
  const auto out = scratch_dir() / "dev.json";
  const auto r =
      run_cli("calibrate --from-profile " + csv + " --model lenet5 " + kDevice + " -o " + out.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(csv + ": line 2: row 'foo' (line 2) names no layer of model 'lenet5'"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("one --model per --from-profile, else one error naming --model") {
  const auto csv = synthetic_csv("lenet5");
  const auto r = run_cli("calibrate --from-profile " + csv + " --from-profile " + csv + " --model lenet5 " +
                         kDevice + " -o " + (scratch_dir() / "dev.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--model") && Contains("got 1 --model for 2 --from-profile"));
}

TEST_CASE("a profile whose extension names no format asks for --format") {
  const auto txt = write_text("times.txt", "layer,ms\nconv1,1\n").string();
  const auto r = run_cli("calibrate --from-profile " + txt + " --model lenet5 " + kDevice + " -o " +
                         (scratch_dir() / "dev.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("times.txt") && Contains("give --format"));
}

TEST_CASE("calibrate --held-out on three models of one device predicts each from the others with ~0 error") {
  const auto out = scratch_dir() / "dev.json";
  std::string args = "calibrate --held-out";
  for (const auto* m : {"lenet5", "digits_cnn", "mxnet_mlp"})
    args += fmt::format(" --from-profile {} --model {}", synthetic_csv(m), m);
  const auto r = run_cli(args + " " + kDevice + " -o " + out.string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("end-to-end |error| over 3 models: median 0.00%, p90 0.00%, max 0.00%"));
}

TEST_CASE("calibrate --check refits a profile-fitted file from its recorded profiles") {
  const auto out = scratch_dir() / "dev.json";
  REQUIRE(run_cli("calibrate --from-profile " + synthetic_csv("lenet5") + " --model lenet5 " + kDevice +
                  " -o " + out.string())
              .exit_code == 0);
  const auto ok = run_cli("calibrate --check " + out.string());
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Contains("refitted from 1 recorded profile(s)"));
  write_text("lenet5.csv", "layer,ms\nconv1,1\n");  // the profile changed since the fit
  const auto changed = run_cli("calibrate --check " + out.string());
  CHECK(changed.exit_code == 2);
  CHECK_THAT(changed.out, Contains("changed since the fit"));
  std::filesystem::remove(scratch_dir() / "lenet5.csv");
  const auto missing = run_cli("calibrate --check " + out.string());
  CHECK(missing.exit_code == 0);
  CHECK_THAT(missing.out, Contains("not found next to the file: not refitted"));
}

TEST_CASE("calibrate --write on a file without a fit record writes one every scenario accepts") {
  // The trap: a hand-made file with no `fit` used to be refitted on this host's measured times and
  // written with a profile-basis record that scenarios and `coinfer costs` refuse.
  const auto file = nexus5_copy(false);
  const auto w = run_cli("calibrate --write " + file);
  INFO(w.out << w.err);
  REQUIRE(w.exit_code == 0);
  CHECK(load_calibration_file(file).fit->host_basis == "estimate");
  CHECK(run_cli("costs lenet5 --device " + file).exit_code == 0);
}

TEST_CASE("calibrate --write --basis profile is refused before fitting and names the fit key to write") {
  const auto file = nexus5_copy(true);
  const auto before = read_text(file);
  const auto r = run_cli("calibrate --write --basis profile " + file);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("mine.json: fit: not written") && Contains(R"("host_basis": "estimate")"));
  CHECK_THAT(r.err, !Contains("::"));  // no C++ name
  CHECK(read_text(file) == before);
}

TEST_CASE("calibrate --name must be the stem of the file written") {
  // platforms/calibration/README.md: one file per device, <name>.json; --check refuses another name.
  const auto out = scratch_dir() / "phone.json";
  const auto r = run_cli("calibrate --from-profile " + synthetic_csv("lenet5") + " --model lenet5 " +
                         kDevice + " -o " + out.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--name: expected 'phone', the stem of -o") && Contains("got 'dev'"));
  CHECK_FALSE(std::filesystem::exists(out));
}
