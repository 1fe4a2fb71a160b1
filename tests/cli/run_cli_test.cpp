// `coinfer run` and `coinfer sweep` end to end on real platform files (MACs-based host estimate,
// so the numbers do not depend on this machine's speed).
#include <algorithm>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::string kRoot = COINFER_SOURCE_DIR;

// A lenet5 scenario on the shipped edge platform; `extra` is appended YAML.
std::filesystem::path scenario(const std::string& name, const std::string& extra) {
  return write_text(name + ".yaml", "name: " + name + "\nmodel: lenet5\nplatform: " + kRoot +
                                        "/platforms/edge_wifi_lte.yaml\nsource: phone\n"
                                        "host_profile: {basis: estimate}\nseed: 3\n" +
                                        extra);
}

json results_of(const std::filesystem::path& dir) { return json::parse(read_text(dir / "results.json")); }

// The shipped edge platform with LTE's uplink written as `uplink` (YAML), in `dir` beside copies of
// its calibration files; returns the platform file.
std::filesystem::path edge_platform_with_lte_uplink(const std::filesystem::path& dir,
                                                    const std::string& uplink) {
  std::string platform = read_text(kRoot + "/platforms/edge_wifi_lte.yaml");
  const std::string up = "uplink: {rate_mbps: 5.85, latency_s: 0.035}";
  REQUIRE(platform.find(up) != std::string::npos);
  platform.replace(platform.find(up), up.size(), uplink);
  std::filesystem::create_directories(dir / "calibration");
  for (const char* f : {"nexus5.json", "gtx1080.json"})
    std::filesystem::copy_file(kRoot + "/platforms/calibration/" + f, dir / "calibration" / f,
                               std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "p.yaml") << platform;
  return dir / "p.yaml";
}

}  // namespace

TEST_CASE("a single local inference takes its analytic latency") {
  const auto s = scenario("local1", "partitioner: {name: local}\n");
  const auto out = scratch_dir() / "local1";
  const auto r = run_cli("run " + s.string() + " --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = results_of(out);
  CHECK(j["completed"] == 1);
  // One compute task and nothing else: simulated latency = critical path.
  CHECK(j["latency_ms"]["mean"].get<double>() ==
        Approx(j["analytic_latency_ms"].get<double>()).epsilon(1e-9));
  CHECK(j["bytes"].is_object());
  CHECK(j["energy_j"].contains("phone"));
}

TEST_CASE("remote over a link with no contention matches its analytic latency") {
  const auto s = scenario("remote1", "partitioner: {name: remote, server: server, network: lte}\n");
  const auto out = scratch_dir() / "remote1";
  REQUIRE(run_cli("run " + s.string() + " --out " + out.string()).exit_code == 0);
  const auto j = results_of(out);
  // The radio starts asleep: the simulated latency adds LTE's 0.26 s wake-up to the critical path.
  CHECK(j["latency_ms"]["mean"].get<double>() ==
        Approx(j["analytic_latency_ms"].get<double>() + 260.0).epsilon(1e-6));
}

TEST_CASE(
    "a radio power fit used beyond its stated throughputs is warned about on stderr and in results.json") {
  // LTE's uplink at 50 Mbps: eq. 21's 4G fit is stated up to 5.85 Mbps ([JointDNN Table 3]).
  const auto dir = scratch_dir() / "fast-lte";
  const auto platform = edge_platform_with_lte_uplink(dir, "uplink: {rate_mbps: 50, latency_s: 0.035}");
  const auto s =
      write_text("fast-lte.yaml", "name: fast-lte\nmodel: vgg16\nplatform: " + platform.string() +
                                      "\nsource: phone\nhost_profile: {basis: estimate}\n"
                                      "partitioner: {name: remote, server: server, network: lte}\n");
  // --quiet silences the summary, not the warning.
  const auto r = run_cli("run " + s.string() + " --quiet --out " + (dir / "out").string());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Contains("warning: device 'phone' sent on 'lte' at") &&
                        Contains("outside the [0, 5.85] Mbps its radio power fit is stated for "
                                 "(uplink_range_mbps in calibration 'nexus5')"));
  const auto warnings = results_of(dir / "out")["warnings"];
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(r.err, Contains(warnings[0].get<std::string>()));
}

TEST_CASE("a transfer at the very throughput a radio power fit is stated up to is not warned about") {
  // JointDNN's TX2 + K40: each network's uplink and downlink rates are the ends of the TX2's fits'
  // stated throughputs ([JointDNN Table 3]). remote sends Deep Speech's input up and its result
  // down, each alone on its link: at those rates, give or take round-off (2.0275000000000025 Mbps
  // on 3G's downlink, 5.8500000000000005 on 4G's uplink).
  for (const char* network : {"3g", "4g", "wifi"}) {
    INFO(network);
    const auto dir = scratch_dir() / (std::string("edge-of-fit-") + network);
    const auto s = write_text(std::string("edge-of-fit-") + network + ".yaml",
                              "name: edge-of-fit\nmodel: deepspeech\nplatform: " + kRoot +
                                  "/platforms/jointdnn_tx2_k40.yaml\nsource: tx2\nhost_profile: {basis: "
                                  "estimate}\npartitioner: {name: remote, server: k40, network: " +
                                  network + "}\n");
    const auto r = run_cli("run " + s.string() + " --quiet --out " + (dir / "out").string());
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(results_of(dir / "out")["warnings"].empty());
  }
}

// Also a regression test: a rate-change timer firing a hair before the change (float clock) used
// to re-arm the same change forever, so this run never ended.
TEST_CASE("the same seed gives byte-identical results, another seed differs with random bandwidth") {
  const auto dir = scratch_dir() / "noisy";
  const auto platform = edge_platform_with_lte_uplink(
      dir,
      "uplink: {rate_mbps: 5.85, latency_s: 0.035, bandwidth: {model: normal, stddev_mbps: 2, "
      "floor_mbps: 0.5, period_s: 0.1}}");
  const auto s = write_text("noisy.yaml", "name: noisy\nmodel: lenet5\nplatform: " + platform.string() +
                                              "\nsource: phone\nhost_profile: {basis: estimate}\nseed: 3\n"
                                              "partitioner: {name: remote, server: server, network: lte}\n"
                                              "workload: {kind: stream, rate_fps: 5, frames: 20}\n");
  for (const char* run : {"a", "b"})
    REQUIRE(run_cli("run " + s.string() + " --quiet --out " + (dir / run).string()).exit_code == 0);
  REQUIRE(run_cli("run " + s.string() + " --quiet --set seed=4 --out " + (dir / "c").string()).exit_code ==
          0);
  CHECK(read_text(dir / "a" / "results.json") == read_text(dir / "b" / "results.json"));
  CHECK(results_of(dir / "a")["latency_ms"] != results_of(dir / "c")["latency_ms"]);
}

TEST_CASE("Poisson arrivals repeat under the same seed and move with another") {
  const auto dir = scratch_dir() / "poisson";
  const auto s =
      write_text("poisson.yaml", "name: poisson\nmodel: lenet5\nplatform: " + kRoot +
                                     "/platforms/edge_wifi_lte.yaml\nsource: phone\n"
                                     "host_profile: {basis: estimate}\nseed: 3\npartitioner: local\n"
                                     "workload: {kind: stream, rate_fps: 5, frames: 20, arrivals: poisson}\n"
                                     "outputs: {frames_csv: true}\n");
  for (const char* run : {"a", "b"})
    REQUIRE(run_cli("run " + s.string() + " --quiet --out " + (dir / run).string()).exit_code == 0);
  REQUIRE(run_cli("run " + s.string() + " --quiet --set seed=4 --out " + (dir / "c").string()).exit_code ==
          0);
  CHECK(read_text(dir / "a" / "frames.csv") == read_text(dir / "b" / "frames.csv"));
  CHECK(read_text(dir / "a" / "frames.csv") != read_text(dir / "c" / "frames.csv"));
}

TEST_CASE("the quickstart compares local, WiFi and LTE offloading") {
  const auto out = scratch_dir() / "quick";
  const auto q = run_cli(
      "run " + kRoot + "/scenarios/quickstart.yaml --set host_profile.basis=estimate --out " + out.string());
  INFO(q.err);
  REQUIRE(q.exit_code == 0);
  CHECK_THAT(q.out, Contains("local") && Contains("remote-wifi") && Contains("remote-lte"));
  const auto local = results_of(out / "local"), wifi = results_of(out / "remote-wifi");
  // A GTX 1080 is far faster than a Nexus 5: offloading VGG-16 over WiFi must win.
  CHECK(wifi["latency_ms"]["mean"].get<double>() < local["latency_ms"]["mean"].get<double>());
}

TEST_CASE("an unknown partitioner lists the known ones") {
  const auto r = run_cli("run " + scenario("typo", "partitioner: {name: remot}\n").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(
      r.err,
      Contains("typo.yaml: partitioner.name: unknown partitioner 'remot'; known: adalearner, bodp, grid2d, "
               "jointdnn, local, modnn, neurosurgeon, pipeline, plan, remote"));
}

TEST_CASE("an unknown scenario key is rejected") {
  const auto r = run_cli("run " + scenario("key", "partitioner: local\nworklaod: {kind: single}\n").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("key.yaml: worklaod: unknown key"));
}

TEST_CASE("a missing platform file is reported") {
  const auto s = write_text("nop.yaml", "model: lenet5\nplatform: nowhere.yaml\npartitioner: local\n");
  const auto r = run_cli("run " + s.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("nop.yaml: platform: file 'nowhere.yaml' not found"));
}

TEST_CASE("malformed scenario YAML is reported with its line") {
  const auto s = write_text("bad.yaml", "model: lenet5\npartitioner: {name: local\n");
  const auto r = run_cli("run " + s.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("bad.yaml: line ") && Contains("malformed YAML"));
}

TEST_CASE("an unknown source device is reported") {
  const auto r = run_cli("run " + scenario("src", "partitioner: local\n").string() + " --set source=tablet");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("source: unknown device 'tablet'"));
}

TEST_CASE("run on a sweep file points to coinfer sweep") {
  const auto sweep = write_text("swrun.yaml", "name: sw\nbase: b.yaml\naxes:\n  - seeds: [1, 2]\n");
  const auto r = run_cli("run " + sweep.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("swrun.yaml: axes: a sweep, not a scenario: run it with `coinfer sweep "));
}

TEST_CASE("a sweep writes one row per run and a rerun redoes nothing") {
  const auto base = scenario("swbase", "partitioner: {name: local}\n");
  const auto sweep =
      write_text("sw.yaml", "name: sw\nbase: " + base.string() +
                                "\naxes:\n  - {key: partitioner.name, values: [local, remote]}\n"
                                "  - seeds: [1, 2]\n");
  const auto out = scratch_dir() / "sw";
  std::filesystem::remove_all(out);
  const auto r = run_cli("sweep " + sweep.string() + " --jobs 2 --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto csv = read_text(out / "results.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);  // header + 4 runs
  CHECK_THAT(csv, Contains("run,partitioner.name,seed,scenario"));
  const auto again = run_cli("sweep " + sweep.string() + " --out " + out.string());
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Contains("4 already done"));
  CHECK(read_text(out / "results.csv") == csv);
}

TEST_CASE("the CBO digits scenario scores every frame and reports the scheduler's metrics") {
  // scenarios/cbo/cbo-digits.yaml: 449 streamed frames, each scored 1 or 0 from the trace; the
  // same run twice gives the same bytes.
  const auto out = scratch_dir() / "cbo";
  for (const char* run : {"a", "b"})
    REQUIRE(run_cli("run " + kRoot + "/scenarios/cbo/cbo-digits.yaml --quiet --out " + (out / run).string())
                .exit_code == 0);
  const auto j = results_of(out / "a");
  const auto& m = j.at("scheduler_metrics");
  CHECK(m.at("frames_scored") == 449);
  CHECK(m.at("accuracy").get<double>() > 0.5);
  CHECK(m.at("offload_fraction").get<double>() > 0.0);
  CHECK(m.at("deadline_misses") == 0);
  const auto frames = read_text(out / "a" / "frames.csv");
  CHECK(frames.rfind(
            "frame,variant,release_s,start_s,end_s,latency_ms,dropped,drop_reason,deadline_met,score\n", 0) ==
        0);
  CHECK(std::count(frames.begin(), frames.end(), '\n') == 450);
  CHECK(read_text(out / "a" / "frames.csv") == read_text(out / "b" / "frames.csv"));
  CHECK(read_text(out / "a" / "results.json") == read_text(out / "b" / "results.json"));
}

TEST_CASE("a set key into a platform file: a phone twice as slow takes twice as long locally") {
  const auto s = scenario("slow", "partitioner: {name: local}\n");
  const auto dir = fresh_dir("slow");
  REQUIRE(run_cli("run " + s.string() + " --quiet --out " + (dir / "as-shipped").string()).exit_code == 0);
  const auto r = run_cli("run " + s.string() + " --quiet --set platform.devices[0].time_scale=2 --out " +
                         (dir / "twice").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // One compute task on the phone, every op class of its calibration times 2.
  CHECK(results_of(dir / "twice")["latency_ms"]["mean"].get<double>() ==
        Approx(2.0 * results_of(dir / "as-shipped")["latency_ms"]["mean"].get<double>()).epsilon(1e-12));
}
