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

// Runs `calibrate --check` on a copy of the shipped nexus5.json changed by `edit`.
template <class Edit>
CliResult calibrate_edited(const std::string& name, Edit edit) {
  auto j = nlohmann::json::parse(read_text(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json"));
  edit(j);
  return run_cli("calibrate --check " + write_text(name, j.dump(2)).string());
}

}  // namespace

TEST_CASE("calibrate --check passes for every shipped file on the estimate basis") {
  const auto r = run_cli("calibrate --check --basis estimate" + shipped_files());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("check: 14 file(s)") && Contains("0 file(s) failed"));
  CHECK_THAT(r.out, Contains("vgg16 latency") && Contains("15809 ms"));
}

TEST_CASE("calibrate --check reproduces every shipped file on the basis its fit record names") {
  // No --basis: each file is refitted on its recorded basis (all shipped: the estimate), so the
  // check also compares the refitted op_scale with the shipped one.
  const auto r = run_cli("calibrate --check" + shipped_files());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("check: 14 file(s)") && Contains("0 file(s) failed"));
  CHECK_THAT(r.out, Contains("host basis estimate on 'nominal reference host'"));
  CHECK_THAT(r.out, !Contains("FAIL"));
}

TEST_CASE("calibrate --check refuses a file whose name is not its file stem") {
  // A copy of nexus5.json saved as phone.json still says "name": "nexus5".
  const auto r = calibrate_edited("phone.json", [](nlohmann::json&) {});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("phone.json: name: expected 'phone', the file's stem") && Contains("got 'nexus5'"));
}

TEST_CASE("calibrate --check refuses a file without the fit record naming its basis") {
  const auto r = calibrate_edited("nexus5.json", [](nlohmann::json& j) { j.erase("fit"); });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("nexus5.json: fit: missing key; --check compares the refit op_scale"));
}

TEST_CASE("calibrate --write updates a file from its figures") {
  const std::string file = (scratch_dir() / "nexus5.json").string();  // `name` is the file stem
  std::filesystem::copy_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json", file,
                             std::filesystem::copy_options::overwrite_existing);
  std::string text = read_text(file);
  const auto at = text.find("\"default\": ");
  REQUIRE(at != std::string::npos);
  text.replace(at, text.find('\n', at) - at, "\"default\": 1.0");  // a wrong scale
  write_text("nexus5.json", text);
  CHECK(run_cli("calibrate --check --basis estimate " + file).exit_code == 2);
  const auto w = run_cli("calibrate --write --basis estimate " + file);
  INFO(w.out << w.err);
  CHECK(w.exit_code == 0);
  CHECK_THAT(w.out, Contains("wrote " + file));
  CHECK(run_cli("calibrate --check --basis estimate " + file).exit_code == 0);
}

TEST_CASE("a calibration file without a required key names the key") {
  const auto r = calibrate_edited("missing_key.json", [](nlohmann::json& j) { j["power"].erase("busy_w"); });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("missing_key.json: power.busy_w: missing key"));
  CHECK(r.out.empty());
}

TEST_CASE("a calibration file with an unknown op class lists the known ones") {
  const auto r =
      calibrate_edited("unknown_class.json", [](nlohmann::json& j) { j["op_scale"]["convolution"] = 20; });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("unknown_class.json: op_scale.convolution: unknown key") && Contains("depthwise"));
}

TEST_CASE("a calibration figure in an unknown time unit names the figure's unit") {
  const auto r =
      calibrate_edited("bad_unit.json", [](nlohmann::json& j) { j["references"][0]["unit"] = "msec"; });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("bad_unit.json: references[0].unit: unknown time unit 'msec'"));
}

TEST_CASE("a calibration figure given in s where ms was meant is caught") {
  // VGG-16 on the Nexus 5 in 15809 s would be 4.4 hours per inference.
  const auto r =
      calibrate_edited("s_for_ms.json", [](nlohmann::json& j) { j["references"][0]["unit"] = "s"; });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("s_for_ms.json: references[0].value") && Contains("ms vs s"));
}

TEST_CASE("a calibration power in mW typed into a W key is caught") {
  const auto r = calibrate_edited("mw_for_w.json", [](nlohmann::json& j) { j["power"]["busy_w"] = 3500; });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("mw_for_w.json: power.busy_w") && Contains("mW"));
}

TEST_CASE("a calibration memory in GB instead of bytes is caught") {
  const auto r = calibrate_edited("gb_for_bytes.json", [](nlohmann::json& j) { j["memory_bytes"] = 2; });
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("gb_for_bytes.json: memory_bytes") && Contains("in bytes"));
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
