// `coinfer calibrate` and `coinfer profile` through the binary.
#include <filesystem>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string shipped_files() {
  std::string files;
  for (const auto& e : std::filesystem::directory_iterator(COINFER_SOURCE_DIR "/platforms/calibration"))
    if (e.path().extension() == ".json") files += " " + e.path().string();
  return files;
}

}  // namespace

TEST_CASE("calibrate --check passes for every shipped file on the estimate basis") {
  const auto r = run_cli("calibrate --check --basis estimate" + shipped_files());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("check: 12 file(s)") && Contains("0 file(s) failed"));
  CHECK_THAT(r.out, Contains("vgg16 latency") && Contains("15809 ms"));
}

TEST_CASE("calibrate --write updates a file from its figures") {
  const std::string file = (scratch_dir() / "dev.json").string();
  std::filesystem::copy_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json", file,
                             std::filesystem::copy_options::overwrite_existing);
  std::string text = read_text(file);
  const auto at = text.find("\"default\": ");
  REQUIRE(at != std::string::npos);
  text.replace(at, text.find('\n', at) - at, "\"default\": 1.0");  // a wrong scale
  write_text("dev.json", text);
  CHECK(run_cli("calibrate --check --basis estimate " + file).exit_code == 2);
  const auto w = run_cli("calibrate --write --basis estimate " + file);
  INFO(w.out << w.err);
  CHECK(w.exit_code == 0);
  CHECK_THAT(w.out, Contains("wrote " + file));
  CHECK(run_cli("calibrate --check --basis estimate " + file).exit_code == 0);
}

TEST_CASE("a bad calibration file is one error line naming file and key") {
  const auto path = write_text("bad_calibration.json", R"({"format": "coinfer-calibration/1", "name": "x",
    "kind": "phone_cpu", "precision": "fp32", "memory_bytes": 2147483648, "op_scale": {"default": -1},
    "power": {"idle_w": 1, "busy_w": 2}, "references": []})");
  const auto r = run_cli("calibrate " + path.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, StartsWith("coinfer: error: " + path.string() +
                               ": op_scale.default: expected a positive number"));
}

TEST_CASE("profile prints every layer and the sum of medians") {
  const auto r = run_cli("profile lenet5 --repeats 2 --no-cache");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("conv1") && Contains("sum of medians"));
  const auto j = run_cli("profile lenet5 --repeats 2 --no-cache --json --groups --max-group 2");
  CHECK(j.exit_code == 0);
  const auto json = nlohmann::json::parse(j.out);
  CHECK(json["layers"].size() == 13);
  CHECK(json["groups"].size() == 13);  // 12 pairs + the whole model
}
