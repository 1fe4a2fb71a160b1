// Scenario keys for paper reproductions: `report:` and `outputs.stages`.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

Json scenario_with(Json report) {
  Json doc = Json::parse(R"({"name": "s", "model": "lenet5", "partitioner": "local",
      "outputs": {"stages": true}, "compare": [{"label": "a", "set": {}}]})");
  doc["platform"] = std::string(COINFER_SOURCE_DIR) + "/platforms/edge_wifi_lte.yaml";
  if (!report.is_null()) doc["report"] = std::move(report);
  return doc;
}

}  // namespace

TEST_CASE("scenario report: a report naming an unknown run fails with file and key path", "[scenario]") {
  const Json report = Json::parse(R"({"rows": [{"name": "x", "run": "b", "metric": "latency_ms.mean"}]})");
  CHECK_THROWS_WITH(parse_scenario(scenario_with(report), "x.yaml"),
                    Contains("x.yaml") && Contains("report.rows[0].run") && Contains("unknown run 'b'"));
}

TEST_CASE("scenario report: the block and outputs.stages are kept, variants drop the report", "[scenario]") {
  const Json report = Json::parse(R"({"rows": [{"name": "x", "run": "a", "metric": "latency_ms.mean"}]})");
  const auto spec = parse_scenario(scenario_with(report), "x.yaml");
  CHECK(spec.stages);
  CHECK(spec.report == report);
  CHECK(compare_variant(spec, spec.compare[0]).report.is_null());
}
