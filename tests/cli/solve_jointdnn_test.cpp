// `coinfer solve` with the JointDNN family, through the binary.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kExample = std::string(COINFER_SOURCE_DIR) + "/scenarios/solve/jointdnn_example.json";

}  // namespace

TEST_CASE("solve jointdnn prints the optimal schedule of the example problem") {
  // scenarios/solve/jointdnn_example.json (illustrative numbers): layers 2-3 are slow on the mobile,
  // layer 1's output is cheap to upload (0.015 s) and layer 3's cheap to download (0.003 s). Optimum
  //   M[1] 0.010 + up(1) 0.015 + C[2..3] 0.0035 + down(3) 0.003 + M[4] 0.004 = 0.0355 s;
  // the skip [1, 3] reads layer 1's output on the cloud, where it already is (no second upload).
  // Energy: 0.02 + 0.04 + 0.008 + 0.02 = 0.088; cloud time 0.0035.
  // (Best single split, p = 1: 0.010 + 0.015 + C[2..4] 0.005 + down(4) 0.010 = 0.040.)
  const auto r = run_cli("solve jointdnn " + kExample);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto sol = nlohmann::json::parse(r.out);
  CHECK(sol["feasible"] == true);
  CHECK(sol["groups"] == nlohmann::json::parse(R"([{"first": 1, "last": 1, "on": "mobile"},
      {"first": 2, "last": 3, "on": "cloud"}, {"first": 4, "last": 4, "on": "mobile"}])"));
  CHECK(sol["latency"].get<double>() == Approx(0.0355));
  CHECK(sol["energy"].get<double>() == Approx(0.088));
  CHECK(sol["cloud_time"].get<double>() == Approx(0.0035));
}

TEST_CASE("solve neurosurgeon and the exact solvers agree with jointdnn on the example") {
  const auto exact = nlohmann::json::parse(run_cli("solve jointdnn " + kExample).out);
  for (const char* solver : {"jointdnn-ilp", "jointdnn-labels"}) {
    const auto r = run_cli(std::string("solve ") + solver + " " + kExample);
    INFO(solver << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["latency"].get<double>() ==
          Approx(exact["latency"].get<double>()).epsilon(1e-9));
  }
  const auto ns = run_cli("solve neurosurgeon " + kExample);
  REQUIRE(ns.exit_code == 0);
  CHECK(nlohmann::json::parse(ns.out)["latency"].get<double>() == Approx(0.040));
}

TEST_CASE("solve jointdnn on a malformed problem prints one error line with the path and exits 2") {
  const auto path = write_text("bad_jointdnn.json",
                               R"({"layers": 2, "mobile_time": [[1, 2], [1, 5]], "cloud_time": [[1, 2], [1]],
                                   "upload_time": [1, 1, 1], "download_time": [1, 1, 1],
                                   "objective": "latency"})");
  const auto r = run_cli("solve jointdnn " + path.string());
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err,
             StartsWith("coinfer: error: " + path.string() + ": mobile_time[1]: expected 1 entries, got 2"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("solve jointdnn with a maximum points to the constrained solvers") {
  const auto path = write_text("max_jointdnn.json",
                               R"({"layers": 1, "mobile_time": [[1]], "cloud_time": [[1]],
                                   "upload_time": [1, 1], "download_time": [1, 1],
                                   "objective": "latency", "max_latency": 1})");
  const auto r = run_cli("solve jointdnn " + path.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("max_latency") && Contains("jointdnn-labels"));
}
