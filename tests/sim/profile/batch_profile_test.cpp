// Host profiles at batch B: measured with the batched kernels and cached apart from batch 1,
// estimated with the fc roofline, and normalised with the batch-1 factors.
#include <filesystem>

#include <catch2/catch.hpp>

#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/estimate_normalization.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"
#include "tests/sim/profile/fresh_cache_dir.hpp"

using namespace coinfer;
using coinfer::test::fresh_cache_dir;

namespace {

std::size_t files_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("a profile at batch B is cached apart from batch 1") {
  const Graph g = build_zoo_model("lenet5");
  ProfileOptions o;
  o.repeats = 2;
  o.cache_dir = fresh_cache_dir("batch_cache");
  const HostProfile one = profile_model(g, o);
  CHECK(files_in(o.cache_dir) == 1);
  o.batch = 8;
  const HostProfile eight = profile_model(g, o);
  CHECK(files_in(o.cache_dir) == 2);  // its own entry, not the batch-1 one
  CHECK(one.batch == 1);
  CHECK(eight.batch == 8);
  CHECK(eight.layers != one.layers);
  CHECK(profile_model(g, o) == eight);  // served from its entry unchanged
  o.batch = 1;
  CHECK(profile_model(g, o) == one);
  // Eight inputs take longer than one (the model's total; single layers may be too short to compare).
  CHECK(eight.range_sum_s(0, g.size() - 1) > one.range_sum_s(0, g.size() - 1));
}

TEST_CASE("a batch below 1 is a profiler error") {
  const Graph g = build_zoo_model("lenet5");
  ProfileOptions o;
  o.batch = 0;
  o.use_cache = false;
  CHECK_THROWS_AS(profile_model(g, o), Error);
  CHECK_THROWS_AS(estimate_host_profile(g, HostSpeed::nominal(), 0), Error);
}

TEST_CASE("the batch-B estimate is B x batch 1 except fc on its roofline") {
  // Per layer: t(B) = work term + B x traffic / 10 GB/s + 1 us, the work term B x work / rate for
  // every class but dense fc, whose term is max(MACs / 2.5 G, B x MACs / 15 G).
  const Graph g = build_zoo_model("alexnet");
  const HostSpeed s = HostSpeed::nominal();
  const std::int64_t batch = GENERATE(2, 6, 32);
  const HostProfile one = estimate_host_profile(g, s), many = estimate_host_profile(g, s, batch);
  CHECK(many.batch == batch);
  const auto& order = g.topological_order();
  const double b = static_cast<double>(batch);
  for (std::size_t pos = 1; pos < order.size(); ++pos) {
    const Layer& l = g.layer(order[pos]);
    INFO(l.name << " batch " << batch);
    const double traffic_s = layer_traffic_bytes(g, order[pos]) / 10e9;
    if (op_class_of(l) == OpClass::Fc) {
      const double macs = static_cast<double>(l.macs);
      CHECK(many.layers[pos].median_s ==
            Approx(std::max(macs / 2.5e9, b * macs / 15e9) + b * traffic_s + 1e-6).epsilon(1e-12));
    } else {
      CHECK(many.layers[pos].median_s - 1e-6 == Approx(b * (one.layers[pos].median_s - 1e-6)).epsilon(1e-12));
    }
  }
}

TEST_CASE("a measured batch profile is normalised with the batch-1 factors") {
  // The batch-1 profile is 3x the estimate everywhere, so every factor is 1/3; the batch-4
  // profile (2x the batch-1 one) normalises to 2 x the batch-1 estimate, keeping the measured
  // batch ratio rather than the estimate's at batch 4.
  const Graph g = build_zoo_model("lenet5");
  HostProfile one = estimate_host_profile(g, HostSpeed::nominal());
  one.basis = "profile";
  one.host_cpu = "some cpu";
  for (auto& l : one.layers) l.median_s *= 3.0;
  HostProfile four = one;
  four.batch = 4;
  for (auto& l : four.layers) l.median_s *= 2.0;
  const HostProfile n = normalize_batch_to_estimate(g, four, one);
  const HostProfile e = estimate_host_profile(g, HostSpeed::nominal());
  CHECK(n.basis == "normalized");
  CHECK(n.batch == 4);
  for (std::size_t pos = 0; pos < n.layers.size(); ++pos)
    CHECK(n.layers[pos].median_s == Approx(2.0 * e.layers[pos].median_s).epsilon(1e-12));
  CHECK_THROWS_AS(normalize_batch_to_estimate(g, four, four), Error);  // the reference must be batch 1
}
