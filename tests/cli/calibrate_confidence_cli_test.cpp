// `coinfer calibrate-confidence TRACE`: Table I (Tan & Cao sec. III-B) on the committed synthetic
// trace examples/cbo/synthetic_trace.csv (240 frames, overconfident by construction).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kTrace = std::string(COINFER_SOURCE_DIR) + "/examples/cbo/synthetic_trace.csv";

json calibrate_json(const std::string& args) {
  const auto out = scratch_dir() / "calibration.json";
  std::filesystem::remove(out);
  const auto r = run_cli("calibrate-confidence " + kTrace + " " + args + " --json " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(read_text(out));
}

}  // namespace

TEST_CASE("calibrate-confidence prints the uncalibrated row and one row per method") {
  const auto r = run_cli("calibrate-confidence " + kTrace + " --method platt,isotonic,temperature --seed 3");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, Contains("240 frames, 120 for training and 120 held out (seed 3)"));
  CHECK_THAT(r.out, Contains("held-out ECE"));
  for (const auto* method : {"uncalibrated", "platt", "isotonic", "temperature"})
    CHECK_THAT(r.out, Contains(method));
}

TEST_CASE("calibrate-confidence --json: fits, and 10 reliability bins covering each part") {
  const auto j = calibrate_json("--method platt,isotonic,temperature --train-fraction 0.25 --seed 3");
  CHECK(j["train_frames"] == 60);
  CHECK(j["held_out_frames"] == 180);
  const auto& results = j["results"];
  REQUIRE(results.size() == 4);
  CHECK(results[0]["method"] == "uncalibrated");
  CHECK(results[0]["parameters"].is_null());
  CHECK(results[1]["parameters"]["a"].get<double>() < 0);  // higher scores are right more often
  CHECK(results[2]["parameters"]["blocks"].size() >= 1);
  CHECK(results[3]["parameters"]["temperature"].get<double>() > 1);  // overconfident: T > 1 softens
  for (const auto& row : results) {
    REQUIRE(row["held_out"]["reliability"].size() == 10);
    int held_out = 0;
    for (const auto& bin : row["held_out"]["reliability"]) held_out += bin["count"].get<int>();
    CHECK(held_out == 180);
  }
}

TEST_CASE("calibrate-confidence: Platt lowers the held-out ECE of the overconfident trace") {
  const auto j = calibrate_json("--method platt --seed 1");
  const double before = j["results"][0]["held_out"]["ece"], after = j["results"][1]["held_out"]["ece"];
  CHECK(after < before);
}

TEST_CASE("calibrate-confidence: the split depends on the seed only") {
  const auto a = calibrate_json("--method isotonic --seed 5"),
             b = calibrate_json("--method isotonic --seed 5");
  const auto c = calibrate_json("--method isotonic --seed 6");
  CHECK(a == b);
  CHECK(a["results"][0]["train"] != c["results"][0]["train"]);
}

TEST_CASE("calibrate-confidence: an unknown method lists the known ones") {
  const auto r = run_cli("calibrate-confidence " + kTrace + " --method plat");
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "coinfer: error: --method: unknown calibration method 'plat'; known: isotonic, platt, platt-vector, "
        "temperature\n");
}
