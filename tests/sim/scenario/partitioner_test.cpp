// Partitioner::check_model: a scenario asks its partitioner about the model before it measures the
// host profile, so a model the partitioner never plans fails before any kernel is timed.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

// Plans everything on the source; refuses any model when `refuse`.
struct Refusing : Partitioner {
  explicit Refusing(bool r) : refuse(r) {}
  void check_model(const Graph& graph) const override {
    if (refuse) throw InputError("", "layers[0]", "refused model '" + graph.name() + "'");
  }
  Plan partition(const PartitionContext& c) const override {
    return Plan{
        "all",
        "",
        {compute_task("all", c.source, c.cost.total_time_s(c.platform.devices.front().calibration), {})}};
  }
  bool refuse;
};

// Partitions a lenet5 scenario profiled on this host, its profile cache in `cache`: its partitioner
// `refusing` (it refuses every model) or `accepting`, and `tail` appended (a population).
void partition_profiled(const char* partitioner, const test::ScratchDir& dir,
                        const std::filesystem::path& cache, const char* tail = "") {
  ::setenv("COINFER_CACHE_DIR", cache.c_str(), 1);  // this test case's process only
  const auto file = dir.write("s.yaml", fmt::format(R"(model: lenet5
platform: {}/platforms/jointdnn_tx2_k40.yaml
host_profile: {{basis: measured, repeats: 1}}
partitioner: {{name: {}}}
workload: {{kind: stream, rate_fps: 1, frames: 1}}
{})",
                                                    COINFER_SOURCE_DIR, partitioner, tail));
  PartitionerRegistry registry("partitioner");
  for (const bool refuse : {true, false})
    registry.add(refuse ? "refusing" : "accepting", "refuses every model when asked to, or none",
                 ParamSchema{}, [refuse](const Json&) { return std::make_unique<Refusing>(refuse); });
  partition_scenario(load_scenario(file, {}), registry);
}

bool has_files(const std::filesystem::path& folder) {
  return std::filesystem::exists(folder) && !std::filesystem::is_empty(folder);
}

}  // namespace

TEST_CASE("a model the partitioner refuses fails before the host profile is measured") {
  const test::ScratchDir dir;
  const auto cache = dir.fs_path() / "cache";
  try {
    partition_profiled("refusing", dir, cache);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("s.yaml: layers[0]: refused model 'lenet5'") != std::string::npos);
  }
  CHECK(!has_files(cache));  // nothing was profiled
}

TEST_CASE("a model the partitioner accepts is profiled into the cache") {
  const test::ScratchDir dir;
  const auto cache = dir.fs_path() / "cache";
  partition_profiled("accepting", dir, cache);
  CHECK(has_files(cache));
}

TEST_CASE("a model a user group's own partitioner refuses fails before the host profile is measured") {
  const test::ScratchDir dir;
  const auto cache = dir.fs_path() / "cache";
  try {
    partition_profiled("accepting", dir, cache, "users:\n  - {device: tx2, partitioner: {name: refusing}}\n");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("refused model 'lenet5'") != std::string::npos);
  }
  CHECK(!has_files(cache));
}

TEST_CASE("a scenario partitioner that no user group plans with is not asked about the model") {
  const test::ScratchDir dir;
  const auto cache = dir.fs_path() / "cache";
  partition_profiled("refusing", dir, cache, "users:\n  - {device: tx2, partitioner: {name: accepting}}\n");
  CHECK(has_files(cache));
}
