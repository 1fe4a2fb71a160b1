// `coinfer calibrate --held-out FILE...` through the binary.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

TEST_CASE("calibrate --held-out reports the shipped files with two or more fitted figures") {
  // gtx1080 and gtx_titan (ResNet-101, DFF's FlowNet) and nexus5x (ConvNet, MLP) fit two figures each;
  // every other shipped file fits one and is listed as not reported.
  const std::string dir = COINFER_SOURCE_DIR "/platforms/calibration/";
  const auto r =
      run_cli("calibrate --held-out " + dir + "gtx1080.json " + dir + "nexus5x.json " + dir + "nexus5.json");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("gtx1080 (") && Contains("nexus5x (") && Contains("leave-one-figure-out"));
  CHECK_THAT(r.out, Contains("held-out: 4 figure(s) in 2 file(s)"));
  CHECK_THAT(r.out, Contains("fewer than two fitted figures, not reported: nexus5"));
}

TEST_CASE("calibrate --held-out predicts each figure at the scale of the other") {
  // Two VGG-16 latencies, 1000 ms and 2000 ms, on the same model: leaving out the first, the fit
  // on the second predicts 2000 ms (+100.0%); leaving out the second predicts 1000 ms (-50.0%).
  auto j = nlohmann::json::parse(read_text(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json"));
  auto second = j["references"][0];
  j["references"][0]["value"] = 1000;
  second["value"] = 2000;
  j["references"].push_back(second);
  const auto r = run_cli("calibrate --held-out " + write_text("nexus5.json", j.dump(2)).string());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("1000 ms    2000 ms  +100.0%") && Contains("2000 ms    1000 ms   -50.0%"));
  CHECK_THAT(r.out, Contains("|error| median 50.0%, max 100.0%"));
}

TEST_CASE("calibrate --held-out with --write is refused, the file untouched") {
  const auto file =
      write_text("nexus5.json", read_text(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json"));
  const auto r = run_cli("calibrate --held-out --write " + file.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--held-out: expected no --check or --write"));
  CHECK(read_text(file) == read_text(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json"));
}
