// The `pipeline` scenario end to end through `coinfer run`: plan variants, their metadata and the
// effective accuracy of the run.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using namespace coinfer::testing;
using nlohmann::json;

namespace {
const std::string kRoot = COINFER_SOURCE_DIR;

json run_pipeline(const std::string& name, const std::string& sets) {
  const auto out = scratch_dir() / name;
  const auto r =
      run_cli("run " + kRoot + "/scenarios/pipeline-mobilenet-rpi4.yaml --quiet --set workload.frames=200 " +
              sets + " --out " + out.string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(read_text(out / "results.json"));
}
}  // namespace

TEST_CASE("pipeline scenario: four variants, nu_eff = completed frames x nu of variant 0 / generated") {
  const auto r = run_pipeline("pipeline-g4", "--set partitioner.default_gamma=4");
  REQUIRE(r["plan_variants"].size() == 4);
  const auto& v0 = r["plan_variants"][0]["metadata"];
  CHECK(v0["gamma"] == 4.0);
  CHECK(v0["accuracy"] == 0.885);  // Table II, CIFAR-10, as the scenario gives it
  CHECK(v0["bytes"].get<double>() * 4 == v0["data_bytes"].get<double>());
  // No scheduler: every frame runs variant 0; no deadline, so every completed frame counts.
  const double completed = r["completed"].get<double>(), frames = r["frames"].get<double>();
  CHECK(completed + r["dropped"].get<double>() == frames);
  CHECK(r["effective_accuracy"].get<double>() == Approx(completed * 0.885 / frames));
  CHECK(r["effective_accuracy_windows"].size() == 10);
}

TEST_CASE("pipeline scenario: compression lets more frames through a 5 Mbps first hop") {
  // Split 1 sends 32,768 B uncompressed: 19 fps at 5 Mbps, below T_gen = 46 fps; gamma 2 halves it.
  const auto plain = run_pipeline("pipeline-g1", "");
  const auto g2 = run_pipeline("pipeline-g2", "--set partitioner.default_gamma=2");
  CHECK(g2["completed"].get<int>() > plain["completed"].get<int>());
  CHECK(g2["effective_accuracy"].get<double>() > plain["effective_accuracy"].get<double>());
}

TEST_CASE("pipeline scenario: MobileNet-v2 with ImageNet strides at 32x32 splits after blocks 4, 11, 15") {
  // The paper numbers MobileNet-v2's layers 1 (stem, features.0) to 19 (last conv, features.18), so
  // a split after paper layer k is a split after block features.(k-1). Eq. 2 on this model's MACs
  // must cut after features.3, features.10 and features.14 (the paper's S = {4, 11, 15}); the CIFAR
  // variant of the zoo, with stride 1 early, cuts one block later (README).
  const auto r = run_cli("partition " + kRoot + "/scenarios/pipeline-mobilenet32-rpi4.yaml --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto plan = json::parse(r.out);
  std::vector<std::string> cuts;
  for (const auto& t : plan["tasks"])
    if (t["kind"] == "transfer") cuts.push_back(t["label"]);
  CHECK(cuts == std::vector<std::string>{"features.3.add", "features.10.add", "features.14.project_bn"});
}
