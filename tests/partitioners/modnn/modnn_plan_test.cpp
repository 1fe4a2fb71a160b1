// The MoDNN model processor's plans on the wlan4 platform (GO + 4 Nexus 5 workers).
#include "partitioners/modnn/modnn_plan.hpp"

#include <catch2/catch.hpp>

#include "partitioners/modnn/modnn_partitioner.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/plan/critical_path.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

struct Fixture {
  Graph graph = build_zoo_model("vgg16");
  Platform platform = load_platform_file(COINFER_SOURCE_DIR "/platforms/wlan4.yaml");
  CostModel cost{graph, estimate_host_profile(graph, HostSpeed::nominal())};
  PartitionContext ctx() const { return {graph, platform, cost, "go"}; }
};

double bytes_labelled(const Plan& plan, const std::string& label, const std::string& what) {
  double b = 0;
  for (const auto& t : plan.tasks)
    if (t.kind == TaskKind::Transfer && t.label == label && t.id.find(what) != std::string::npos)
      b += t.bytes;
  return b;
}

ModnnOptions forced(int workers, ConvSplit conv = ConvSplit::Bodp) {
  ModnnOptions o;
  o.workers = workers;
  o.conv = conv;
  return o;
}

}  // namespace

TEST_CASE("modnn plan: BODP maps conv1_2's halo rows, eq. 4.1 per neighbouring pair", "[modnn][plan]") {
  const Fixture f;
  const auto plan = modnn_plan(f.ctx(), forced(4)).plan;
  // Stripes of 56 conv1_1 rows; conv1_2 (3x3, p 1) needs one row from each neighbour: 3 pairs x
  // 2 rows x 224 x 64 channels x 4 B = min(H, W) C (F - 1) Z per pair = 344064 B mapped back.
  CHECK(bytes_labelled(plan, "conv1_2", ".map.") == 344064);
  // ... and the same rows reduced to the GO first (after conv1_1).
  CHECK(bytes_labelled(plan, "conv1_1", ".reduce.") == 344064);
}

TEST_CASE("modnn plan: the GO scatters the image and every worker computes every stage", "[modnn][plan]") {
  const Fixture f;
  const auto plan = modnn_plan(f.ctx(), forced(2)).plan;
  // Two stripes of 112 rows of the 3 x 224 x 224 image: [0, 113) and [111, 224): 226 rows.
  CHECK(bytes_labelled(plan, "conv1_1", ".map.") == 226.0 * 224 * 3 * 4);
  int computes = 0;
  for (const auto& t : plan.tasks) computes += t.kind == TaskKind::Compute;
  CHECK(computes == 13 * 2 + 3 * (2 + 1));  // 13 conv stages on 2 workers; fc on 2 workers + the GO
  CHECK_NOTHROW(analytic_latency_s(plan, f.platform));  // a valid DAG on the platform
}

TEST_CASE("modnn plan: the 2-D grid moves less data than BODP on 4 workers but over more channels",
          "[modnn][plan]") {
  const Fixture f;
  const auto bodp = modnn_plan(f.ctx(), forced(4)).plan;
  const auto grid = modnn_plan(f.ctx(), forced(4, ConvSplit::Grid2d)).plan;
  // conv1_2: BODP 6 halo rows of 224; the grid 2 x 2 tiles exchange 8 half-edges of 113 + corners.
  CHECK(bytes_labelled(grid, "conv1_2", ".map.") < bytes_labelled(bodp, "conv1_2", ".map."));
}

TEST_CASE("modnn plan: the sweet spot is the worker count of least estimated time", "[modnn][plan]") {
  const Fixture f;
  const auto r = modnn_plan(f.ctx(), ModnnOptions{});
  REQUIRE(r.estimates_s.size() == 4);
  const auto best = std::min_element(r.estimates_s.begin(), r.estimates_s.end()) - r.estimates_s.begin();
  CHECK(r.workers == best + 1);
  CHECK(r.estimated_s == r.estimates_s[static_cast<std::size_t>(best)]);
}

TEST_CASE("modnn plan: asking for more workers than the platform has names the key", "[modnn][plan]") {
  const Fixture f;
  CHECK_THROWS_WITH(modnn_plan(f.ctx(), forced(5)), Catch::Matchers::Contains("partitioner.workers"));
}

TEST_CASE("modnn partitioners: bodp, grid2d and modnn are registered and reject unknown keys",
          "[modnn][plan]") {
  PartitionerRegistry registry("partitioner");
  register_modnn_partitioners(registry);
  for (const auto* name : {"modnn", "bodp", "grid2d"}) CHECK(registry.contains(name));
  CHECK_THROWS_AS(registry.create("bodp", Json{{"conv", "grid2d"}}), InputError);  // fixed for bodp
  CHECK_THROWS_AS(registry.create("modnn", Json{{"fc_sparsity", 1.5}}), InputError);
}
