// `coinfer check` end to end: result checks that pass, fail on a 1% change and pass again after
// --update; timing checks that catch a slower command and stay quiet on identical ones, compare
// only with this machine's samples, hold a bound and say when they are too noisy to judge;
// --junit, --only, --tier and the exit codes (0 ok, 1 regression, 2 bad input).
#include <fstream>

#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::filesystem::path kRoot = COINFER_SOURCE_DIR;

std::filesystem::path fresh(const std::string& name) { return fresh_dir("check_" + name); }

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// LeNet-5 split after pool2 (examples/regression/plan.json), `front_s` seconds on the phone,
// compared with local execution; one frame.
void write_scenario(const std::filesystem::path& dir, double front_s) {
  std::ofstream(dir / "plan.json") << R"({"name": "split", "tasks": [
  {"id": "front", "kind": "compute", "device": "phone", "duration_s": )"
                                   << front_s << R"(, "deps": []},
  {"id": "features", "kind": "transfer", "src": "phone", "dst": "server", "bytes": 1600, "network": "wlan", "deps": ["front"]},
  {"id": "back", "kind": "compute", "device": "server", "duration_s": 2e-7, "deps": ["features"]},
  {"id": "result", "kind": "transfer", "src": "server", "dst": "phone", "bytes": 40, "network": "wlan", "deps": ["back"]}]})";
  std::ofstream(dir / "s.yaml")
      << "name: s\nmodel: lenet5\nplatform: " << (kRoot / "platforms/edge_wifi_lte.yaml").string()
      << "\nsource: phone\nhost_profile: {basis: estimate}\n"
         "partitioner: {name: plan, file: plan.json}\nworkload: {kind: single}\nseed: 1\n"
         "compare:\n  - {label: split, set: {partitioner: {name: plan, file: plan.json}}}\n"
         "  - {label: local, set: {partitioner: {name: local}}}\n";
}

const char* kResultSuite =
    "name: gate\nchecks:\n  - name: split\n    scenario: s.yaml\n"
    "    metrics: ['*/latency_ms.mean', split/bytes.wlan/phone/up]\n";

// This machine's own timing baselines go to the test's folder, not the build tree.
CliResult check_in(const std::filesystem::path& dir, const std::string& args) {
  return run_cli_in(dir, "check suite.yaml --machine-baselines mine " + args);
}

// Two sleeps timed against each other, their lengths read from the files delay_a and delay_b
// (as a changed program takes longer under the same command); `extra` is added to the check.
void write_sleep_suite(const std::filesystem::path& dir, double a_s, double b_s,
                       const std::string& extra = "") {
  std::ofstream(dir / "delay_a") << a_s << "\n";
  std::ofstream(dir / "delay_b") << b_s << "\n";
  std::ofstream(dir / "suite.yaml") << "checks:\n  - name: sleepy\n"
                                       "    a: [sh, -c, 'sleep $(cat delay_a)']\n"
                                       "    b: [sh, -c, 'sleep $(cat delay_b)']\n"
                                    << extra;
}

}  // namespace

TEST_CASE("check: a result check passes, fails on a 1 percent slower phone stage, passes after --update") {
  const auto dir = fresh("result");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite;
  auto r = check_in(dir, "--update");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(read_text(dir / "baselines/split.json"), Contains("    \"split/latency_ms.mean\": "));
  r = check_in(dir, "");
  CHECK(r.exit_code == 0);
  CHECK(count_of(r.out, "  ok\n") == 3);
  CHECK_THAT(r.out, Contains("1 checks, 3 rows: 3 ok, 0 REGRESSION, 0 improved, 0 new"));
  // The phone stage 1% longer: 0.683 -> 0.68983 ms. The split's one-frame latency (radio wake-up
  // 54.7 ms, 1600 B up at 18.88 Mbps, 40 B down, 2 x 5 ms latency: about 66.07 ms) grows by
  // 0.00683 ms = +0.0103%, far beyond the 1e-9 tolerance; the bytes and the local run stay.
  write_scenario(dir, 0.000683 * 1.01);
  r = check_in(dir, "");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("split/latency_ms.mean") && Contains("+0.01%") && Contains("REGRESSION") &&
                        Contains("off by 0.00683") && Contains("FAILED: 1 regression"));
  CHECK(count_of(r.out, "  ok\n") == 2);
  r = check_in(dir, "--update");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("baseline written: "));
  CHECK(check_in(dir, "").exit_code == 0);
}

TEST_CASE("check: a missing baseline is an error naming the command that records it") {
  const auto dir = fresh("missing");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite;
  const auto r = check_in(dir, "");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("suite.yaml: checks[0].baseline: 'baselines/split.json' not found; record it with "
                      "coinfer check suite.yaml --update --only split"));
}

TEST_CASE("check: --update records a baseline anew over an unreadable one") {
  const auto dir = fresh("conflict");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite;
  std::filesystem::create_directories(dir / "baselines");
  std::ofstream(dir / "baselines/split.json") << "<<<<<<< HEAD\n{}\n=======\n";  // a merge conflict
  CHECK(check_in(dir, "").exit_code == 2);
  const auto r = check_in(dir, "--update");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.err, Contains("split: recording anew"));
  CHECK(check_in(dir, "").exit_code == 0);
}

TEST_CASE("check: a timing check fails when command a gets slower and not on identical commands") {
  const auto dir = fresh("timing");
  // Each command reads its sleep from a file, as a changed program takes longer under the same
  // command; both start the same processes, so the machine's load hits them alike.
  // Sleeps of 0.25 s keep a shell's start-up jitter under a loaded CI runner (tens of ms) small
  // against the times compared.
  // A threshold of 50%: a heavily loaded machine (tests run in parallel) can spread the ratios of
  // two sleeps by more than 10%, which would make the run noisy; doubling a's time still regresses.
  write_sleep_suite(dir, 0.25, 0.25, "    threshold: 0.5\n");
  auto r = check_in(dir, "--update");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  r = check_in(dir, "");
  CHECK(r.exit_code == 0);  // the same commands again: no alarm
  CHECK_THAT(r.out, Contains("a/b wall") && !Contains("FAILED"));
  // a now sleeps 0.5 s against b's 0.25 s: every ratio about 2 against about 1 in the baseline,
  // +100% > 50%; U test p = 1/48620 when the two samples separate fully, a little more when a
  // heavily loaded machine (a sanitized CI run) stalls one run long enough to interleave them, and
  // the normal approximation instead of the exact test when two ratios tie at the baseline file's
  // 6 significant digits, so neither the exact p nor the method is asserted.
  std::ofstream(dir / "delay_a") << "0.5\n";
  r = check_in(dir, "");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("REGRESSION  U test p=") && Contains(", 9 vs 9), threshold 50%"));
}

TEST_CASE("check: --junit writes one testcase per metric, a failure for each regression") {
  const auto dir = fresh("junit");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite;
  REQUIRE(check_in(dir, "--update").exit_code == 0);
  write_scenario(dir, 0.000683 * 1.01);
  const auto r = check_in(dir, "--junit out/check.xml");
  CHECK(r.exit_code == 1);
  const auto xml = read_text(dir / "out/check.xml");
  CHECK_THAT(xml, Contains("<?xml version=\"1.0\" encoding=\"UTF-8\"?>") &&
                      Contains("<testsuites name=\"gate\" tests=\"3\" failures=\"1\"") &&
                      Contains("<testsuite name=\"split\" tests=\"3\" failures=\"1\"") &&
                      Contains("<failure message=\"split  split/latency_ms.mean  baseline ") &&
                      Contains("</testsuites>"));
  CHECK(count_of(xml, "<testcase ") == 3);
  CHECK(count_of(xml, "</testcase>") == 3);
  CHECK(count_of(xml, "<testsuite ") == count_of(xml, "</testsuite>"));
}

TEST_CASE("check: --only runs the one check named, whatever its tier") {
  const auto dir = fresh("only");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite
                                    << "  - name: local-only\n    tier: full\n    scenario: s.yaml\n"
                                       "    metrics: [local/latency_ms.mean]\n";
  auto r = check_in(dir, "--only local-only --update");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("local-only") && !Contains("split/"));
  CHECK(std::filesystem::exists(dir / "baselines/local-only.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "baselines/split.json"));
  r = check_in(dir, "--only nope");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--only: unknown check 'nope'; known: split, local-only"));
}

TEST_CASE("check: the quick tier skips full checks and --tier full runs them") {
  const auto dir = fresh("tier");
  std::ofstream(dir / "suite.yaml")
      << "checks:\n"
         "  - {name: fast, a: ['true'], b: ['true'], max_ratio: 1000}\n"
         "  - {name: slow, tier: full, a: ['true'], b: ['true'], max_ratio: 1000}\n";
  auto r = check_in(dir, "");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("fast") && !Contains("slow"));
  r = check_in(dir, "--tier full");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("fast") && Contains("slow") && Contains("<= 1000"));
}

TEST_CASE("check: a metric the results lack is bad input naming its key path") {
  const auto dir = fresh("typo");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << "checks:\n  - name: t\n    scenario: s.yaml\n"
                                       "    metrics: [split/latency_ms.meen]\n";
  const auto r = check_in(dir, "--update");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("coinfer: error: suite.yaml: checks[0].metrics[0]: no 'latency_ms.meen' in the "
                             "results of 'split' (there: max, mean, p50, p95)"));
}

TEST_CASE("check: the shipped example gates as its README says") {
  const auto r = run_cli_in(kRoot, "check examples/regression/suite.yaml");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("split/latency_ms.mean") && !Contains("solver-speed"));
}

TEST_CASE("check: a timing baseline of another machine is not compared, and this machine records its own") {
  const auto dir = fresh("machines");
  write_sleep_suite(dir, 0.25, 0.25, "    threshold: 0.5\n");  // 0.25 s and 50%: see the test above
  // The committed file knows only another machine, whose ratio (0.3) this one's (about 1) would
  // fail against: it must not be used.
  std::filesystem::create_directories(dir / "baselines");
  std::ofstream(dir / "baselines/sleepy.json")
      << R"js({"format": "coinfer-check-baseline/1", "check": "sleepy",
  "setup": {"a": "sh -c sleep $(cat delay_a)", "b": "sh -c sleep $(cat delay_b)", "measure": "wall"},
  "machines": {"Other CPU (avx2, 64 CPUs)": {"a/b": {"samples": [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]}}}})js";
  const auto committed = read_text(dir / "baselines/sleepy.json");
  auto r = check_in(dir, "");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains(" new ") && Contains("no baseline for ") &&
                        Contains("timing baseline of this machine (") && Contains("mine/suite/sleepy.json"));
  CHECK(read_text(dir / "baselines/sleepy.json") == committed);  // the source tree is left alone
  const auto own = read_text(dir / "mine/suite/sleepy.json");
  CHECK_THAT(own, Contains("\"machines\"") && !Contains("Other CPU"));
  // The next run compares with this machine's own samples: the same sleeps are ok ...
  r = check_in(dir, "");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains(" ok ") && Contains("against this machine's mine/suite/sleepy.json"));
  // ... and a twice as long sleep a (ratio about 2 against about 1, +100% > 50%) regresses.
  std::ofstream(dir / "delay_a") << "0.5\n";
  r = check_in(dir, "");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("REGRESSION  U test p="));
}

TEST_CASE("check: a timing bound holds or fails by its target alone") {
  const auto dir = fresh("bound");
  // a/b about 1 against max_ratio 1.3: ok; no baseline file needed, none recorded.
  write_sleep_suite(dir, 0.25, 0.25, "    max_ratio: 1.3\n");
  auto r = check_in(dir, "");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("<= 1.3") && Contains(" ok "));
  CHECK_FALSE(std::filesystem::exists(dir / "mine"));
  // a/b about 2: all nine above 1.3, sign test p = 1/512.
  std::ofstream(dir / "delay_a") << "0.5\n";
  r = check_in(dir, "");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("REGRESSION  sign test p=0.002, 9/9 above the bound"));
}

TEST_CASE("check: samples spread wider than the threshold are reported noisy and fail nothing") {
  const auto dir = fresh("noisy");
  // a sleeps 0.1 s and 0.3 s by turns (a counter in the file n) against b's 0.2 s: ratios about
  // 0.5 and 1.5, five of one and four of the other over nine repetitions, so the interquartile
  // range (about 1.0) is far above 10% of the median.
  std::ofstream(dir / "suite.yaml")
      << "checks:\n  - name: jumpy\n    warmup: 0\n"
         "    a: [sh, -c, 'n=$(cat n 2>/dev/null || echo 0); echo $((n + 1)) > n; "
         "if [ $((n % 2)) = 0 ]; then sleep 0.1; else sleep 0.3; fi']\n"
         "    b: [sleep, 0.2]\n";
  const auto r = check_in(dir, "--junit check.xml");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains(" noisy ") && Contains("> threshold 10%: not judged") &&
                        Contains("0 REGRESSION, 0 improved, 0 new, 1 noisy") &&
                        Contains("NOISY: 1 timing ratio"));
  CHECK_FALSE(std::filesystem::exists(dir / "mine/suite/jumpy.json"));  // nothing worth recording
  CHECK_THAT(read_text(dir / "check.xml"), Contains("skipped=\"1\"") && Contains("noisy"));
}

TEST_CASE("check: a string where a result baseline holds a number is bad input, not a regression") {
  const auto dir = fresh("string");
  write_scenario(dir, 0.000683);
  std::ofstream(dir / "suite.yaml") << kResultSuite;
  REQUIRE(check_in(dir, "--update").exit_code == 0);
  auto text = read_text(dir / "baselines/split.json");
  const std::string key = "\"split/latency_ms.mean\": ";
  const auto at = text.find(key) + key.size();
  const auto end = text.find(',', at);
  text = text.substr(0, at) + "\"" + text.substr(at, end - at) + "\"" + text.substr(end);
  std::ofstream(dir / "baselines/split.json") << text;
  const auto r = check_in(dir, "");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("baselines/split.json: metrics.split/latency_ms.mean: expected a number"));
}
