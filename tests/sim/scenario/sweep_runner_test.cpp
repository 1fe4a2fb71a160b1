// The sweep runner with an in-process launcher: rows, resume, shards, failures.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "sim/scenario/sweep_merge.hpp"
#include "sim/scenario/sweep_runner.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

SweepSpec sweep_of(const std::string& axes) {
  return parse_sweep(yaml_to_json("scenario: {seed: 0}\naxes:\n" + axes, "s.yaml"), "s.yaml");
}

SweepSpec four_runs() { return sweep_of("  - {key: x, values: [1, 2, 3, 4]}\n"); }

std::string fresh_dir(const std::string& name) {
  auto dir = coinfer::test::scratch_dir() / name;
  std::filesystem::remove_all(dir);
  return dir.string();
}

// A launcher whose "results" are a function of the scenario: latency = 10 * x.
RunOutcome fake_run(const SweepRun& run, const std::string&) {
  const auto x = run.scenario["x"].get<int>();
  return {true, Json{{"latency_ms", {{"mean", 10 * x}}}, {"seed", run.scenario["seed"]}}, ""};
}
const RunLauncher fake_launch = in_process(fake_run);

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("every run appends one row with its axis values and metrics") {
  const auto dir = fresh_dir("all");
  const auto summary = run_sweep(four_runs(), {.out_dir = dir, .jobs = 2}, fake_launch);
  CHECK(summary.progress.done == 4);
  const auto lines = lines_of(summary.csv_path);
  REQUIRE(lines.size() == 5);
  const auto header = csv_split(lines[0]);
  CHECK(header[0] == "run");
  CHECK(header[1] == "x");
  const auto col = std::find(header.begin(), header.end(), "latency_ms.mean") - header.begin();
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = csv_split(lines[i]);
    const auto x = std::stoi(cells[1]);
    CHECK(cells[static_cast<std::size_t>(col)] == std::to_string(10 * x));
  }
  CHECK(std::filesystem::exists(std::filesystem::path(dir) / "runs" / "3" / "scenario.json"));
}

TEST_CASE("a resumed sweep runs only the missing runs") {
  const auto dir = fresh_dir("resume");
  std::filesystem::create_directories(dir);
  const auto header = sweep_csv_header(four_runs());
  {
    ResultsCsv csv(dir + "/results.csv", header);
    std::vector<std::string> cells(header.size() - 2, "0");
    cells.push_back(sweep_run(four_runs(), 1).point_hash);  // a row of this very point
    csv.append(1, cells);
  }
  std::mutex m;
  std::vector<std::size_t> launched;
  const auto summary = run_sweep(four_runs(), {.out_dir = dir, .jobs = 1},
                                 in_process([&](const SweepRun& r, const std::string& d) {
                                   std::lock_guard lock(m);
                                   launched.push_back(r.index);
                                   return fake_run(r, d);
                                 }));
  CHECK(summary.progress.skipped == 1);
  CHECK(launched == std::vector<std::size_t>{0, 2, 3});
  CHECK(lines_of(summary.csv_path).size() == 5);
}

TEST_CASE("shards split the runs by index and merge back to the whole") {
  const auto dir = fresh_dir("shards");
  const auto s1 = run_sweep(four_runs(), {.out_dir = dir, .shard = 0, .shard_count = 2}, fake_launch);
  const auto s2 = run_sweep(four_runs(), {.out_dir = dir, .shard = 1, .shard_count = 2}, fake_launch);
  CHECK(s1.progress.total == 2);
  CHECK(s2.progress.total == 2);
  CHECK(merge_results({s1.csv_path, s2.csv_path}, dir + "/merged.csv").rows == 4);
  // Byte for byte what one machine writes for the whole sweep, once sorted by run.
  const auto whole = run_sweep(four_runs(), {.out_dir = dir + "/one", .jobs = 1}, fake_launch);
  CHECK(lines_of(dir + "/merged.csv") == lines_of(whole.csv_path));
}

TEST_CASE("a failed run is reported and leaves no row") {
  const auto dir = fresh_dir("fail");
  const auto summary =
      run_sweep(four_runs(), {.out_dir = dir}, in_process([](const SweepRun& r, const std::string& d) {
                  if (r.index == 2) return RunOutcome{false, {}, "boom"};
                  return fake_run(r, d);
                }));
  CHECK(summary.progress.failed == 1);
  REQUIRE(summary.failures.size() == 1);
  CHECK_THAT(summary.failures[0], Contains("run 2: boom"));
  CHECK(lines_of(summary.csv_path).size() == 4);
}

TEST_CASE("shard numbers are 1-based i/N") {
  CHECK(parse_shard("2/4") == std::pair<std::size_t, std::size_t>{1, 4});
  CHECK_THROWS_AS(parse_shard("0/4"), InputError);
  CHECK_THROWS_AS(parse_shard("5/4"), InputError);
  CHECK_THROWS_AS(parse_shard("x"), InputError);
}

TEST_CASE("a sweep whose points changed under old rows is refused, naming the run") {
  const auto dir = fresh_dir("changed");
  run_sweep(sweep_of("  - {key: x, values: [1, 2]}\n  - seeds: {from: 1, count: 2}\n"), {.out_dir = dir},
            fake_launch);
  // count 2 -> 3: run 2 was (x=2, seed=1), now it is (x=1, seed=3).
  const auto grown = sweep_of("  - {key: x, values: [1, 2]}\n  - seeds: {from: 1, count: 3}\n");
  CHECK_THROWS_WITH(run_sweep(grown, {.out_dir = dir}, fake_launch),
                    Contains("results.csv: line 4") && Contains("run 2 holds results of another point") &&
                        Contains("seed=3, x=1"));
}

TEST_CASE("a sweep grown on its first axis keeps its rows and runs only the new points") {
  const auto dir = fresh_dir("grown");
  run_sweep(sweep_of("  - {key: x, values: [1, 2]}\n  - seeds: [1, 2]\n"), {.out_dir = dir}, fake_launch);
  const auto summary = run_sweep(sweep_of("  - {key: x, values: [1, 2, 3]}\n  - seeds: [1, 2]\n"),
                                 {.out_dir = dir}, fake_launch);
  CHECK(summary.progress.skipped == 4);
  CHECK(summary.progress.done == 2);
}

TEST_CASE("every point is checked before any run starts") {
  const auto dir = fresh_dir("checked");
  std::size_t launched = 0;
  const PointCheck check = [](const SweepRun& run) {
    if (run.scenario["x"] == 3) throw InputError("", "x", "three is not allowed");
  };
  CHECK_THROWS_WITH(
      run_sweep(four_runs(), {.out_dir = dir}, in_process([&](const SweepRun& r, const std::string& d) {
                  ++launched;
                  return fake_run(r, d);
                }),
                {}, check),
      Contains("s.yaml: run 2 (x=3): x: three is not allowed"));
  CHECK(launched == 0);
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir) / "results.csv"));
}

TEST_CASE("a sweep over compare variants writes one row per variant with a variant column") {
  const auto dir = fresh_dir("variants");
  const auto spec =
      parse_sweep(yaml_to_json("scenario: {seed: 0, x: 1, compare: [{label: a, set: {x: 5}}, {label: b}]}\n"
                               "axes:\n  - seeds: [1, 2]\n",
                               "s.yaml"),
                  "s.yaml");
  const auto summary = run_sweep(spec, {.out_dir = dir}, fake_launch);
  const auto lines = lines_of(summary.csv_path);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].starts_with("run,variant,seed,"));
  CHECK(lines[0].ends_with(",point_hash"));
  CHECK(lines[1].starts_with("0,a,1,"));
  CHECK(lines[2].starts_with("1,b,1,"));
  const auto header = csv_split(lines[0]);
  const auto col = std::find(header.begin(), header.end(), "latency_ms.mean") - header.begin();
  CHECK(csv_split(lines[1])[static_cast<std::size_t>(col)] == "50");  // variant a sets x = 5
}

TEST_CASE("a run's folder holds only what the latest attempt wrote") {
  const auto dir = fresh_dir("stale");
  const auto stale = std::filesystem::path(dir) / "runs" / "0" / "results.json";
  std::filesystem::create_directories(stale.parent_path());
  std::ofstream(stale) << "{}";
  run_sweep(four_runs(), {.out_dir = dir}, in_process([](const SweepRun& r, const std::string& d) {
              if (r.index == 0) return RunOutcome{false, {}, "boom"};
              return fake_run(r, d);
            }));
  CHECK_FALSE(std::filesystem::exists(stale));
}
