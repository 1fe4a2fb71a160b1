// The `dff` and `adff` schedulers through the CLI: a run on the shipped MobiEye platform writes the
// per-frame feature age into frames.csv, and bad parameters exit 2 naming the key path.
#include <catch2/catch.hpp>

#include "sim/core/json_access.hpp"
#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

// The MobiEye setting over the short fixture trace: 12 frames, one at a time, key interval 6.
std::filesystem::path scenario(const std::string& scheduler) {
  return write_text("s.yaml", "name: m\nmodel: flownets\nplatform: " + kRoot +
                                  "/platforms/mobieye.yaml\nsource: pixel2\nhost_profile: {basis: estimate}\n"
                                  "partitioner: {name: local, device: gtx1080}\n"
                                  "scheduler: {trace_file: " +
                                  kRoot + "/tests/fixtures/mobieye/short_trace.csv, " + scheduler +
                                  "}\nworkload: {kind: stream, rate_fps: 5, frames: 12, deadline_s: 10, "
                                  "policy: queue, max_in_flight: 1}\n");
}

}  // namespace

TEST_CASE("mobieye cli: a dff run writes each frame's feature age, key flag and time breakdown") {
  // Interval 6: frames 0 and 6 are key frames, ages 0..5 twice.
  const auto out = scratch_dir() / "out";
  const auto r = run_cli("run " + scenario("name: dff, interval: 6").string() + " --frames-csv -q --out " +
                         out.string());
  REQUIRE(r.exit_code == 0);
  const auto csv = read_text(out / "frames.csv");
  CHECK_THAT(csv, Contains("deadline_met,feature_age,key,upload_ms,inference_ms,result_ms\n"));
  CHECK_THAT(csv, Contains(",1,5,0,"));  // frame 5: deadline met, age 5, not a key frame
  CHECK_THAT(csv, Contains(",1,0,1,"));  // frames 0 and 6: age 0, key frame
  CHECK_THAT(read_text(out / "results.json"), Contains("\"mean_feature_age\": 2.5"));
}

TEST_CASE("mobieye cli: an adff run counts FeatNet background jobs on the TITAN") {
  // Key frames 0 and 6: two FeatNet jobs on gtx_titan.
  const auto out = scratch_dir() / "out";
  const auto r = run_cli("run " + scenario("name: adff, interval: 6").string() + " -q --out " + out.string());
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(read_text(out / "results.json"), Contains("\"background_jobs\": {\n    \"gtx_titan\": 2"));
}

TEST_CASE("mobieye cli: bad parameters exit 2 naming the key path") {
  auto fails = [](const std::string& scheduler, const std::string& expected) {
    const auto r =
        run_cli("run " + scenario(scheduler).string() + " -q --out " + (scratch_dir() / "o").string());
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(expected));
  };
  fails("name: adff, interval: 6, delay: 7", "scheduler.delay: expected <= interval (6), got 7");
  fails("name: adff, key_gpu: tpu", "scheduler.key_gpu: unknown device 'tpu' in platform 'mobieye'");
  fails("name: dff, resolution: 1920x1080",
        "scheduler.resolution: expected one of the trace's sizes: 320x240, 1280x960");
}

TEST_CASE("mobieye cli: the end-to-end scenario runs its three variants on a trace given with --set") {
  // scenarios/mobieye/mobieye-e2e.yaml over the fixture's 40 frames (interval 10): sequential DFF runs
  // its 4 key frames' FeatNet in line, so its mean inference time is above ADFF's.
  const auto out = scratch_dir() / "e2e";
  const auto r =
      run_cli("run " + kRoot + "/scenarios/mobieye/mobieye-e2e.yaml --set scheduler.trace_file=" + kRoot +
              "/tests/fixtures/mobieye/short_trace.csv --set workload.frames=40 -q --out " + out.string());
  REQUIRE(r.exit_code == 0);
  for (const char* variant : {"adff-pixel2", "dff-pixel2", "adff-nexus5"}) {
    INFO(variant);
    CHECK(std::filesystem::exists(out / variant / "frames.csv"));
  }
  const auto mean_inference = [&](const char* variant) {
    const auto j = coinfer::Json::parse(read_text(out / variant / "results.json"));
    return j.at("scheduler_metrics").at("mean_inference_ms").get<double>();
  };
  CHECK(mean_inference("dff-pixel2") > mean_inference("adff-pixel2"));
}
