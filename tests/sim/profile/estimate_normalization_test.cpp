// Normalising a measured profile to the estimate basis: per op class the totals become the
// estimate's, within a class the measured shape stays, groups keep their grouped/separate ratio.
#include <map>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/estimate_normalization.hpp"
#include "sim/profile/profiler.hpp"

using namespace coinfer;

namespace {

// A stand-in for a measured profile on a host 3x slower than the nominal one, with a fixed
// per-layer wobble (0.6..1.4) so that its shape differs from the estimate's.
HostProfile fake_measured(const Graph& g) {
  HostProfile p = estimate_host_profile(g, HostSpeed::nominal());
  p.basis = "profile";
  p.host_cpu = "some cpu";
  for (std::size_t i = 0; i < p.layers.size(); ++i) p.layers[i].median_s *= 3.0 * (0.6 + 0.1 * (i % 9));
  return p;
}

std::map<OpClass, double> class_totals(const Graph& g, const HostProfile& p) {
  std::map<OpClass, double> out;
  const auto& order = g.topological_order();
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    out[op_class_of(g.layer(order[pos]))] += p.layers[pos].median_s;
  return out;
}

}  // namespace

TEST_CASE("a normalised profile totals the estimate per op class") {
  const Graph g = build_zoo_model("resnet18");
  const HostProfile n = normalize_to_estimate(g, fake_measured(g));
  CHECK(n.basis == "normalized");
  CHECK(n.host_cpu == "some cpu");
  const auto want = class_totals(g, estimate_host_profile(g, HostSpeed::nominal()));
  for (const auto& [c, total] : class_totals(g, n)) {
    INFO(op_class_name(c));
    CHECK(total == Approx(want.at(c)).epsilon(1e-12));
  }
}

TEST_CASE("normalisation keeps the measured shape within an op class") {
  // Layers 1 and 2 of resnet18 are conv1 and bn1 (different classes); take two convolutions.
  const Graph g = build_zoo_model("resnet18");
  const HostProfile m = fake_measured(g), n = normalize_to_estimate(g, m);
  std::vector<std::size_t> convs;
  const auto& order = g.topological_order();
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    if (op_class_of(g.layer(order[pos])) == OpClass::Conv) convs.push_back(pos);
  REQUIRE(convs.size() >= 2);
  const auto i = convs[0], j = convs[1];
  CHECK(n.layers[i].median_s / n.layers[j].median_s == Approx(m.layers[i].median_s / m.layers[j].median_s));
}

TEST_CASE("a grouped timing keeps its grouped to separate ratio") {
  const Graph g = build_zoo_model("lenet5");
  HostProfile m = fake_measured(g);
  const double separate = m.range_sum_s(1, 4);
  m.groups.push_back({1, 4, {0.8 * separate, 0.0, 5, 0.8 * separate}});  // grouped runs 20% faster
  const HostProfile n = normalize_to_estimate(g, m);
  CHECK(n.group_or_null(1, 4)->stats.median_s == Approx(0.8 * n.range_sum_s(1, 4)));
}

TEST_CASE("a profile already on the estimate basis is left unchanged") {
  const Graph g = build_zoo_model("lenet5");
  const HostProfile e = estimate_host_profile(g, HostSpeed::nominal());
  CHECK(on_estimate_basis(e));
  CHECK(normalize_to_estimate(g, e) == e);
  const HostProfile n = normalize_to_estimate(g, fake_measured(g));
  CHECK(on_estimate_basis(n));
  CHECK(normalize_to_estimate(g, n) == n);
}

TEST_CASE("an op class measured as zero takes the estimate's layer times") {
  const Graph g = build_zoo_model("lenet5");
  HostProfile m = fake_measured(g);
  const auto& order = g.topological_order();
  std::size_t pool = order.size();
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    if (op_class_of(g.layer(order[pos])) == OpClass::Pool) m.layers[pos].median_s = 0.0, pool = pos;
  REQUIRE(pool < order.size());
  const HostProfile n = normalize_to_estimate(g, m);
  CHECK(n.layers[pool].median_s == estimate_host_profile(g, HostSpeed::nominal()).layers[pool].median_s);
}

TEST_CASE("a profile of another model is an error") {
  const Graph g = build_zoo_model("lenet5");
  CHECK_THROWS_AS(normalize_to_estimate(g, fake_measured(build_zoo_model("mlp"))), Error);
}

TEST_CASE("a real measured profile normalises to the estimate's model total") {
  const Graph g = build_zoo_model("lenet5");
  ProfileOptions o;
  o.repeats = 2;
  o.use_cache = false;
  const HostProfile n = normalize_to_estimate(g, profile_model(g, o));
  const double estimate = estimate_host_profile(g, HostSpeed::nominal()).range_sum_s(0, g.size() - 1);
  CHECK(n.range_sum_s(0, g.size() - 1) == Approx(estimate).epsilon(1e-9));
}
