// The SSI profile: which layers SSI replaces, its seeded masks, the rows it times and its CSV.
#include <catch2/catch.hpp>

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/ssi_profile.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

// conv1 3x3 (8 -> 8x12x12), conv2 3x3/2 (8x6x6), relu, conv3 1x1 (4x6x6).
Graph three_groups() {
  GraphBuilder b("three_groups");
  auto x = b.conv(b.input("data", {3, 12, 12}), "conv1", 8, 3, 1, 1);
  x = b.relu(b.conv(x, "conv2", 8, 3, 2, 1), "relu2");
  b.conv(x, "conv3", 4, 1);
  return b.build();
}

}  // namespace

TEST_CASE("SSI replaces flownet_dff's conv layers from conv3 on, refinement and heads included", "[ssi]") {
  // Encoder conv3 ... conv6_1 (8), flow predictions 6 ... 3 (4), predict_flow and scale_map (2): 14;
  // conv1, conv2 and the transposed convs stay dense.
  const Graph g = build_zoo_model("flownet_dff");
  const auto positions = ssi_layer_positions(g, 3);
  REQUIRE(positions.size() == 14);
  CHECK(g.layer(positions.front()).name == "conv3");
  CHECK(g.layer(positions.back()).name == "scale_map");
  for (auto i : positions) CHECK(g.layer(i).op == OpKind::Conv2d);
}

TEST_CASE("SSI from a group the model does not have names the missing layer", "[ssi]") {
  CHECK_THROWS_WITH(ssi_layer_positions(three_groups(), 7), Contains("has no layer 'conv7'"));
}

TEST_CASE("random_mask sets exactly round(density x positions), the same for the same seed", "[ssi]") {
  // 40 x 64 = 2560 positions; density 0.1 -> 256 active, 0.333 -> round(852.48) = 852.
  const auto a = random_mask(40, 64, 0.1, 5);
  CHECK(a.density() == Approx(256.0 / 2560.0));
  CHECK(random_mask(40, 64, 0.333, 5).density() == Approx(852.0 / 2560.0));
  CHECK(random_mask(40, 64, 0.1, 5).active == a.active);
  CHECK(random_mask(40, 64, 0.1, 6).active != a.active);
  CHECK_THROWS_AS(random_mask(4, 4, 1.5, 1), Error);
}

TEST_CASE("profile_ssi gives one row per density with the SSI layers' times", "[ssi]") {
  SsiProfileOptions o;
  o.from_group = 2;  // conv2 and conv3
  o.densities = {0.5, 1.0};
  o.repeats = 1;
  const auto rows = profile_ssi(three_groups(), o);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].density == 0.5);
  CHECK(rows[1].density == 1.0);
  for (const auto& r : rows) {
    CHECK(r.dense_layer_ms.size() == 2);
    CHECK(r.ssi_layer_ms.size() == 2);
    CHECK(r.dense_layers_ms > 0.0);
    CHECK(r.dense_ms >= r.dense_layers_ms);  // the pass includes conv1 and the relu
    CHECK(r.time_ratio() == Approx(r.ssi_ms / r.dense_ms));
  }
}

TEST_CASE("profile_ssi rejects a density of 0 or above 1 by its index", "[ssi]") {
  SsiProfileOptions o;
  o.densities = {0.5, 0.0};
  try {
    profile_ssi(three_groups(), o);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.path() == "densities[1]");
    CHECK_THAT(e.message(), Contains("expected a density in (0, 1], got 0"));
  }
}

TEST_CASE("the SSI profile CSV has the four columns, ratio = ssi_ms / dense_ms", "[ssi]") {
  // 100 ms dense, 25 ms SSI: ratio 0.25.
  std::ostringstream out;
  write_ssi_profile_csv({{0.2, 100.0, 25.0, 40.0, 10.0, {}, {}}}, out);
  CHECK(out.str() == "density,dense_ms,ssi_ms,time_ratio\n0.2,100.000,25.000,0.2500\n");
}
