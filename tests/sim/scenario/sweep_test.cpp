// Sweep expansion: cartesian product of list, range, zip and seed axes, in row-major order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/core/error.hpp"
#include "sim/scenario/sweep.hpp"
#include "sim/scenario/sweep_runner.hpp"
#include "sim/scenario/yaml_json.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

SweepSpec spec_of(const std::string& yaml) { return parse_sweep(yaml_to_json(yaml, "s.yaml"), "s.yaml"); }

}  // namespace

TEST_CASE("two list axes give their product, last axis fastest") {
  const auto spec = spec_of(R"(
scenario: {model: vgg16, partitioner: {name: local}}
axes:
  - {key: partitioner.name, values: [local, remote]}
  - {key: seed, values: [1, 2, 3]}
)");
  const auto runs = expand_sweep(spec);
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].scenario["partitioner"]["name"] == "local");
  CHECK(runs[0].scenario["seed"] == 1);
  CHECK(runs[2].scenario["seed"] == 3);
  CHECK(runs[3].scenario["partitioner"]["name"] == "remote");
  CHECK(runs[5].assignments == Json{{"partitioner.name", "remote"}, {"seed", 3}});
  CHECK(runs[5].scenario["model"] == "vgg16");
}

TEST_CASE("an inclusive integer range keeps integers") {
  const auto spec = spec_of("scenario: {}\naxes:\n  - {key: rate, range: {from: 10, to: 50, step: 20}}\n");
  const auto runs = expand_sweep(spec);
  REQUIRE(runs.size() == 3);  // 10, 30, 50
  CHECK(runs[2].scenario["rate"] == 50);
  CHECK(runs[2].scenario["rate"].is_number_integer());
}

TEST_CASE("a fractional range includes its end despite rounding") {
  const auto spec = spec_of("scenario: {}\naxes:\n  - {key: r, range: {from: 0.1, to: 0.3, step: 0.1}}\n");
  CHECK(sweep_size(spec) == 3);
}

TEST_CASE("zipped lists advance together") {
  const auto spec = spec_of(R"(
scenario: {}
axes:
  - zip:
      - {key: p.name, values: [bodp, bodp, grid2d]}
      - {key: p.workers, values: [2, 3, 4]}
)");
  const auto runs = expand_sweep(spec);
  REQUIRE(runs.size() == 3);
  CHECK(runs[1].scenario["p"] == Json{{"name", "bodp"}, {"workers", 3}});
  CHECK(runs[2].scenario["p"] == Json{{"name", "grid2d"}, {"workers", 4}});
}

TEST_CASE("a seeds axis sets the seed") {
  const auto spec = spec_of("scenario: {seed: 0}\naxes:\n  - seeds: {from: 7, count: 3}\n");
  const auto runs = expand_sweep(spec);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].scenario["seed"] == 7);
  CHECK(runs[2].scenario["seed"] == 9);
}

TEST_CASE("zipped lists of different lengths are rejected") {
  CHECK_THROWS_WITH(
      spec_of("scenario: {}\naxes:\n  - zip:\n    - {key: a, values: [1, 2]}\n    - {key: b, values: [1]}\n"),
      Contains("s.yaml: axes[0].zip[1]") && Contains("equal lengths"));
}

TEST_CASE("a non-positive range step is rejected with its path") {
  CHECK_THROWS_WITH(spec_of("scenario: {}\naxes:\n  - {key: a, range: {from: 1, to: 2, step: 0}}\n"),
                    Contains("axes[0].range.step"));
}

TEST_CASE("an axis needs values or a range, not both") {
  CHECK_THROWS_WITH(
      spec_of("scenario: {}\naxes:\n  - {key: a, values: [1], range: {from: 1, to: 2, step: 1}}\n"),
      Contains("axes[0]") && Contains("exactly one of"));
}

TEST_CASE("a sweep without a base scenario is rejected") {
  CHECK_THROWS_WITH(spec_of("axes: []\n"), Contains("s.yaml: base"));
}

TEST_CASE("a sweep with no axes is a single run of the base") {
  CHECK(sweep_size(spec_of("scenario: {seed: 1}\naxes: []\n")) == 1);
}

TEST_CASE("a base's relative paths are rebased onto the sweep file's folder") {
  // base.yaml in dir/sub names ../p.yaml (= dir/p.yaml); the sweep in dir must read it as p.yaml.
  const auto dir = coinfer::test::scratch_dir();
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub/base.yaml")
      << "model: m.json\nplatform: ../p.yaml\npartitioner: {name: plan, file: x.json}\n";
  const auto sweep_file = (dir / "sw.yaml").string();
  const auto spec = parse_sweep(yaml_to_json("base: sub/base.yaml\naxes: []\n", sweep_file), sweep_file);
  CHECK(spec.base["platform"] == "p.yaml");
  CHECK(spec.base["model"] == "sub/m.json");
  CHECK(spec.base["partitioner"]["file"] == "sub/x.json");
  CHECK(spec.base["name"] == "base");  // a base without a name keeps its file's
}

TEST_CASE("compare variants of the base become the fastest axis") {
  const auto spec = spec_of(R"(
scenario:
  name: q
  partitioner: {name: local}
  compare:
    - {label: here, set: {partitioner: {name: local}}}
    - {label: there, set: {partitioner: {name: remote}}}
axes:
  - {key: seed, values: [1, 2]}
)");
  const auto runs = expand_sweep(spec);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].variant == "here");
  CHECK(runs[1].variant == "there");
  CHECK(runs[1].scenario["partitioner"]["name"] == "remote");
  CHECK(runs[1].scenario["seed"] == 1);
  CHECK(runs[2].scenario["seed"] == 2);
  CHECK(runs[3].scenario["name"] == "q/there");
  CHECK_FALSE(runs[3].scenario.contains("compare"));
}

TEST_CASE("a point hash identifies the whole resolved scenario") {
  const auto a = expand_sweep(spec_of("scenario: {seed: 0, x: 1}\naxes:\n  - {key: seed, values: [1, 2]}\n"));
  const auto b = expand_sweep(spec_of("scenario: {seed: 0, x: 2}\naxes:\n  - {key: seed, values: [1, 2]}\n"));
  CHECK(a[0].point_hash.size() == 16);
  CHECK(a[0].point_hash != a[1].point_hash);  // another seed
  CHECK(a[0].point_hash != b[0].point_hash);  // same seed, another base
  CHECK(a[0].point_hash ==
        expand_sweep(spec_of("scenario: {x: 1, seed: 0}\naxes:\n  - {key: seed, values: [1, 2]}\n"))[0]
            .point_hash);
}

TEST_CASE("describe_run names the variant and the assignments") {
  const auto runs = expand_sweep(spec_of(
      "scenario: {compare: [{label: v, set: {}}]}\naxes:\n  - {key: partitioner.name, values: [local]}\n"));
  CHECK(describe_run(runs[0]) == "variant=v, partitioner.name=local");
}

TEST_CASE("columns add results.json paths to the CSV header after the metrics") {
  const auto spec = spec_of(R"(
scenario: {model: vgg16, partitioner: {name: local}}
axes:
  - {key: seed, values: [1, 2]}
columns: [scheduler_metrics.accuracy, busy_s.total]
)");
  CHECK(spec.columns == std::vector<std::string>{"scheduler_metrics.accuracy", "busy_s.total"});
  const auto header = sweep_csv_header(spec);
  // busy_s.total is already a metric column: listed once; the new path comes before point_hash.
  CHECK(std::count(header.begin(), header.end(), "busy_s.total") == 1);
  REQUIRE(header.size() >= 2);
  CHECK(header[header.size() - 2] == "scheduler_metrics.accuracy");
  CHECK_THROWS_WITH(spec_of("scenario: {model: vgg16}\naxes: []\ncolumns: [1]\n"),
                    Contains("s.yaml: columns[0]: expected a results.json path"));
}
