// The `dff` and `adff` schedulers replayed on synthetic devices: the sec. 4.3.2 worked examples
// (the feature delay D_f emerges from the replay), sequential DFF's mean frame time, feature ages
// by hand, and bad parameters. Each simulation runs in a child process.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "schedulers/mobieye/dff_scheduler.hpp"
#include "sim/calibration/calibrate.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::mobieye;

namespace {

const std::string kTrace = std::string(COINFER_SOURCE_DIR) + "/tests/fixtures/mobieye/short_trace.csv";

void set_scale(Device& d, double scale) {
  for (auto c : all_op_classes()) d.calibration.edit().op_scale[std::string(op_class_name(c))] = scale;
}

// A device on which `model` at `shape` takes exactly `seconds`: op_scale = seconds / host estimate.
Device timed_device(const std::string& name, const std::string& model, const std::vector<std::int64_t>& shape,
                    double seconds) {
  Device d = test::test_device(name);
  const Graph g = with_input_shape(build_zoo_model(model), shape);
  set_scale(d, 1.0);
  const double host_s =
      CostModel(g, estimate_host_profile(g, HostSpeed::nominal())).total_time_s(d.calibration);
  set_scale(d, seconds / host_s);
  return d;
}

// phone and dec on a 1 Gbps wire without latency (a 5000-byte frame: 40 us), and two GPUs.
Platform synthetic(Device gpu = test::test_device("gpu")) {
  return test::make_platform(
      {test::test_device("phone"), test::test_device("dec"), std::move(gpu), test::test_device("kgpu")},
      {test::shared_network("n", NetworkKind::Wired, {"phone", "dec"}, 1e9, 0.0)});
}

// Inter passes of inter_ms, FeatNet of key_ms (fixed times), static key interval.
DffParams params(int interval, double inter_ms, double key_ms, double decode_ms = 0.0) {
  DffParams p;
  p.trace_file = kTrace;
  p.phone = "phone";
  p.decoder = "dec";
  p.gpu = "gpu";
  p.key_gpu = "kgpu";
  p.network = "n";
  p.interval = interval;
  p.inter_ms = inter_ms;
  p.key_ms = key_ms;
  p.encode_ms = 1e-6;
  p.decode_ms = decode_ms;
  p.result_bytes = 1;
  return p;
}

// Frames back to back: released at 1000 fps, one in flight at a time (each starts when the last
// one's result is back); deadline 100 s (frames waiting for the first feature map are held).
SimulationResult replay(bool asynchronous, const DffParams& p, const Platform& platform, std::size_t frames) {
  return simulation_result_from_json(Json::parse(run_in_child_process([&] {
    DffScheduler s(asynchronous, p);
    auto plans = s.plan_variants({}, platform);
    Workload w = stream_workload(1000.0, frames, DropPolicy::Queue, 100.0);
    w.max_in_flight = 1;
    return simulation_result_to_json(simulate(platform, plans, w, {}, &s)).dump();
  })));
}

std::vector<double> ages(const SimulationResult& r) {
  REQUIRE(r.frame_columns.size() == 5);
  CHECK(r.frame_columns[0].name == "feature_age");
  return r.frame_columns[0].values;
}

}  // namespace

TEST_CASE("adff: FeatNet 0.6 s and inter 0.2 s back to back give a measured D_f of 3 (sec. 4.3.2)") {
  // Key frame 6 is decoded at about 1.8 s (frame 0 waited 0.6 s for the first map, then every frame
  // takes 0.2 s + 40 us of upload); its FeatNet ends 0.6 s later, just before frame 9's decode
  // (3 x 40 us later): frames 6, 7, 8 use map 0, frame 9 map 6, so D_f = 9 - 6 = 3, and likewise
  // for key frames 12 and 18. eq. 4.1: ceil(0.6 / 0.2) = 3.
  const auto r = replay(true, params(6, 200, 600), synthetic(), 24);
  CHECK(r.scheduler_metrics.at("feature_delay_frames") == 3.0);
  CHECK(r.scheduler_metrics.at("feature_delay_frames_max") == 3.0);
  CHECK(r.scheduler_metrics.at("eq41_delay_frames") == 3.0);
  const auto a = ages(r);
  // Frames 0-8 on map 0, 9-14 on map 6, 15-20 on map 12, 21-23 on map 18.
  CHECK(a[0] == 0.0);
  CHECK(a[8] == 8.0);
  CHECK(a[9] == 3.0);
  CHECK(a[14] == 8.0);
  CHECK(a[15] == 3.0);
  CHECK(a[23] == 5.0);
  CHECK(r.scheduler_metrics.at("max_feature_age") == 8.0);
  // Background: one FeatNet per key frame (0, 6, 12, 18) on kgpu, 0.6 s each.
  CHECK(r.devices[3].background_jobs == 4);
  CHECK(r.devices[3].background_busy_s == Approx(2.4).epsilon(1e-6));
}

TEST_CASE("adff: with 0.2 s of other work per frame the measured D_f is 2 (sec. 4.3.2)") {
  // decode 0.2 s: a frame every 0.4 s. Key frame k's map is ready 0.6 s after its decode: frame
  // k + 1 (0.4 s later) uses the old map, frame k + 2 (0.8 s) the new one. eq. 4.1 with other 0.2:
  // ceil(0.6 / (0.2 + 0.2)) = 2.
  DffParams p = params(6, 200, 600, 200);
  p.other_ms = 200.0;
  const auto r = replay(true, p, synthetic(), 24);
  CHECK(r.scheduler_metrics.at("feature_delay_frames") == 2.0);
  CHECK(r.scheduler_metrics.at("eq41_delay_frames") == 2.0);
}

TEST_CASE("adff: eq. 4.1 at the measured frame spacing agrees with the measured D_f without other_ms") {
  // As above, but the scheduler is not told of the 0.2 s decode: eq41_delay_frames sees only the
  // inter pass, ceil(0.6 / 0.2) = 3, while the frames reach the GPU about 0.4 s apart (0.2 s decode
  // + 0.2 s inter, one at a time; frame 0 also waited 0.6 s for the first map, which stretches the
  // mean over 24 frames by 0.6 / 23 s). At that spacing, ceil(0.6 / 0.426) = 2 = the measured D_f.
  const auto r = replay(true, params(6, 200, 600, 200), synthetic(), 24);
  CHECK(r.scheduler_metrics.at("eq41_delay_frames") == 3.0);
  CHECK(r.scheduler_metrics.at("mean_frame_spacing_ms") == Approx(400.0 + 600.0 / 23.0).epsilon(1e-3));
  CHECK(r.scheduler_metrics.at("eq41_delay_frames_at_spacing") == 2.0);
  CHECK(r.scheduler_metrics.at("feature_delay_frames") == 2.0);
}

TEST_CASE("dff: the mean inference time at interval k is (key + (k - 1) inter) / k on the 1080's numbers") {
  // 89 ms key frames, 19 ms inter frames, interval 7, 35 frames (5 whole intervals), one frame at a
  // time so nothing queues: (89 + 6 x 19) / 7 = 29 ms.
  const auto r = replay(false, params(7, 19, 89), synthetic(), 35);
  CHECK(r.scheduler_metrics.at("mean_inference_ms") == Approx(29.0).epsilon(1e-6));
  CHECK(r.scheduler_metrics.at("key_frames") == 5.0);
  CHECK(r.scheduler_metrics.at("average_key_interval") == 7.0);
}

TEST_CASE("dff: feature ages are the distances to each frame's key frame") {
  // Interval 3 over 7 frames: keys 0, 3, 6; ages 0 1 2 0 1 2 0 (mean 6/7, max 2); a key frame uses
  // its own map, so the measured D_f is 0.
  const auto r = replay(false, params(3, 19, 89), synthetic(), 7);
  CHECK(ages(r) == std::vector<double>{0, 1, 2, 0, 1, 2, 0});
  CHECK(r.frame_columns[1].values == std::vector<double>{1, 0, 0, 1, 0, 0, 1});
  CHECK(r.scheduler_metrics.at("mean_feature_age") == Approx(6.0 / 7.0));
  CHECK(r.scheduler_metrics.at("max_feature_age") == 2.0);
  CHECK(r.scheduler_metrics.at("feature_delay_frames") == 0.0);
}

TEST_CASE("dff: a frame's upload carries its encoded size from the trace at the chosen resolution") {
  // Frames 0-2 of the fixture at 1280x960: 100000 + 8200 + 8400 bytes, plus 3 one-byte results.
  DffParams p = params(3, 19, 89);
  p.resolution = "1280x960";
  const auto r = replay(false, p, synthetic(), 3);
  CHECK(r.links[0].bytes + r.links[1].bytes == 116600.0 + 3.0);
}

TEST_CASE("dff: mean_upload_bytes is the mean encoded size of the frames uploaded") {
  DffParams p = params(3, 19, 89);
  p.resolution = "1280x960";
  const auto r = replay(false, p, synthetic(), 3);
  CHECK(r.scheduler_metrics.at("mean_upload_bytes") == Approx(116600.0 / 3).epsilon(1e-12));
}

TEST_CASE("dff: frame_bits_per_pixel replaces the trace's bytes by the stated size at the resolution") {
  // 1.611 bits/px at 1280x960: 1.611 x 1,228,800 / 8 = 247,449.6 bytes per frame whatever the trace
  // says (its 100000 / 8200 / 8400); 3 frames plus 3 one-byte results.
  DffParams p = params(3, 19, 89);
  p.resolution = "1280x960";
  p.frame_bits_per_pixel = 1.611;
  const auto r = replay(false, p, synthetic(), 3);
  CHECK(r.links[0].bytes + r.links[1].bytes == Approx(3 * 247449.6 + 3.0).epsilon(1e-12));
}

TEST_CASE("dff: frame_bits_per_pixel is read from the scenario and must be positive") {
  const Json ok =
      dff_param_schema().resolve(Json{{"trace_file", kTrace}, {"frame_bits_per_pixel", 1.611}}, "scheduler");
  CHECK(DffParams::from_json(ok).frame_bits_per_pixel == 1.611);
  CHECK_THROWS_WITH(
      dff_param_schema().resolve(Json{{"trace_file", kTrace}, {"frame_bits_per_pixel", 0}}, "scheduler"),
      Catch::Contains("scheduler.frame_bits_per_pixel"));
}

TEST_CASE("dff: bad parameters name their key") {
  const Json bad_delay =
      dff_param_schema().resolve(Json{{"trace_file", kTrace}, {"interval", 6}, {"delay", 7}}, "scheduler");
  CHECK_THROWS_WITH(DffParams::from_json(bad_delay), "scheduler.delay: expected <= interval (6), got 7");
  DffParams p = params(6, 19, 89);
  p.resolution = "100x100";
  CHECK_THROWS_WITH(DffScheduler(false, p),
                    Catch::Contains("scheduler.resolution") && Catch::Contains("320x240"));
  p = params(6, 19, 89);
  p.gpu = "tpu";
  DffScheduler s(false, p);
  CHECK_THROWS_WITH(s.plan_variants({}, synthetic()),
                    "scheduler.gpu: unknown device 'tpu' in platform 'test'");
}

TEST_CASE("dff: without inter_ms the inter pass takes the inter model's time from the cost model") {
  // A GPU on which flownets at 6x320x512 takes 19 ms (op_scale = 0.019 s / its host estimate).
  DffParams p = params(3, 0, 89);
  const auto r = replay(false, p, synthetic(timed_device("gpu", p.inter_model, p.inter_input, 0.019)), 3);
  CHECK(r.scheduler_metrics.at("inter_ms") == Approx(19.0).epsilon(1e-9));
}

TEST_CASE("dff: SSI scales each inter pass by the profile's ratio at the frame's mask density") {
  // Profile: ratio 1 at density 0, 0.5 at 0.1. Interval 3: frame 1 (age 1) has mask_d1 = 0.01 ->
  // ratio 0.95 -> 19 x 0.95 = 18.05 ms; frame 2 (age 2) mask_d2 = 0.02 -> 0.9 -> 17.1 ms; key
  // frame 0 runs the dense key model, 89 ms. Means: density 0.015, ratio 0.925.
  test::TempDir dir;
  const std::filesystem::path profile = std::filesystem::path(dir.path()) / "ssi.csv";
  std::ofstream(profile)
      << "# host SSI profile\ndensity,dense_ms,ssi_ms,time_ratio\n0,10,10,1\n0.1,10,5,0.5\n";
  DffParams p = params(3, 19, 89);
  p.ssi_file = profile.string();
  const auto r = replay(false, p, synthetic(), 3);
  const auto& inference = r.frame_columns.at(3);
  REQUIRE(inference.name == "inference_ms");
  CHECK(inference.values[0] == Approx(89.0).epsilon(1e-9));
  CHECK(inference.values[1] == Approx(18.05).epsilon(1e-9));
  CHECK(inference.values[2] == Approx(17.1).epsilon(1e-9));
  CHECK(r.scheduler_metrics.at("ssi_mean_density") == Approx(0.015));
  CHECK(r.scheduler_metrics.at("ssi_mean_ratio") == Approx(0.925));
}

TEST_CASE("dff: effective mAP is the map table's mean over the frames' feature ages") {
  // Ages 0 1 2 0 1 2 0 (interval 3); table 0.8 at age 0, 0.6 at age 2, linear between:
  // 0.8 0.7 0.6 0.8 0.7 0.6 0.8, mean 5.0 / 7.
  DffParams p = params(3, 19, 89);
  p.map_table = MapTable::from_json(Json::parse(R"({"source": "test", "by_age": [[0, 0.8], [2, 0.6]]})"), "",
                                    "scheduler.map_table");
  const auto r = replay(false, p, synthetic(), 7);
  CHECK(r.scheduler_metrics.at("effective_map") == Approx(5.0 / 7.0));
}

TEST_CASE("dff: with vds the key frames are the VDS policy's over the trace's motion") {
  // The same policy run alone over the fixture's motion gives the expected key flags.
  DffParams p = params(3, 19, 89);
  p.vds = VdsParams{0.0, 5.0, 2, 6};
  const auto expected = key_frames(*vds(*p.vds, read_video_trace(kTrace).motion()), 20);
  REQUIRE(expected != key_frames(*static_interval(3), 20));  // the static interval would not pass
  const auto r = replay(false, p, synthetic(), 20);
  for (std::size_t k = 0; k < 20; ++k) {
    INFO(k);
    CHECK(r.frame_columns[1].values[k] == (expected[k] ? 1.0 : 0.0));
  }
  CHECK(r.scheduler_metrics.at("average_key_interval") == Approx(average_key_interval(expected)));
}
