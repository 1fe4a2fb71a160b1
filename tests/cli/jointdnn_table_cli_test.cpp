// End to end: the JointDNN lookup-table scenario (scenarios/jointdnn/jointdnn-table-trace.yaml), shortened.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include "tests/cli/cli_runner.hpp"

using Json = nlohmann::json;
using namespace coinfer::testing;

TEST_CASE("the jointdnn table scenario runs deterministically and the table switches variants") {
  const std::string scenario =
      std::string(COINFER_SOURCE_DIR) + "/scenarios/jointdnn/jointdnn-table-trace.yaml";
  const auto run = [&](const std::string& name) {
    const auto out = scratch_dir() / name;
    const auto r = run_cli("run " + scenario + " --out " + out.string() + " --set workload.frames=60");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return out;
  };
  const auto a = run("table_a"), b = run("table_b");
  for (const char* label : {"static", "table", "oracle", "probe-2s"})
    CHECK(read_text(a / label / "results.json") == read_text(b / label / "results.json"));
  const auto table = Json::parse(read_text(a / "table" / "results.json"));
  const auto oracle = Json::parse(read_text(a / "oracle" / "results.json"));
  const auto fixed = Json::parse(read_text(a / "static" / "results.json"));
  CHECK(table["plan_variants"].size() == 1 + 9 * 5);
  CHECK(table["scheduler_metrics"]["table_decisions"] == 60);
  CHECK(oracle["scheduler_metrics"]["table_changes"].get<double>() > 0);
  CHECK(fixed["scheduler"] == "none");
  CHECK(Json::parse(read_text(a / "probe-2s" / "results.json"))["probes"]["4g/tx2/up"].get<int>() > 0);
}
