// The sweep runner with an in-process launcher: rows, resume, shards, failures.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "sim/scenario/sweep_runner.hpp"
#include "sim/scenario/yaml_json.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

SweepSpec four_runs() {
  return parse_sweep(
      yaml_to_json("scenario: {seed: 0}\naxes:\n  - {key: x, values: [1, 2, 3, 4]}\n", "s.yaml"), "s.yaml");
}

std::string fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("coinfer_sweep_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  return dir.string();
}

// A launcher whose "results" are a function of the scenario: latency = 10 * x.
RunOutcome fake_launch(const SweepRun& run, const std::string&) {
  const auto x = run.scenario["x"].get<int>();
  return {true, Json{{"latency_ms", {{"mean", 10 * x}}}, {"seed", run.scenario["seed"]}}, ""};
}

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
    csv.append(1, std::vector<std::string>(header.size() - 1, "0"));
  }
  std::mutex m;
  std::vector<std::size_t> launched;
  const auto summary =
      run_sweep(four_runs(), {.out_dir = dir, .jobs = 1}, [&](const SweepRun& r, const std::string& d) {
        std::lock_guard lock(m);
        launched.push_back(r.index);
        return fake_launch(r, d);
      });
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
  CHECK(merge_results({s1.csv_path, s2.csv_path}, dir + "/merged.csv") == 4);
}

TEST_CASE("a failed run is reported and leaves no row") {
  const auto dir = fresh_dir("fail");
  const auto summary = run_sweep(four_runs(), {.out_dir = dir}, [](const SweepRun& r, const std::string& d) {
    if (r.index == 2) return RunOutcome{false, {}, "boom"};
    return fake_launch(r, d);
  });
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
