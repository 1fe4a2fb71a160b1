// The `pipeline` partitioner (Hu & Krishnamachari sec. IV) on MobileNet-v2 (CIFAR) and four
// Raspberry Pi 3B+, with the shipped platform and calibration files and the MACs-based estimate.
#include "partitioners/pipeline/pipeline_partitioner.hpp"
#include "partitioners/pipeline/pipeline_facts.hpp"

#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;

namespace {

struct Fixture {
  Graph graph = build_zoo_model("mobilenet_v2_cifar");
  Platform platform = load_platform_file(COINFER_SOURCE_DIR "/platforms/rpi_pipeline4.yaml");
  CostModel cost{graph, estimate_host_profile(graph, HostSpeed::nominal())};
  PartitionContext context() const { return {graph, platform, cost, "d1"}; }
};

std::vector<Plan> variants(const Fixture& f, Json params) {
  PartitionerRegistry r("partitioner");
  register_pipeline_partitioners(r);
  return r.create("pipeline", params)->partition_variants(f.context());
}

Json base_params() { return {{"devices", {"d1", "d2", "d3", "d4"}}}; }

const Task& task(const Plan& p, const std::string& id) {
  return *std::find_if(p.tasks.begin(), p.tasks.end(), [&](const Task& t) { return t.id == id; });
}

std::string error_path(const Fixture& f, Json params) {
  try {
    variants(f, std::move(params));
  } catch (const InputError& e) {
    return e.path();
  }
  return "(no error)";
}

}  // namespace

/// The smallest largest-stage MACs over every 3 cuts among `cuts` (1-based positions; about 6e5
/// compositions for every gap of MobileNet-v2), with prefix sums; and that of `splits`.
struct BruteForce {
  std::vector<double> prefix;
  explicit BruteForce(const Graph& g) : prefix(g.size() + 1, 0.0) {
    const auto& order = g.topological_order();
    for (std::size_t q = 0; q < g.size(); ++q)
      prefix[q + 1] = prefix[q] + static_cast<double>(g.layer(order[q]).macs);
  }
  double worst(std::size_t a, std::size_t b, std::size_t c) const {
    const double m = prefix.back();
    return std::max({prefix[a], prefix[b] - prefix[a], prefix[c] - prefix[b], m - prefix[c]});
  }
  double best(const std::vector<std::size_t>& cuts) const {
    double out = 1e300;
    for (std::size_t i = 0; i < cuts.size(); ++i)
      for (std::size_t j = i + 1; j < cuts.size(); ++j) {
        if (prefix[cuts[j]] - prefix[cuts[i]] >= out) break;  // stage 2 only grows with j
        for (std::size_t k = j + 1; k < cuts.size(); ++k)
          out = std::min(out, worst(cuts[i], cuts[j], cuts[k]));
      }
    return out;
  }
};

TEST_CASE("pipeline: eq. 2 splits of MobileNet-v2 between layers equal brute force on its MACs",
          "[pipeline]") {
  // Four equal devices: the best split minimises the largest stage's MACs; many layers (batch
  // norm, activations, adds, the input) have 0 MACs.
  const Fixture f;
  PipelineParams p;
  p.devices = {"d1", "d2", "d3", "d4"};
  p.blocks = false;
  const auto splits = pipeline_auto_splits(f.context(), p);
  REQUIRE(splits.size() == 3);
  std::vector<std::size_t> every_gap(f.graph.size() - 1);
  std::iota(every_gap.begin(), every_gap.end(), std::size_t{1});
  const BruteForce bf(f.graph);
  CHECK(bf.worst(splits[0], splits[1], splits[2]) == Approx(bf.best(every_gap)).epsilon(1e-12));
}

TEST_CASE("pipeline: eq. 2 splits of MobileNet-v2 between blocks equal brute force on its MACs",
          "[pipeline]") {
  // Blocks: the paper's 19 layers (features.0 .. features.18) plus the input, pool, fc and softmax;
  // the input joins features.0, the pool features.18 and the softmax the fc, as they have no MACs.
  const Fixture f;
  PipelineParams p;
  p.devices = {"d1", "d2", "d3", "d4"};
  const auto units = pipeline_units(f.graph, true);
  CHECK(units.size() == 19 + 4);
  const auto splits = pipeline_auto_splits(f.context(), p);
  REQUIRE(splits.size() == 3);
  for (auto s : splits) CHECK(std::find(units.begin(), units.end(), s) != units.end());
  const BruteForce bf(f.graph);
  std::vector<std::size_t> cuts;  // the ends of features.0 .. features.17 (features.18 ends in the pool)
  for (auto u : units) {
    const auto& name = f.graph.layer(f.graph.topological_order()[u - 1]).name;
    if (name.starts_with("features.") && !name.starts_with("features.18")) cuts.push_back(u);
    if (name == "avgpool") cuts.push_back(u);  // features.18 + the pool, before the fc
  }
  CHECK(cuts.size() == 19);
  CHECK(bf.worst(splits[0], splits[1], splits[2]) == Approx(bf.best(cuts)).epsilon(1e-12));
}

TEST_CASE("pipeline: with ops time, eq. 2 balances the devices' calibrated stage times", "[pipeline]") {
  // Equal Pis: the best split minimises the largest stage's host time; the chosen split's largest
  // stage time on the device equals the brute-force minimum over every 3 block cuts (times scale
  // by the one op_scale of the Pi's calibration).
  const Fixture f;
  PipelineParams p;
  p.devices = {"d1", "d2", "d3", "d4"};
  p.ops_macs = false;
  const auto splits = pipeline_auto_splits(f.context(), p);
  REQUIRE(splits.size() == 3);
  const DeviceCalibration& pi = f.platform.devices[0].calibration;
  const std::size_t m = f.graph.size();
  auto worst = [&](std::size_t a, std::size_t b, std::size_t c) {
    return std::max({f.cost.range_time_s(0, a - 1, pi, false), f.cost.range_time_s(a, b - 1, pi, false),
                     f.cost.range_time_s(b, c - 1, pi, false), f.cost.range_time_s(c, m - 1, pi, false)});
  };
  auto units = pipeline_units(f.graph, true);
  units.pop_back();  // the last unit ends the model
  double best = 1e300;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j)
      for (std::size_t k = j + 1; k < units.size(); ++k)
        best = std::min(best, worst(units[i], units[j], units[k]));
  CHECK(worst(splits[0], splits[1], splits[2]) == Approx(best).epsilon(1e-9));
}

TEST_CASE("pipeline: one compute stage per device, one transfer per split point", "[pipeline]") {
  const Fixture f;
  const auto plans = variants(f, base_params());
  REQUIRE(plans.size() == 1);
  const Plan& plan = plans.front();
  REQUIRE(plan.tasks.size() == 7);  // stage1 link1 stage2 link2 stage3 link3 stage4
  double total_s = 0.0;
  for (int d = 1; d <= 4; ++d) total_s += task(plan, "stage" + std::to_string(d)).duration_s;
  // The stages partition the model: their times add up to the whole model on one Pi.
  CHECK(total_s == Approx(f.cost.total_time_s(f.platform.devices[0].calibration)).epsilon(1e-9));
  // Split 1's transfer carries the split layer's output (a block boundary: nothing else crosses).
  const auto cut = static_cast<std::size_t>(facts_of<PipelineFacts>(plan).splits.at(0).last_layer);
  const auto& split_layer = f.graph.layer(f.graph.topological_order()[cut - 1]);
  CHECK(task(plan, "link1").bytes == static_cast<double>(split_layer.output_bytes));
  CHECK(task(plan, "link1").label == split_layer.name);
  CHECK(facts_of<PipelineFacts>(plan).gamma() == 1.0);
}

TEST_CASE("pipeline: a split inside a residual block also sends the shortcut", "[pipeline]") {
  // Cut right after features.3.dw (inside block 3): its output and block 3's input (read by the
  // residual add features.3.add after the cut) both cross, (144, 32, 32) + (24, 32, 32) floats.
  const Fixture f;
  const auto& order = f.graph.topological_order();
  const auto dw = static_cast<std::size_t>(
      std::find(order.begin(), order.end(), static_cast<std::size_t>(f.graph.index_of("features.3.dw"))) -
      order.begin());
  Json params = {{"devices", {"d1", "d2"}}, {"splits", {dw + 1}}};
  const Plan plan = variants(f, params).front();
  CHECK(task(plan, "link1").bytes == 4.0 * (144 + 24) * 32 * 32);
}

TEST_CASE("pipeline: compressor variants carry gamma, accuracy and 1/gamma of the bytes", "[pipeline]") {
  const Fixture f;
  Json params = base_params();
  params["compressors"] = {2, 4, 8};
  params["accuracy"] = {{"1", 0.902}, {"2", 0.892}, {"4", 0.885}, {"8", 0.877}};
  params["default_gamma"] = 4;
  const auto plans = variants(f, params);
  REQUIRE(plans.size() == 4);
  CHECK(facts_of<PipelineFacts>(plans[0]).gamma() == 4.0);  // variant 0: the default
  CHECK(facts_of<PipelineFacts>(plans[1]).gamma() == 1.0);
  CHECK(facts_of<PipelineFacts>(plans[2]).gamma() == 2.0);
  CHECK(facts_of<PipelineFacts>(plans[3]).gamma() == 8.0);
  const double d = task(plans[1], "link1").bytes;
  for (const auto& plan : plans) {
    const double gamma = facts_of<PipelineFacts>(plan).gamma();
    INFO("gamma " << gamma);
    CHECK(task(plan, "link1").bytes * gamma == d);
    CHECK(task(plan, "link2").bytes == task(plans[1], "link2").bytes);  // other splits unchanged
    CHECK(facts_of<PipelineFacts>(plan).data_bytes == d);
    // The encoder runs on device 1, the decoder on device 2: both stages get longer.
    if (gamma > 1) {
      CHECK(task(plan, "stage1").duration_s > task(plans[1], "stage1").duration_s);
      CHECK(task(plan, "stage2").duration_s > task(plans[1], "stage2").duration_s);
      CHECK(task(plan, "stage3").duration_s == task(plans[1], "stage3").duration_s);
      CHECK(facts_of<PipelineFacts>(plan).overhead > 0.0);
      CHECK(facts_of<PipelineFacts>(plan).overhead < 0.2);
    }
  }
  CHECK(facts_of<PipelineFacts>(plans[0]).nu == 0.885);
  CHECK(facts_of<PipelineFacts>(plans[3]).nu == 0.877);
}

TEST_CASE("pipeline: bad parameters name their key path", "[pipeline]") {
  const Fixture f;
  auto with = [](const char* key, Json value) {
    Json p = base_params();
    p[key] = std::move(value);
    return p;
  };
  CHECK(error_path(f, with("devices", {"d1", "nope"})) == "partitioner.devices[1]");
  CHECK(error_path(f, with("devices", Json::array())) == "partitioner.devices");
  CHECK(error_path(f, with("splits", {3, 2, 9})) == "partitioner.splits[1]");
  CHECK(error_path(f, with("splits", {1, 2})) == "partitioner.splits");
  CHECK(error_path(f, with("splits", {1, 2, 100000})) == "partitioner.splits[2]");
  CHECK(error_path(f, with("compressors", {3})) == "partitioner.compressors[0]");
  Json acc = with("compressors", {2});
  acc["accuracy"] = {{"1", 0.9}, {"2", 1.5}};
  CHECK(error_path(f, acc) == "partitioner.accuracy.2");
  acc["accuracy"] = {{"1", 0.9}};
  CHECK(error_path(f, acc) == "partitioner.accuracy");
  CHECK(error_path(f, with("default_gamma", 8)) == "partitioner.default_gamma");
}

TEST_CASE("pipeline: more devices than layers is refused", "[pipeline]") {
  GraphBuilder b("two");
  auto x = b.input("data", {3, 8, 8});
  b.conv(x, "conv", 4, 3, 1, 1);
  Fixture f;
  f.graph = b.build();
  const CostModel cost(f.graph, estimate_host_profile(f.graph, HostSpeed::nominal()));
  PartitionerRegistry r("partitioner");
  register_pipeline_partitioners(r);
  CHECK_THROWS_WITH(
      r.create("pipeline", base_params())->partition_variants({f.graph, f.platform, cost, "d1"}),
      Catch::Contains("4 devices but the model has 1 blocks with work"));
}

TEST_CASE("pipeline: a gamma whose encoder cannot shrink the split tensor is refused", "[pipeline]") {
  // The last split of MobileNet-v2 CIFAR falls in the 4x4 part; a split after the classifier
  // input (a vector) cannot be compressed at all.
  const Fixture f;
  Json params = {{"devices", {"d1", "d2"}}, {"splits", {f.graph.size() - 1}}, {"compressors", {2}}};
  CHECK(error_path(f, params) == "partitioner.compressors");
}
