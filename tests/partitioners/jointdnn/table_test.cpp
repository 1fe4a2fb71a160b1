// The jointdnn partitioner's lookup table (partitioners/jointdnn/table.hpp): one plan variant per
// grid cell, each the optimum of that cell solved directly.
#include <catch2/catch.hpp>

#include "partitioners/jointdnn/table.hpp"
#include "partitioners/jointdnn/table_facts.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;
using namespace coinfer::jointdnn;
using Catch::Matchers::Contains;

namespace {

struct Vgg16On4g {
  Graph graph = build_zoo_model("vgg16");
  Platform platform =
      load_platform_file(std::string(COINFER_SOURCE_DIR) + "/platforms/jointdnn_tx2_k40.yaml");
  CostModel cost{graph, estimate_host_profile(graph, HostSpeed::nominal())};
  PartitionContext context(const Platform& p) const { return PartitionContext{graph, p, cost, "tx2"}; }
};

// The same plan: tasks, devices, sizes and durations.
void check_same_plan(const Plan& a, const Plan& b) {
  REQUIRE(a.tasks.size() == b.tasks.size());
  for (std::size_t i = 0; i < a.tasks.size(); ++i) {
    CHECK(a.tasks[i].id == b.tasks[i].id);
    CHECK(a.tasks[i].device == b.tasks[i].device);
    CHECK(a.tasks[i].bytes == b.tasks[i].bytes);
    CHECK(a.tasks[i].duration_s == Approx(b.tasks[i].duration_s).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("every table cell's variant is the optimum of a platform whose network has the cell's rates") {
  const Vgg16On4g f;
  const auto objective = GENERATE(Objective::latency, Objective::energy);
  ScenarioSetup setup;
  setup.network = "4g";
  setup.objective = objective;
  // The paper's 8-bit wire: VGG-16 then offloads at 20 Mbps for latency, 3 Mbps for energy.
  setup.int8_wire = true;
  const BandwidthGrid grid{{0.5e6, 3e6, 20e6}, {1e6, 40e6}};
  const auto variants = table_variants(f.context(f.platform), setup, grid, "jointdnn");
  REQUIRE(variants.size() == 1 + 3 * 2);
  // Variant 0: the nominal plan, as the plain partitioner solves it.
  const auto nominal = build_scenario_problem(f.context(f.platform), setup);
  check_same_plan(variants[0], plan_of_schedule(f.context(f.platform), nominal,
                                                solve_scenario_problem(nominal, setup.solver), "x"));
  CHECK(facts_of<TableFacts>(variants[0]).uplink_bps == 5.85e6);
  CHECK_FALSE(facts_of<TableFacts>(variants[0]).cell.has_value());
  std::size_t distinct = 0;
  for (std::size_t u = 0; u < 3; ++u)
    for (std::size_t d = 0; d < 2; ++d) {
      const Plan& v = variants[1 + u * 2 + d];
      Platform cell = f.platform;
      cell.networks[1].uplink.rate_bps = grid.uplink_bps[u];  // networks[1] is 4g
      cell.networks[1].downlink.rate_bps = grid.downlink_bps[d];
      const auto sp = build_scenario_problem(f.context(cell), setup);
      const Solution s = solve_scenario_problem(sp, setup.solver);
      check_same_plan(v, plan_of_schedule(f.context(cell), sp, s, "x"));
      CHECK(facts_of<TableFacts>(v).latency_s == Approx(s.cost.latency_s).epsilon(1e-12));
      CHECK(facts_of<TableFacts>(v).energy_j == Approx(s.cost.energy_j).epsilon(1e-12));
      CHECK(facts_of<TableFacts>(v).uplink_bps == grid.uplink_bps[u]);
      CHECK(facts_of<TableFacts>(v).downlink_bps == grid.downlink_bps[d]);
      CHECK(facts_of<TableFacts>(v).cell->up == u);
      CHECK(facts_of<TableFacts>(v).cell->down == d);
      CHECK(facts_of<TableFacts>(v).network == 1);
      if (v.tasks.size() != variants[1].tasks.size()) ++distinct;
    }
  // The grid spans all-mobile (0.5 Mbps up) to offloading: the cells do not all agree.
  CHECK(distinct > 0);
}

TEST_CASE("a bandwidth grid is parsed in Mbps and checked") {
  const auto g =
      parse_bandwidth_grid(Json::parse(R"({"uplink_mbps": [1, 2.5], "downlink_mbps": [10]})"), "p.table");
  CHECK(g.uplink_bps == std::vector<double>{1e6, 2.5e6});
  CHECK(g.downlink_bps == std::vector<double>{10e6});
  const auto bad = [](const char* json) { return parse_bandwidth_grid(Json::parse(json), "p.table"); };
  CHECK_THROWS_WITH(bad(R"({"uplink_mbps": [], "downlink_mbps": [1]})"),
                    Contains("p.table.uplink_mbps") && Contains("at least one rate"));
  CHECK_THROWS_WITH(bad(R"({"uplink_mbps": [1, 0], "downlink_mbps": [1]})"),
                    Contains("p.table.uplink_mbps[1]") && Contains("> 0 Mbps"));
  CHECK_THROWS_WITH(bad(R"({"uplink_mbps": [1], "downlink_mbps": [5, 2]})"),
                    Contains("p.table.downlink_mbps[1]") && Contains("increase strictly"));
  CHECK_THROWS_WITH(bad(R"({"uplink_mbps": [1]})"), Contains("downlink_mbps"));
  CHECK_THROWS_WITH(bad(R"({"uplink_mbps": [1], "downlink_mbps": [1], "x": 1})"),
                    Contains("p.table.x: unknown key"));
  CHECK_THROWS_WITH(bad(R"([1, 2])"), Contains("p.table") && Contains("expected {uplink_mbps"));
}
