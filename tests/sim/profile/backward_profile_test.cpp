// Backward host times: the estimate (backward_estimate.hpp) and the measured, separately cached
// profile of `coinfer profile M --backward` (backward_profiler.hpp).
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/backward_estimate.hpp"
#include "sim/profile/backward_profiler.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

// data (3, 8, 8) -> conv 4 filters 3x3 pad 1 (4, 8, 8) -> relu.
Graph conv_relu() {
  GraphBuilder b("conv_relu");
  b.relu(b.conv(b.input("data", {3, 8, 8}), "conv", 4, 3, 1, 1), "relu");
  return b.build();
}

// data (64) -> fc 10 units pruned to sparsity 0.5 (CSR: no backward kernel).
Graph sparse_fc() {
  GraphBuilder b("sparse_fc");
  LayerAttrs sparse;
  sparse.units = 10;
  sparse.sparsity = 0.5;
  b.add("fc", OpKind::FullyConnected, {b.input("data", {64})}, sparse);
  return b.build();
}

}  // namespace

// conv: 4 x 8 x 8 outputs x 27 taps = 6,912 MACs forward; backward 2 x 6,912 at 15 GMAC/s;
// traffic = input 768 B + output 1,024 B (forward) + input gradient 768 B = 2,560 B at 10 GB/s;
// plus 1 us: 9.216e-7 + 2.56e-7 + 1e-6 = 2.1776e-6 s. relu: 256 elements at 2 G/s (1x), traffic
// 1,024 + 1,024 + 1,024 B: 1.28e-7 + 3.072e-7 + 1e-6 = 1.4352e-6 s.
TEST_CASE("the backward estimate is twice a weighted layer's work plus the input gradient's traffic") {
  const Graph g = conv_relu();
  const HostProfile b = estimate_backward_profile(g, HostSpeed::nominal());
  REQUIRE(b.layers.size() == 3);
  CHECK(b.layers[0].median_s == 0.0);
  CHECK(b.layers[1].median_s == Approx(2.1776e-6).epsilon(1e-12));
  CHECK(b.layers[2].median_s == Approx(1.4352e-6).epsilon(1e-12));
}

TEST_CASE("a forward profile carried to the backward pass keeps each layer's estimated ratio") {
  const Graph g = build_zoo_model("lenet5");
  const HostProfile fwd = estimate_host_profile(g, HostSpeed::nominal());
  const HostProfile bwd = estimate_backward_profile(g, HostSpeed::nominal());
  HostProfile doubled = fwd;
  for (auto& t : doubled.layers) t.median_s *= 2.0;
  const HostProfile carried = backward_profile_of(g, doubled);
  for (std::size_t k = 0; k < g.size(); ++k)
    CHECK(carried.layers[k].median_s == Approx(2.0 * bwd.layers[k].median_s));
}

TEST_CASE("a measured backward profile is cached apart from the forward one") {
  const Graph g = build_zoo_model("lenet5");
  ProfileOptions o;
  o.repeats = 2;
  o.cache_dir = (test::scratch_dir() / "cache").string();
  const HostProfile fwd = profile_model(g, o);
  const HostProfile bwd = profile_backward(g, o);
  REQUIRE(bwd.layers.size() == g.size());
  CHECK(bwd.basis == "profile");
  CHECK(bwd.layers[1].median_s > 0.0);  // conv1's backward ran
  CHECK(bwd.layers[1].repeats == 2);
  std::size_t forward_files = 0, backward_files = 0;
  for (const auto& e : std::filesystem::directory_iterator(o.cache_dir)) {
    const auto name = e.path().filename().string();
    forward_files += name.rfind("profile-", 0) == 0;
    backward_files += name.rfind("backward-", 0) == 0;
  }
  CHECK(forward_files == 1);
  CHECK(backward_files == 1);
  // Both come back from their own entries unchanged (a new measurement would differ).
  CHECK(profile_backward(g, o) == bwd);
  CHECK(profile_model(g, o) == fwd);
  std::filesystem::remove_all(o.cache_dir);
}

TEST_CASE("a backward profile of a model without a backward kernel names the layer") {
  ProfileOptions o;
  o.use_cache = false;
  CHECK_THROWS_WITH(profile_backward(sparse_fc(), o),
                    Contains("model 'sparse_fc': layer 'fc'") && Contains("has no backward kernel"));
}

TEST_CASE("a backward profile times transposed convolutions and upsampling layer by layer") {
  // Chair's layer kinds at toy sizes: (8, 1, 1) -> deconv 4x4 -> (6, 4, 4) -> nearest 2x -> (6, 8, 8)
  // -> bilinear 2x -> (6, 16, 16); every layer but the input gets a measured backward time.
  GraphBuilder b("deconv_up");
  auto x = b.deconv(b.input("data", {8, 1, 1}), "deconv", 6, 4);
  x = b.upsample(x, "nearest", 2);
  b.upsample(x, "bilinear", 2, "bilinear");
  ProfileOptions o;
  o.use_cache = false;
  o.repeats = 2;
  const HostProfile p = profile_backward(b.build(), o);
  REQUIRE(p.layers.size() == 4);
  for (std::size_t k = 1; k < 4; ++k) {
    CHECK(p.layers[k].repeats == 2);
    CHECK(p.layers[k].median_s > 0.0);
  }
}

TEST_CASE(
    "a forward profile carried with a measured ratio takes each layer's measured backward over forward") {
  const Graph g = build_zoo_model("lenet5");
  const HostProfile est = estimate_host_profile(g, HostSpeed::nominal());
  HostProfile fwd = est, bwd = est;
  for (std::size_t k = 0; k < g.size(); ++k) {
    fwd.layers[k].median_s = 1e-3 * static_cast<double>(k);  // 0 for the input
    bwd.layers[k].median_s = 3e-3 * static_cast<double>(k) + 1e-3;
  }
  fwd.layers[2].median_s = 0.0;  // a layer measured at 0 s keeps the estimate's ratio
  const HostProfile carried = backward_profile_of(g, est, MeasuredBackwardRatio{fwd, bwd});
  const HostProfile by_estimate = backward_profile_of(g, est);
  CHECK(carried.layers[0].median_s == 0.0);
  CHECK(carried.layers[1].median_s == Approx(est.layers[1].median_s * 4.0));
  CHECK(carried.layers[2].median_s == Approx(by_estimate.layers[2].median_s));
  CHECK(carried.layers[3].median_s == Approx(est.layers[3].median_s * 10.0 / 3.0));
}
