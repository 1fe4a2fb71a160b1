// `coinfer costs MODEL --device D`: per-layer (and per-group) time and energy from the cost model.
#include <cmath>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

json costs_json(const std::string& args) {
  const auto r = run_cli("costs " + args + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

// The whole-model device time the cost model gives, as `coinfer partition` of the `local`
// partitioner reports it (its one task lasts CostModel::total_time_s of the source device).
double local_plan_duration_s(const std::string& model, const std::string& device) {
  const auto s = write_text("local_" + model + ".yaml",
                            "name: l\nmodel: " + model +
                                "\nplatform:\n  devices:\n    - {name: d, calibration: " + kRoot +
                                "/platforms/calibration/" + device +
                                ".json}\nhost_profile: {basis: estimate}\npartitioner: local\n");
  const auto r = run_cli("partition " + s.string() + " --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["tasks"][0]["duration_s"].get<double>();
}

}  // namespace

TEST_CASE("costs: the per-layer times sum to the whole-model time of the cost model") {
  // On the estimate basis a layer's device time is host_l * op_scale[class]; the nexus5 file has
  // one scale for every class (default 14.301) and no sparse-fc slopes, and an estimate has no
  // grouped timings, so CostModel::total_time_s = sum_l host_l * 14.301 = sum of the layer rows.
  // The expected total is computed by another path: the local plan's task of `coinfer partition`.
  const auto j = costs_json("lenet5 --device nexus5");
  double sum_s = 0.0;
  for (const auto& l : j["layers"]) {
    sum_s += l["time_s"].get<double>();
    if (l["host_s"].get<double>() > 0.0)
      CHECK(l["time_s"].get<double>() / l["host_s"].get<double>() == Approx(14.301).epsilon(1e-12));
  }
  const double expected_s = local_plan_duration_s("lenet5", "nexus5");
  CHECK(sum_s == Approx(expected_s).epsilon(1e-12));
  CHECK(j["total"]["time_s"].get<double>() == Approx(expected_s).epsilon(1e-12));
}

TEST_CASE("costs: energy is the device's busy power times the time") {
  // nexus5: power.busy_w = 3.5 W.
  const auto j = costs_json("lenet5 --device nexus5");
  CHECK(j["busy_w"] == 3.5);
  for (const auto& l : j["layers"])
    CHECK(l["energy_j"].get<double>() == Approx(3.5 * l["time_s"].get<double>()).epsilon(1e-12));
  CHECK(j["total"]["energy_j"].get<double>() ==
        Approx(3.5 * j["total"]["time_s"].get<double>()).epsilon(1e-12));
}

TEST_CASE("costs --json: the keys of the document") {
  const auto j = costs_json("lenet5 --device nexus5");
  for (const auto* k : {"model", "device", "device_file", "busy_w", "host_profile", "layers", "total"})
    CHECK(j.contains(k));
  CHECK_FALSE(j.contains("groups"));  // only with --groups
  CHECK(j["model"] == "lenet5");
  CHECK(j["device"] == "nexus5");
  CHECK(j["host_profile"]["basis"] == "estimate");  // the default: deterministic
  REQUIRE(j["layers"].size() == 13);                // lenet5's 13 layers, in topological order
  for (const auto* k : {"position", "name", "op", "op_class", "host_s", "time_s", "energy_j"})
    CHECK(j["layers"][1].contains(k));
  CHECK(j["layers"][1]["name"] == "conv1");
  CHECK(j["layers"][1]["op_class"] == "conv");
}

TEST_CASE("costs --groups: every run of 2..4 consecutive layers and the whole model") {
  const auto j = costs_json("lenet5 --device nexus5 --groups");
  const auto& layers = j["layers"];
  // n = 13 layers: (n-1) + (n-2) + (n-3) runs of length 2, 3, 4, plus the whole model = 3n - 5 = 34.
  REQUIRE(j["groups"].size() == 34);
  for (const auto& g : j["groups"]) {
    // The estimate has no grouped timings, so a group costs the sum of its layers.
    double sum_s = 0.0;
    for (auto i = g["first"].get<std::size_t>(); i <= g["last"].get<std::size_t>(); ++i)
      sum_s += layers[i]["time_s"].get<double>();
    CHECK(g["grouped"] == false);
    CHECK(g["time_s"].get<double>() == Approx(sum_s).epsilon(1e-12));
  }
  const auto& whole = j["groups"].back();
  CHECK(whole["first"] == 0);
  CHECK(whole["last"] == 12);
  CHECK(whole["time_s"].get<double>() == Approx(j["total"]["time_s"].get<double>()).epsilon(1e-12));
}

TEST_CASE("costs prints a layer table with the whole-model row") {
  const auto r = run_cli("costs lenet5 --device nexus5");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("model lenet5 on nexus5 (busy 3.5 W), host basis estimate"));
  CHECK_THAT(r.out, Contains("conv1") && Contains("whole model"));
  const auto g = run_cli("costs lenet5 --device nexus5 --groups --max-group 2");
  REQUIRE(g.exit_code == 0);
  CHECK_THAT(g.out, Contains("[0, 12]") && Contains("sum of layers"));
}

TEST_CASE("costs takes a calibration file as the device") {
  const auto by_name = costs_json("lenet5 --device pixel2");
  const auto by_file = costs_json("lenet5 --device " + kRoot + "/platforms/calibration/pixel2.json");
  CHECK(by_file["total"] == by_name["total"]);
}
