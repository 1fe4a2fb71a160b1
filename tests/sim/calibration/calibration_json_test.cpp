// Calibration files: every shipped file loads, the JSON round trip is exact, and each kind of
// bad file (missing key, non-positive speed, unknown op class, unit errors) gets its own error.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::vector<std::string> shipped_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(COINFER_SOURCE_DIR "/platforms/calibration"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Json valid() {
  return Json::parse(R"({
    "format": "coinfer-calibration/1", "name": "dev", "kind": "phone_cpu", "precision": "fp32",
    "memory_bytes": 2147483648,
    "op_scale": {"default": 2.0, "fc": 3.0},
    "power": {"idle_w": 0.5, "busy_w": 3.0},
    "radio": {"wifi": {"uplink_alpha_mw_per_mbps": 283.17, "uplink_beta_mw": 132.86,
                       "downlink_alpha_mw_per_mbps": 137.01, "downlink_beta_mw": 132.86}},
    "references": [{"model": "vgg16", "quantity": "latency", "value": 15809, "unit": "ms",
                    "source": "[MoDNN Table 1]"}],
    "notes": "test"})");
}

std::string error_of(const Json& j) {
  try {
    calibration_from_json(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("every shipped calibration file loads") {
  const auto files = shipped_files();
  REQUIRE(files.size() >= 12);
  for (const auto& f : files) {
    INFO(f);
    const DeviceCalibration c = load_calibration_file(f);
    CHECK(c.file == f);
    CHECK(c.op_scale.size() == 10);
    // Fitted to published figures, or (torch_cpu) to per-layer profiles its provenance records.
    CHECK((!c.references.empty() || c.provenance));
    CHECK(std::filesystem::path(f).stem() == c.name);
  }
}

TEST_CASE("the twelve devices of the papers are shipped") {
  for (const char* name : {"nexus5", "nexus5x", "pixel2", "iphone8", "rpi3bplus", "jetson_tx2", "tesla_k40c",
                           "gtx1080", "gtx_titan", "gtx1070ti_desktop", "mate10pro_cpu", "mate10pro_npu"}) {
    INFO(name);
    CHECK(
        std::filesystem::exists(std::string(COINFER_SOURCE_DIR "/platforms/calibration/") + name + ".json"));
  }
}

TEST_CASE("the NPU computes in fp16") {
  const auto c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/mate10pro_npu.json");
  CHECK(c.precision == Precision::Fp16);
  CHECK(c.kind == DeviceKind::Npu);
}

TEST_CASE("phone radios carry JointDNN Table 3 (eq. 21) parameters") {
  const auto c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  // Table 3, Wi-Fi column: alpha_u 283.17 mW/Mbps, alpha_d 137.01 mW/Mbps, beta 132.86 mW.
  CHECK(c.radio.at("wifi").uplink_alpha_mw_per_mbps == 283.17);
  CHECK(c.radio.at("wifi").downlink_alpha_mw_per_mbps == 137.01);
  CHECK(c.radio.at("wifi").uplink_beta_mw == 132.86);
  CHECK(c.radio.at("3g").uplink_alpha_mw_per_mbps == 868.98);
  CHECK(c.radio.at("4g").downlink_beta_mw == 1288.04);
}

TEST_CASE("phone radios carry the throughputs JointDNN applies eq. 21 at as their stated range") {
  const auto c = load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  // Table 3's mean speeds: Wi-Fi 18.88 Mbps up, 54.97 down; 4G 5.85 up, 13.76 down.
  CHECK(c.radio.at("wifi").uplink_range_mbps == std::array<double, 2>{0.0, 18.88});
  CHECK(c.radio.at("wifi").downlink_range_mbps == std::array<double, 2>{0.0, 54.97});
  CHECK(c.radio.at("4g").uplink_range_mbps == std::array<double, 2>{0.0, 5.85});
  CHECK(c.radio.at("4g").downlink_range_mbps == std::array<double, 2>{0.0, 13.76});
  CHECK_THAT(c.radio.at("3g").range_source, Contains("[JointDNN Table 3]"));
}

TEST_CASE("a radio fit without a stated range has none") {
  const auto c = calibration_from_json(valid());
  CHECK_FALSE(c.radio.at("wifi").uplink_range_mbps);
  CHECK_FALSE(c.radio.at("wifi").downlink_range_mbps);
}

TEST_CASE("a radio range must be [low, high] with low < high") {
  Json j = valid();
  j["radio"]["wifi"]["range_source"] = "test";
  j["radio"]["wifi"]["uplink_range_mbps"] = {20, 10};
  CHECK_THAT(error_of(j),
             Contains("radio.wifi.uplink_range_mbps: expected [low, high] Mbps with low < high"));
  j["radio"]["wifi"]["uplink_range_mbps"] = {10};
  CHECK_THAT(error_of(j), Contains("radio.wifi.uplink_range_mbps"));
  j["radio"]["wifi"]["uplink_range_mbps"] = {-1, 10};
  CHECK_THAT(error_of(j), Contains("radio.wifi.uplink_range_mbps"));
}

TEST_CASE("a radio range needs its source, and a source needs a range") {
  Json j = valid();
  j["radio"]["wifi"]["downlink_range_mbps"] = {0, 50};
  CHECK_THAT(error_of(j), Contains("radio.wifi.range_source: missing key"));
  j = valid();
  j["radio"]["wifi"]["range_source"] = "test";
  CHECK_THAT(error_of(j), Contains("radio.wifi.range_source: a source for no range"));
}

TEST_CASE("a pinned figure is read and written back, and a pin that is not a boolean is an error") {
  Json j = valid();
  j["references"][0]["pinned"] = true;
  const auto c = calibration_from_json(j);
  CHECK(c.references.at(0).pinned);
  CHECK(calibration_to_json(c)["references"][0]["pinned"] == true);
  CHECK_FALSE(calibration_from_json(valid()).references.at(0).pinned);
  CHECK_FALSE(calibration_to_json(calibration_from_json(valid()))["references"][0].contains("pinned"));
  j["references"][0]["pinned"] = "yes";
  CHECK_THAT(error_of(j), Contains("references[0].pinned"));
}

TEST_CASE("default op_scale fills the classes not listed") {
  const auto c = calibration_from_json(valid());
  CHECK(c.op_scale.at("conv") == 2.0);
  CHECK(c.op_scale.at("fc") == 3.0);
  CHECK(c.op_scale.at("other") == 2.0);
  CHECK(c.references.at(0).fitted);
  CHECK(c.references.at(0).batch == 1);
}

TEST_CASE("the JSON round trip is exact") {
  for (const auto& f : shipped_files()) {
    INFO(f);
    DeviceCalibration c = load_calibration_file(f);
    c.file.clear();
    c.model_scale.clear();  // derived from the pinned figures at load, not written
    CHECK(calibration_from_json(calibration_to_json(c)) == c);
    CHECK(calibration_from_json(Json::parse(calibration_file_text(c))) == c);
  }
}

TEST_CASE("a missing key names its path") {
  Json j = valid();
  j.erase("power");
  CHECK_THAT(error_of(j), Contains("power: missing key"));
  j = valid();
  j["references"][0].erase("source");
  CHECK_THAT(error_of(j), Contains("references[0].source: missing key"));
}

TEST_CASE("without a default every op class must be listed") {
  Json j = valid();
  j["op_scale"].erase("default");
  CHECK_THAT(error_of(j), Contains("op_scale.conv: missing key"));
}

TEST_CASE("a negative or zero speed is rejected") {
  Json j = valid();
  j["op_scale"]["conv"] = -2.0;
  CHECK_THAT(error_of(j), Contains("op_scale.conv: expected a positive number"));
  j["op_scale"]["conv"] = 0.0;
  CHECK_THAT(error_of(j), Contains("op_scale.conv: expected a positive number"));
}

TEST_CASE("an unknown op class lists the known ones") {
  Json j = valid();
  j["op_scale"]["convolution"] = 2.0;
  CHECK_THAT(error_of(j), Contains("op_scale.convolution: unknown key") && Contains("sparse_fc"));
}

TEST_CASE("an unknown unit is rejected") {
  Json j = valid();
  j["references"][0]["unit"] = "msec";
  CHECK_THAT(error_of(j), Contains("references[0].unit: unknown time unit 'msec'"));
}

TEST_CASE("a unit of the wrong dimension is rejected") {
  Json j = valid();
  j["references"][0]["unit"] = "J";
  CHECK_THAT(error_of(j), Contains("references[0].unit: unknown time unit 'J'"));
}

TEST_CASE("a latency in s that was meant in ms is caught") {
  // 15809 s is 4.4 hours for one VGG-16 inference: the figure was in ms.
  Json j = valid();
  j["references"][0]["unit"] = "s";
  CHECK_THAT(error_of(j), Contains("references[0].value") && Contains("ms vs s"));
}

TEST_CASE("power in mW typed into a W key is caught") {
  Json j = valid();
  j["power"]["busy_w"] = 3500;
  CHECK_THAT(error_of(j), Contains("power.busy_w") && Contains("mW"));
}

TEST_CASE("busy power below idle power is rejected") {
  Json j = valid();
  j["power"]["busy_w"] = 0.1;
  CHECK_THAT(error_of(j), Contains("power.busy_w: expected busy_w >= idle_w"));
}

TEST_CASE("memory given in GB instead of bytes is caught") {
  Json j = valid();
  j["memory_bytes"] = 2;
  CHECK_THAT(error_of(j), Contains("memory_bytes") && Contains("in bytes"));
}

TEST_CASE("unknown kind, precision, quantity and network are rejected with the choices") {
  Json j = valid();
  j["kind"] = "phone";
  CHECK_THAT(error_of(j), Contains("kind") && Contains("phone_cpu"));
  j = valid();
  j["precision"] = "fp8";
  CHECK_THAT(error_of(j), Contains("precision") && Contains("fp16"));
  j = valid();
  j["references"][0]["quantity"] = "throughput";
  CHECK_THAT(error_of(j), Contains("references[0].quantity") && Contains("latency"));
  j = valid();
  j["radio"]["bluetooth"] = j["radio"]["wifi"];
  CHECK_THAT(error_of(j), Contains("radio.bluetooth: unknown key"));
}

TEST_CASE("a file error carries the file name") {
  const auto dir = coinfer::test::scratch_dir();
  const auto file = (dir / "bad.json").string();
  Json j = valid();
  j["op_scale"]["conv"] = -1;
  std::ofstream(file) << j.dump();
  try {
    load_calibration_file(file);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == file);
    CHECK_THAT(std::string(e.what()), Contains(file + ": op_scale.conv"));
  }
}

TEST_CASE("time units convert to seconds") {
  CHECK(time_unit_seconds("s", "") == 1.0);
  CHECK(time_unit_seconds("ms", "") == 1e-3);
  CHECK(time_unit_seconds("us", "") == 1e-6);
  ReferenceFigure f;
  f.value = 15809;
  f.unit = "ms";
  CHECK(reference_value_s(f) == Approx(15.809));
}

namespace {

Json with_provenance() {
  Json j = valid();
  j["provenance"] =
      Json::parse(R"({"description": "my phone", "date": "2025-03-14", "host_times": "estimate",
    "profiles": [{"file": "resnet18.csv", "sha256": ")" +
                  std::string(64, 'a') + R"(", "format": "csv", "model": "resnet18", "rows_matched": 21}]})");
  return j;
}

}  // namespace

TEST_CASE("a provenance block round-trips through the file text") {
  const DeviceCalibration c = calibration_from_json(with_provenance());
  REQUIRE(c.provenance);
  CHECK(c.provenance->profiles.at(0).rows_matched == 21);
  CHECK(calibration_from_json(Json::parse(calibration_file_text(c))) == c);
}

TEST_CASE("a provenance block with a bad date or digest names the key") {
  Json j = with_provenance();
  j["provenance"]["date"] = "14/03/2025";
  CHECK_THAT(error_of(j), Contains("provenance.date: expected YYYY-MM-DD"));
  j = with_provenance();
  j["provenance"]["profiles"][0]["sha256"] = "abc";
  CHECK_THAT(error_of(j), Contains("provenance.profiles[0].sha256: expected 64 lowercase hex digits"));
}
