// The timing runner: placeholders, interleaving, google-benchmark JSON and reported ratios.
#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/check/timing_runner.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

TEST_CASE("placeholders expand to the binary, its folder and the run's scratch folder") {
  const auto argv =
      expand_argv({"{coinfer}", "{build}/bench/x", "--out={tmp}/o", "{other}"}, "/b/coinfer", "/t/1");
  CHECK(argv == std::vector<std::string>{"/b/coinfer", "/b/bench/x", "--out=/t/1/o", "{other}"});
}

TEST_CASE("the interleaving is balanced and fixed by its seed") {
  const auto order = interleaving(1, 9);
  REQUIRE(order.size() == 9);
  CHECK(std::count(order.begin(), order.end(), true) == 5);
  CHECK(order == interleaving(1, 9));
  CHECK(interleaving(1, 40) != interleaving(2, 40));
}

TEST_CASE("the CPU time per iteration of the one benchmark in google-benchmark JSON") {
  const std::string json = R"({"context": {}, "benchmarks": [
    {"name": "BM_x/1", "run_type": "iteration", "cpu_time": 250.0, "real_time": 300.0, "time_unit": "ms"}]})";
  CHECK(benchmark_seconds(json) == Approx(0.25));
  const std::string two = R"({"benchmarks": [{"name": "a", "run_type": "iteration", "cpu_time": 1},
                                             {"name": "b", "run_type": "iteration", "cpu_time": 1}]})";
  CHECK_THROWS_WITH(benchmark_seconds(two), Contains("holds 2 benchmarks"));
  CHECK_THROWS_WITH(benchmark_seconds("Benchmark  Time"), Contains("no google-benchmark JSON"));
}

TEST_CASE("a reported ratio is the first group of the first match") {
  CHECK(reported_ratio("x\nratio coinfer / bare: 0.93 (target <= 2)\n", "ratio [^:]*: ([0-9.]+)") == 0.93);
  CHECK_THROWS_WITH(reported_ratio("nothing", "ratio: ([0-9.]+)"), Contains("no match"));
  CHECK_THROWS_WITH(reported_ratio("ratio: n/a", "ratio: (\\S+)"), Contains("'n/a' is not a number"));
}

TEST_CASE("two commands give one ratio sample per repetition") {
  test::TempDir dir;
  TimingCheck t;
  t.a = {"true"};
  t.b = {"sh", "-c", "true"};
  t.repetitions = 9;
  t.measure = Measure::Wall;
  const auto samples = measure_timing(t, {"/bin/true", dir.path(), dir.path()});
  REQUIRE(samples.size() == 1);
  CHECK(samples[0].first == "a/b");
  CHECK(samples[0].second.size() == 9);
}

TEST_CASE("a command's reported ratios are read from its output, and a fresh tmp folder is given") {
  test::TempDir dir;
  TimingCheck t;
  t.command = {"sh", "-c", "test -d \"$0\" && ! test -e \"$0/x\" && touch \"$0/x\" && echo 'speed 1.5 x'",
               "{tmp}"};
  t.ratios = {{"speed", "speed ([0-9.]+)"}};
  t.warmup = 0;
  const auto samples = measure_timing(t, {"/bin/true", dir.path(), dir.path()});
  CHECK(samples[0].second == std::vector<double>(9, 1.5));
}

TEST_CASE("a failing command stops the check naming the command and its error") {
  test::TempDir dir;
  TimingCheck t;
  t.a = {"sh", "-c", "echo broken >&2; exit 3"};
  t.b = {"true"};
  CHECK_THROWS_WITH(measure_timing(t, {"/bin/true", dir.path(), dir.path()}),
                    Contains("command a (sh -c echo broken >&2; exit 3) failed: broken"));
  t.a = {"no-such-program-here"};
  CHECK_THROWS_WITH(measure_timing(t, {"/bin/true", dir.path(), dir.path()}),
                    Contains("cannot run 'no-such-program-here'"));
}
