// The CBO runtime schedulers (schedulers/cbo/cbo_runtime.hpp) in the simulator: Algorithm 1's
// decisions in the replay equal `cbo-online`'s on the same inputs, `optimal` bounds every other
// scheduler on both shipped traces, the scores follow the trace, and bad parameters are refused.
// Each simulation runs in a child process (SimGrid runs once per process).
#include <string>

#include <catch2/catch.hpp>

#include "schedulers/cbo/cbo_online.hpp"
#include "schedulers/cbo/cbo_runtime.hpp"
#include "schedulers/cbo/frame_trace.hpp"
#include "sim/core/error.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/replay/simulate.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using namespace coinfer::cbo;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

RuntimeParams params_for(const std::string& trace, double size_scale) {
  RuntimeParams p;
  p.trace_file = kRoot + "/examples/cbo/" + trace;
  p.size_scale = size_scale;
  return p;
}

// AlexNet on the NPU as Table III gives it (20 ms), the partitioner's local plan.
std::vector<Plan> npu_plan(const std::string& device = "phone") {
  return {{"alexnet", "", {compute_task("alexnet", device, 0.020, {})}}};
}

Platform platform(double uplink_mbps) {
  Platform p = load_platform_file(kRoot + "/platforms/cbo_mate10pro.yaml");
  p.networks[0].uplink.rate_bps = uplink_mbps * 1e6;
  return p;
}

std::size_t streamed_frames(const RuntimeParams& params) {
  const auto n = read_frame_trace(params.trace_file).frames.size();
  return n - static_cast<std::size_t>(std::llround(params.calibration_fraction * static_cast<double>(n)));
}

// Simulates `mode` at 30 fps, T = 200 ms; returns the result (scores and summary inside).
SimulationResult simulate_mode(Mode mode, const RuntimeParams& params, double uplink_mbps,
                               double fps = 30.0) {
  const auto text = run_in_child_process([&] {
    RuntimeScheduler s(mode, params);
    const bool cpu = mode == Mode::Compress;
    const auto plans =
        s.plan_variants(npu_plan(cpu ? params.cpu_device : params.device), platform(uplink_mbps));
    const auto w = stream_workload(fps, streamed_frames(params), DropPolicy::Queue, 0.2);
    return simulation_result_to_json(simulate(platform(uplink_mbps), plans, w, {}, &s)).dump();
  });
  return simulation_result_from_json(Json::parse(text));
}

Json problem_json(const Problem& p) {
  Json frames = Json::array();
  for (const auto& f : p.frames)
    frames.push_back({{"arrival", f.arrival_s},
                      {"confidence", f.confidence},
                      {"local_accuracy", f.local_accuracy},
                      {"sizes", f.sizes_bits}});
  return {{"frames", frames},
          {"server_accuracy", p.server_accuracy},
          {"bandwidth", p.bandwidth_bps},
          {"server_time", p.server_time_s},
          {"latency", p.latency_s},
          {"deadline", p.deadline_s},
          {"uplink_free_at", p.uplink_free_at_s}};
}

}  // namespace

TEST_CASE("cbo runtime: every Algorithm 1 run in the replay decides what cbo-online decides on its inputs") {
  // The digits trace at 5 Mbps with frames scaled to video size (scenarios/cbo/cbo-digits.yaml):
  // the uplink is the bottleneck, so the pool holds several frames and the DP has choices.
  const auto params = params_for("digits_trace.csv", 20.8);
  const auto text = run_in_child_process([&] {
    RuntimeScheduler s(Mode::Cbo, params);
    s.keep_log(true);
    const auto plans = s.plan_variants(npu_plan(), platform(5));
    const std::size_t R = (plans.size() - 1) / 2;
    const auto w = stream_workload(30.0, streamed_frames(params), DropPolicy::Queue, 0.2);
    const auto result = simulate(platform(5), plans, w, {}, &s);
    std::size_t runs = 0, offloads = 0, multi = 0, mismatches = 0;
    for (const auto& entry : s.log()) {
      ++runs;
      multi += entry.pool.size() > 1 ? 1 : 0;
      const Json solved = solve_online_json(problem_json(entry.problem));  // `coinfer solve cbo-online`
      const auto& offload = solved.at("offload");
      if (offload.empty()) {
        mismatches += entry.resolution == kLocal ? 0 : 1;
        continue;
      }
      ++offloads;
      const auto k = entry.pool.at(offload[0].get<std::size_t>());
      const int r = solved.at("resolutions")[0].get<int>();
      // The frame the replay uploaded, at that resolution, and it was served at that resolution.
      if (k != entry.frame || r != entry.resolution ||
          result.frames[k].variant != R + 1 + static_cast<std::size_t>(r))
        ++mismatches;
    }
    return Json{{"runs", runs}, {"offloads", offloads}, {"multi", multi}, {"mismatches", mismatches}}.dump();
  });
  const Json r = Json::parse(text);
  INFO(text);
  CHECK(r["runs"].get<int>() > 100);
  CHECK(r["offloads"].get<int>() > 50);
  CHECK(r["multi"].get<int>() > 10);  // runs that chose among several held frames
  CHECK(r["mismatches"].get<int>() == 0);
}

TEST_CASE(
    "cbo runtime: optimal bounds every scheduler on both traces, and the replay realises its model value") {
  const std::pair<const char*, double> traces[] = {{"digits_trace.csv", 20.8}, {"synthetic_trace.csv", 10.0}};
  for (const auto& [trace, scale] : traces) {
    for (const double mbps : {2.0, 8.0}) {
      auto params = params_for(trace, scale);
      const auto optimal = simulate_mode(Mode::Optimal, params, mbps);
      const double bound = optimal.scheduler_metrics.at("accuracy");
      // Exact timing (zero-latency uplink): what the offline DP planned is what the replay gave.
      CHECK(bound == Approx(optimal.scheduler_metrics.at("model_accuracy")).epsilon(1e-12));
      CHECK(optimal.scheduler_metrics.at("deadline_misses") == 0);
      for (const Mode mode : {Mode::Cbo, Mode::CboWithout, Mode::FastVa, Mode::Local, Mode::Server,
                              Mode::Compress, Mode::Threshold}) {
        params.local_time_scale = mode == Mode::Compress ? 0.5 : 1.0;
        const double accuracy = simulate_mode(mode, params, mbps).scheduler_metrics.at("accuracy");
        INFO(trace << " at " << mbps << " Mbps: " << mode_name(mode) << " " << accuracy << " vs optimal "
                   << bound);
        CHECK(accuracy <= bound + 1e-12);
      }
      // The paper's Optimal (calibrated confidences, every future frame known) is bounded too.
      params.local_time_scale = 1.0;
      params.optimal_knows_answers = false;
      const double paper = simulate_mode(Mode::Optimal, params, mbps).scheduler_metrics.at("accuracy");
      CHECK(paper <= bound + 1e-12);
    }
  }
}

TEST_CASE("cbo runtime: local scores each frame with the trace's NPU answer") {
  // Local never offloads: accuracy = the share of streamed frames the NPU got right.
  const auto params = params_for("synthetic_trace.csv", 1.0);
  const auto trace = read_frame_trace(params.trace_file);
  const std::size_t n_train = trace.frames.size() - streamed_frames(params);
  double right = 0;
  for (std::size_t i = n_train; i < trace.frames.size(); ++i) right += trace.frames[i].correct;
  const auto r = simulate_mode(Mode::Local, params, 5);
  CHECK(r.scheduler_metrics.at("accuracy") == Approx(right / static_cast<double>(streamed_frames(params))));
  CHECK(r.scheduler_metrics.at("offload_fraction") == 0);
  REQUIRE(r.frame_scores.size() == streamed_frames(params));
  CHECK(r.frame_scores[0] == trace.frames[n_train].correct);
}

TEST_CASE("cbo runtime: the server baseline offloads every frame, resized to fit one frame interval") {
  // Synthetic frames at 224 px are about 10 KB: at 8 Mbps one frame interval (1/30 s) carries
  // 33 KB, so the measured rate lets every frame go at the largest resolution after the first.
  const auto params = params_for("synthetic_trace.csv", 1.0);
  const auto r = simulate_mode(Mode::Server, params, 8);
  CHECK(r.scheduler_metrics.at("offload_fraction") == 1.0);
  const std::size_t R = read_frame_trace(params.trace_file).resolutions_px.size();
  for (const auto& f : r.frames) CHECK(f.variant == 2 * R);  // served at the last resolution
}

TEST_CASE("cbo runtime: parameters that do not fit the trace or the platform are refused") {
  auto params = params_for("synthetic_trace.csv", 1.0);
  params.calibration_fraction = 0.999;  // 240 frames: none left to stream
  CHECK_THROWS_WITH(RuntimeScheduler(Mode::Cbo, params), Catch::Contains("calibration_fraction"));
  params = params_for("synthetic_trace.csv", 1.0);
  params.trace_file = kRoot + "/examples/cbo/no_such_trace.csv";
  CHECK_THROWS_AS(RuntimeScheduler(Mode::Cbo, params), InputError);
  params = params_for("synthetic_trace.csv", 1.0);
  params.device = "tablet";
  RuntimeScheduler s(Mode::Cbo, params);
  CHECK_THROWS_WITH(s.plan_variants(npu_plan(), platform(5)), Catch::Contains("scheduler.device"));
  RuntimeScheduler on_cpu(Mode::Cbo, params_for("synthetic_trace.csv", 1.0));
  CHECK_THROWS_WITH(on_cpu.plan_variants(npu_plan("phone_cpu"), platform(5)),
                    Catch::Contains("must run the local model on 'phone'"));
}

TEST_CASE("cbo runtime: held frames whose deadline passes during an upload leave the pool") {
  // 5 fps at 1 Mbps with video-sized frames: one upload outlasts a frame interval, so frames held
  // meanwhile reach their deadline (the replay closes them) before Algorithm 1 runs again.
  const auto r = simulate_mode(Mode::Cbo, params_for("digits_trace.csv", 20.8), 1.0, 5.0);
  CHECK(r.scheduler_metrics.at("frames_scored") == 449);
  CHECK(r.scheduler_metrics.at("offload_fraction") > 0);
  CHECK(r.scheduler_metrics.at("deadline_misses") == 0);
}

TEST_CASE(
    "cbo runtime: Algorithm 1 plans with the bandwidth the phone measured, the true rate only as oracle") {
  // The uplink's nominal rate is 5 Mbps but it carries 2 Mbps (a rate trace). Before its first upload
  // the phone believes the nominal rate; once an upload completed it measures 2 Mbps exactly (one
  // transfer at a time, zero-latency uplink). With oracle: true every run sees the true 2 Mbps.
  for (const bool oracle : {false, true}) {
    auto params = params_for("digits_trace.csv", 20.8);
    params.oracle = oracle;
    const auto text = run_in_child_process([&] {
      RuntimeScheduler s(Mode::Cbo, params);
      s.keep_log(true);
      Platform p = platform(5);
      p.networks[0].uplink.bandwidth.kind = BandwidthModel::Kind::Trace;
      p.networks[0].uplink.bandwidth.trace = {{0.0, 2e6}};
      const auto plans = s.plan_variants(npu_plan(), p);
      simulate(p, plans, stream_workload(30.0, 60, DropPolicy::Queue, 0.2), {}, &s);
      Json rates = Json::array();
      for (const auto& e : s.log()) rates.push_back(e.problem.bandwidth_bps);
      return rates.dump();
    });
    const auto rates = Json::parse(text).get<std::vector<double>>();
    REQUIRE(rates.size() > 10);
    CHECK(rates.front() == (oracle ? 2e6 : 5e6));
    CHECK(rates.back() == Approx(2e6).epsilon(1e-9));
  }
}

TEST_CASE("cbo runtime: Table I's calibration error is measured on the streamed frames, held out") {
  // Frames 0-1 fit (isotonic: 0 below 0.7, 1 from 0.7), frames 2-3 stream. Raw streamed scores:
  // 0.95 right (bin 10, |1 - 0.95|) and 0.15 wrong (bin 2, |0 - 0.15|): ECE (0.05 + 0.15) / 2 = 0.1,
  // MCE 0.15. Calibrated to 1 and 0: both 0.
  const test::ScratchDir dir;
  RuntimeParams p;
  p.trace_file = dir.write("t.csv",
                           "confidence,correct,size_bytes_90,server_correct_90\n"
                           "0.3,0,100,1\n0.7,1,100,1\n0.95,1,100,1\n0.15,0,100,1\n");
  p.calibration = "isotonic";
  const RuntimeScheduler s(Mode::Local, p);
  const auto m = s.summary();
  CHECK(m.at("raw_ece") == Approx(0.1));
  CHECK(m.at("raw_mce") == Approx(0.15));
  CHECK(m.at("calibration_ece") == 0.0);
  CHECK(m.at("calibration_mce") == 0.0);
}
