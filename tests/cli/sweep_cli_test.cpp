// `coinfer sweep` and `coinfer merge` end to end: the guide's example as written, paths relative to the
// files that wrote them, compare variants as rows, checks before any run, resume and merge safety.
#include <fstream>

#include <catch2/catch.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using Catch::Matchers::Contains;

namespace {

const std::filesystem::path kRoot = COINFER_SOURCE_DIR;

std::filesystem::path fresh(const std::string& name) { return fresh_dir(name); }

std::size_t lines_in(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A lenet5 base scenario in `dir/sub`, naming the shipped platform relative to itself.
void write_base(const std::filesystem::path& dir, const std::string& extra = "") {
  std::filesystem::create_directories(dir / "sub");
  const auto platform = (kRoot / "platforms/edge_wifi_lte.yaml").lexically_relative(dir / "sub");
  std::ofstream(dir / "sub/base.yaml") << "name: base\nmodel: lenet5\nplatform: " << platform.string()
                                       << "\nsource: phone\nhost_profile: {basis: estimate}\n"
                                          "partitioner: {name: local}\n"
                                       << extra;
}

}  // namespace

TEST_CASE("the guide's sweep example is the shipped file and runs as written") {
  const auto readme = read_text(kRoot / "docs/guide/sweeps.md");
  const auto example = read_text(kRoot / "scenarios/offload-sweep.yaml");
  CHECK_THAT(readme, Contains(example));  // the guide's block is the file, verbatim
  const auto out = fresh("readme_sweep");
  const auto r = run_cli_in(kRoot, "sweep scenarios/offload-sweep.yaml --jobs 2 --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // 2 models x 4 rates x 2 (frames, deadline) x 2 seeds x 3 compare variants = 96 runs.
  CHECK(lines_in(read_text(out / "results.csv")) == 97);
  CHECK_THAT(read_text(out / "results.csv"), Contains("\n0,local,alexnet,1,2,10,1,quickstart/local,"));
}

TEST_CASE("a sweep resolves the base's paths from the base's folder, whatever the working directory") {
  const auto dir = fresh("paths");
  write_base(dir);
  std::ofstream(dir / "sw.yaml") << "name: sw\nbase: sub/base.yaml\naxes:\n  - seeds: [1, 2]\n";
  const auto r =
      run_cli_in(scratch_dir(), "sweep " + (dir / "sw.yaml").string() + " --out " + (dir / "out").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(lines_in(read_text(dir / "out/results.csv")) == 3);
  CHECK(std::filesystem::exists(dir / "out/runs/1/results.json"));
}

TEST_CASE("a typo in an axis fails once, before any run, naming the run and the key") {
  const auto dir = fresh("typo");
  write_base(dir);
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n  - {key: partitioner.name, values: [local, remot]}\n"
         "  - seeds: [1, 2, 3]\n";
  const auto r = run_cli_in(dir, "sweep sw.yaml --out out");
  CHECK(r.exit_code == 2);
  CHECK(lines_in(r.err) == 1);
  CHECK_THAT(r.err, Contains("sw.yaml: run 3 (partitioner.name=remot, seed=1): partitioner.name: unknown "
                             "partitioner 'remot'"));
  CHECK_FALSE(std::filesystem::exists(dir / "out/runs"));
}

TEST_CASE("sweep --dry-run lists and checks every point and runs nothing") {
  const auto dir = fresh("dry");
  write_base(dir);
  std::ofstream(dir / "sw.yaml") << "base: sub/base.yaml\naxes:\n  - seeds: [1, 2, 3]\n";
  const auto r = run_cli_in(dir, "sweep sw.yaml --dry-run --out out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("     2  ") && Contains("seed=3") && Contains("3 runs, every point valid"));
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("rerunning a changed sweep into the same folder is refused, not mixed") {
  const auto dir = fresh("changed");
  write_base(dir);
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n  - {key: partitioner.name, values: [local, remote]}\n"
         "  - seeds: {from: 1, count: 2}\n";
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --out out").exit_code == 0);
  const auto before = read_text(dir / "out/results.csv");
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n  - {key: partitioner.name, values: [local, remote]}\n"
         "  - seeds: {from: 1, count: 3}\n";
  const auto r = run_cli_in(dir, "sweep sw.yaml --out out");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("results.csv: line 4: run 2 holds results of another point"));
  CHECK(read_text(dir / "out/results.csv") == before);
}

TEST_CASE("descriptions with commas, quotes and newlines survive resume and merge") {
  const auto dir = fresh("quoting");
  write_base(dir);
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n"
         "  - {key: description, values: [\"a, b\", \"say \\\"hi\\\"\", \"two\\nlines\"]}\n";
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --shard 1/2 --out out").exit_code == 0);
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --shard 2/2 --out out").exit_code == 0);
  const auto again = run_cli_in(dir, "sweep sw.yaml --shard 1/2 --out out");
  CHECK_THAT(again.out, Contains("2 already done"));
  const auto m =
      run_cli_in(dir, "merge out/results.shard-1-of-2.csv out/results.shard-2-of-2.csv -o all.csv");
  INFO(m.err);
  REQUIRE(m.exit_code == 0);
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --out whole").exit_code == 0);
  CHECK(read_text(dir / "all.csv") == read_text(dir / "whole/results.csv"));  // merged = one machine's run
  CHECK_THAT(read_text(dir / "all.csv"), Contains("\"two\nlines\""));
}

TEST_CASE("merge refuses conflicting rows and lists missing runs") {
  const auto dir = fresh("merge");
  write_base(dir);
  std::ofstream(dir / "sw.yaml") << "base: sub/base.yaml\naxes:\n  - seeds: [1, 2, 3, 4]\n";
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --shard 1/2 --out a").exit_code == 0);
  const auto missing = run_cli_in(dir, "merge a/results.shard-1-of-2.csv -o m.csv");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Contains("2 of 4 runs are missing: 1, 3"));
  CHECK_FALSE(std::filesystem::exists(dir / "m.csv"));
  CHECK(run_cli_in(dir, "merge a/results.shard-1-of-2.csv -o m.csv --allow-partial").exit_code == 0);
  // A tampered copy of the shard: run 0 with another latency.
  auto text = read_text(dir / "a/results.shard-1-of-2.csv");
  std::filesystem::create_directories(dir / "b");
  const auto row = text.find("\n0,") + 1;
  text.insert(text.find(",", text.find(",", row) + 1) + 1, "9");
  std::ofstream(dir / "b/results.shard-1-of-2.csv") << text;
  std::filesystem::copy_file(dir / "a/results.shard-1-of-2.sweep.json",
                             dir / "b/results.shard-1-of-2.sweep.json");
  const auto conflict =
      run_cli_in(dir, "merge a/results.shard-1-of-2.csv b/results.shard-1-of-2.csv -o c.csv --allow-partial");
  CHECK(conflict.exit_code == 2);
  CHECK_THAT(conflict.err, Contains("run 0 conflicts with a/results.shard-1-of-2.csv line 2"));
}

TEST_CASE("forked runs write the same files as a fresh coinfer run per point") {
  const auto dir = fresh("launch");
  write_base(dir, "workload: {kind: stream, rate_fps: 5, frames: 4}\n");
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n  - {key: partitioner.name, values: [local, remote]}\n"
         "  - seeds: [1, 2]\n";
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --launch exec --out exec").exit_code == 0);
  REQUIRE(run_cli_in(dir, "sweep sw.yaml --launch fork --out fork").exit_code == 0);
  CHECK(read_text(dir / "exec/results.csv") == read_text(dir / "fork/results.csv"));
  for (int run = 0; run < 4; ++run) {
    const auto rel = std::filesystem::path("runs") / std::to_string(run) / "results.json";
    CHECK(read_text(dir / "exec" / rel) == read_text(dir / "fork" / rel));
  }
}

TEST_CASE("a forked run that fails reports its error and leaves no row") {
  const auto dir = fresh("launch_fail");
  write_base(dir);
  // `remote` over a network the platform lacks: only the partitioner, inside the run, finds out.
  std::ofstream(dir / "sw.yaml")
      << "base: sub/base.yaml\naxes:\n  - {key: partitioner, values: [{name: local}, "
         "{name: remote, network: nope}]}\n";
  const auto r = run_cli_in(dir, "sweep sw.yaml --out out");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("sweep: run 1: ") && Contains("nope"));
  CHECK(lines_in(read_text(dir / "out/results.csv")) == 2);  // header + run 0
}
