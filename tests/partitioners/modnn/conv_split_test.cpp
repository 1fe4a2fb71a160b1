// Stage cutting and the BODP / 2-D grid split of whole conv stages (VGG-16 and small models).
#include "partitioners/modnn/conv_split.hpp"

#include <catch2/catch.hpp>

#include "partitioners/modnn/data_flow.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

TEST_CASE("modnn stages: VGG-16 is 13 conv stages then fc6, fc7, fc8", "[modnn][stages]") {
  const auto stages = model_stages(build_zoo_model("vgg16"));
  REQUIRE(stages.size() == 16);
  CHECK(stages[0].name == "conv1_1");
  CHECK(stages[1].name == "conv1_2");
  CHECK(stages[12].name == "conv5_3");
  CHECK(stages[13].kind == StageKind::Fc);
  CHECK(stages[15].name == "fc8");
  // conv1_2's stage runs conv1_2, relu1_2 and pool1 (positions 3..5 after data, conv1_1, relu1_1).
  CHECK(stages[1].first == 3);
  CHECK(stages[1].last == 5);
}

TEST_CASE("modnn stages: a residual add is rejected naming the layer", "[modnn][stages]") {
  GraphBuilder b("res");
  auto x = b.input("data", {3, 8, 8});
  auto y = b.conv(x, "conv", 3, 3, 1, 1);
  b.add_op({x, y}, "sum");
  CHECK_THROWS_WITH(model_stages(b.build()), Catch::Matchers::Contains("'data'"));
}

TEST_CASE("modnn split: BODP cuts VGG-16's conv1_2 stage into pool1 stripes with conv halos",
          "[modnn][bodp]") {
  const Graph g = build_zoo_model("vgg16");
  const auto nodes = split_conv_stage(g, model_stages(g)[1], ConvSplit::Bodp, {1, 1, 1, 1});
  REQUIRE(nodes.size() == 4);
  // pool1 (112 rows) in 4 stripes of 28; pool 2x2/2 reads conv rows [56, 112) for stripe 1;
  // conv 3x3 p1 reads input rows [55, 113) (one halo row each side).
  CHECK(nodes[1].outputs.back() == Region{{28, 56}, {0, 112}});
  CHECK(nodes[1].outputs.front() == Region{{56, 112}, {0, 224}});
  CHECK(nodes[1].input == Region{{55, 113}, {0, 224}});
  CHECK(nodes[0].input == Region{{0, 57}, {0, 224}});  // the top edge reads padding, not a halo
}

TEST_CASE("modnn split: the 2-D grid gives 4 workers 2 x 2 tiles", "[modnn][grid2d]") {
  const Graph g = build_zoo_model("vgg16");
  const auto nodes = split_conv_stage(g, model_stages(g)[1], ConvSplit::Grid2d, {1, 1, 1, 1});
  REQUIRE(nodes.size() == 4);
  CHECK(nodes[3].outputs.back() == Region{{56, 112}, {56, 112}});
  CHECK(nodes[3].input == Region{{111, 224}, {111, 224}});
}

TEST_CASE("modnn data flow: halos go worker to GO to worker, one reduce per element", "[modnn][flow]") {
  // 1 channel, 4 rows of 1: worker 0 holds rows 0-1, worker 1 rows 2-3; both need rows 1-2.
  ElementMasks held(3, 4), need(3, 4);
  held.set_region(0, {{0, 2}, {0, 1}}, {1, 4, 1});
  held.set_region(1, {{2, 4}, {0, 1}}, {1, 4, 1});
  need.set_region(0, {{1, 3}, {0, 1}}, {1, 4, 1});
  need.set_region(1, {{1, 3}, {0, 1}}, {1, 4, 1});
  const auto x = exchange(held, need);
  // Row 1 from worker 0 for worker 1, row 2 from worker 1 for worker 0; none for the GO (index 2).
  using Counts = std::vector<std::vector<std::int64_t>>;
  CHECK(x.reduce == Counts{{0, 1, 0}, {1, 0, 0}});
  CHECK(x.map == Counts{{0, 1, 0}, {1, 0, 0}});  // worker 0 gets worker 1's row and vice versa
  CHECK(x.reduced_by(0) == 1);
  CHECK(x.mapped_to(1) == 1);
}

TEST_CASE("modnn data flow: a copy several nodes need is reduced once, for the GO or the first worker",
          "[modnn][flow]") {
  // 3 elements, 3 workers + the GO (node 3). Worker 0 holds element 0, worker 2 element 1, the GO
  // element 2. Element 0 is needed by workers 1 and 2: one copy from worker 0, for worker 1 (the
  // first). Element 1 by worker 0 and the GO: one copy from worker 2, for the GO. Element 2 by
  // worker 1: the GO holds it, so it is mapped from the GO and nothing is reduced.
  ElementMasks held(4, 3), need(4, 3);
  held.set_indices(0, {0});
  held.set_indices(2, {1});
  held.set_indices(3, {2});
  need.set_indices(1, {0, 2});
  need.set_indices(2, {0});
  need.set_indices(3, {1});
  need.set_indices(0, {1});
  const auto x = exchange(held, need);
  using Counts = std::vector<std::vector<std::int64_t>>;
  CHECK(x.reduce == Counts{{0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1}});
  // Worker 0 gets row 1 from worker 2; worker 1 row 0 from worker 0 and row 2 from the GO; worker 2
  // row 0 from worker 0.
  CHECK(x.map == Counts{{0, 0, 1, 0}, {1, 0, 0, 1}, {1, 0, 0, 0}});
}

TEST_CASE("modnn data flow: an element nobody holds is a bug, not a silent zero", "[modnn][flow]") {
  ElementMasks held(2, 2), need(2, 2);
  need.set_all(0);
  CHECK_THROWS_AS(exchange(held, need), Error);
}
