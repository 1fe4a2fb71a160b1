// The MoDNN model processor's plans on the wlan4 platform (GO + 4 Nexus 5 workers).
#include "partitioners/modnn/modnn_plan.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "partitioners/modnn/modnn_partitioner.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_json.hpp"
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

TEST_CASE("modnn plan: relayed halos name their neighbour channel, 2 per BODP worker, 3 per grid tile",
          "[modnn][plan]") {
  const Fixture f;
  // The channels of the maps feeding conv stages (a reduce carries the stage before it, so
  // conv5_3's holds fc6's all-to-all inputs) per worker: BODP stripes w1..w4 neighbour only the
  // next stripe (w1|w2, w2|w3, w3|w4); 2 x 2 tiles touch every other tile (sides and corner).
  auto channels_per_worker = [](const Plan& plan) {
    std::map<std::string, std::set<std::string>> out;
    for (const auto& t : plan.tasks) {
      if (t.kind != TaskKind::Transfer || t.channel.empty() || t.label.rfind("conv", 0) != 0 ||
          t.id.find(".map.") == std::string::npos)
        continue;
      CHECK((t.src == "go" || t.dst == "go"));  // relayed through the GO
      const auto bar = t.channel.find('|');
      for (const auto& w : {t.channel.substr(0, bar), t.channel.substr(bar + 1)}) out[w].insert(t.channel);
    }
    return out;
  };
  const auto bodp = channels_per_worker(modnn_plan(f.ctx(), forced(4)).plan);
  CHECK(bodp.at("w1") == std::set<std::string>{"w1|w2"});
  CHECK(bodp.at("w2") == std::set<std::string>{"w1|w2", "w2|w3"});
  CHECK(bodp.at("w4").size() == 1);
  const auto grid = channels_per_worker(modnn_plan(f.ctx(), forced(4, ConvSplit::Grid2d)).plan);
  for (const auto* w : {"w1", "w2", "w3", "w4"}) CHECK(grid.at(w).size() == 3);
}

TEST_CASE("modnn plan: the sweet spot is the worker count of least estimated time", "[modnn][plan]") {
  const Fixture f;
  const auto r = modnn_plan(f.ctx(), ModnnOptions{});
  REQUIRE(r.estimates_s.size() == 4);
  const auto best = std::min_element(r.estimates_s.begin(), r.estimates_s.end()) - r.estimates_s.begin();
  CHECK(r.workers == best + 1);
  CHECK(r.estimated_s == r.estimates_s[static_cast<std::size_t>(best)]);
}

TEST_CASE(
    "modnn plan: a flatten before the first fc (as PyTorch models have) opens that fc's stage and "
    "changes nothing",
    "[modnn][plan]") {
  const Fixture f;
  Json j = graph_to_json(f.graph);
  auto& layers = j["layers"];
  for (auto it = layers.begin(); it != layers.end(); ++it)
    if ((*it)["name"] == "fc6") {
      (*it)["inputs"] = Json::array({"flat"});
      layers.insert(it, Json{{"name", "flat"}, {"op", "flatten"}, {"inputs", Json::array({"pool5"})}});
      break;
    }
  const Graph flat = graph_from_json(j);
  REQUIRE(flat.size() == f.graph.size() + 1);
  const CostModel cost{flat, estimate_host_profile(flat, HostSpeed::nominal())};
  const auto with = modnn_plan({flat, f.platform, cost, "go"}, forced(4));
  const auto without = modnn_plan(f.ctx(), forced(4));
  CHECK(with.estimated_s == Approx(without.estimated_s).epsilon(1e-12));
  CHECK(bytes_labelled(with.plan, "fc6", "") == bytes_labelled(without.plan, "fc6", ""));
  CHECK(bytes_labelled(with.plan, "fc6", "") > 0);
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
