// The MACs-based host estimate: hand-computed times on the nominal host.
#include <catch2/catch.hpp>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;

TEST_CASE("the estimate is work / rate + traffic / bandwidth + overhead") {
  GraphBuilder b("t");
  auto x = b.input("data", {1, 4, 4});
  x = b.conv(x, "conv", 2, 3);  // output 2x2x2 = 8 elements, MACs 8 * 9 = 72
  b.relu(x, "relu");
  const Graph g = b.build();
  const HostSpeed s = HostSpeed::nominal();
  const HostProfile p = estimate_host_profile(g, s);
  REQUIRE(p.layers.size() == 3);
  CHECK(p.basis == "estimate");
  CHECK(p.layers[0].median_s == 0.0);  // input
  // conv: 72 / 15e9 + (64 + 32 bytes) / 10e9 + 1e-6.
  CHECK(p.layers[1].median_s == Approx(72 / 15e9 + 96 / 10e9 + 1e-6));
  // relu: 8 elements / 2e9 + (32 + 32 bytes) / 10e9 + 1e-6.
  CHECK(p.layers[2].median_s == Approx(8 / 2e9 + 64 / 10e9 + 1e-6));
}

TEST_CASE("the estimate of VGG-16 is dominated by convolutions") {
  const Graph g = build_zoo_model("vgg16");
  const HostProfile p = estimate_host_profile(g, HostSpeed::nominal());
  const double total = p.range_sum_s(0, g.size() - 1);
  // 15.35 GMAC of convolution at 15 GMAC/s ~ 1.0 s, plus fc 123.6 MMAC at 2.5 GMAC/s ~ 0.05 s.
  CHECK(total > 1.0);
  CHECK(total < 1.3);
}

TEST_CASE("a measured host speed keeps the nominal proportions") {
  const HostSpeed m = measure_host_speed();
  const HostSpeed n = HostSpeed::nominal();
  const double ratio = m.work_per_s.at(OpClass::Conv) / n.work_per_s.at(OpClass::Conv);
  CHECK(ratio > 0.0);
  CHECK(m.work_per_s.at(OpClass::Fc) / n.work_per_s.at(OpClass::Fc) == Approx(ratio));
}
