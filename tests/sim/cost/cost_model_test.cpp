// Cost model: transfer time L + 8S/R, JointDNN eq. 21 radio power and energy, range time as the
// sum of scaled layer times (or a grouped timing), busy energy, MoDNN's SPT/GET regression.
#include <catch2/catch.hpp>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;

namespace {

// data -> conv -> relu -> fc: four layers, one per position.
Graph tiny() {
  GraphBuilder b("tiny");
  auto x = b.input("data", {3, 8, 8});
  x = b.conv(x, "conv", 4, 3);
  x = b.relu(x, "relu");
  b.fc(x, "fc", 10);
  return b.build();
}

// The hand-made host times below are used as given (not normalised to the estimate basis).
constexpr auto kAsGiven = MeasuredProfile::AsMeasured;

HostProfile tiny_profile() {
  HostProfile p;
  p.model = "tiny";
  p.basis = "profile";
  for (double s : {0.0, 0.010, 0.001, 0.004}) p.layers.push_back({s, 0.0, 5});
  return p;
}

DeviceCalibration device() {
  DeviceCalibration d;
  d.name = "dev";
  for (const char* c :
       {"conv", "depthwise", "deconv", "fc", "sparse_fc", "pool", "elementwise", "norm", "lstm", "other"})
    d.op_scale[c] = 1.0;
  d.op_scale["conv"] = 10.0;
  d.op_scale["elementwise"] = 2.0;
  d.op_scale["fc"] = 5.0;
  d.power = {0.5, 3.0};
  return d;
}

// A stand-in for a measured profile of `g` on a host `slowdown` times slower than the nominal
// one, with a per-layer wobble of +-40% (a fixed pattern), so that it has its own shape.
HostProfile fake_measured(const Graph& g, double slowdown, const std::string& cpu) {
  HostProfile p = estimate_host_profile(g, HostSpeed::nominal());
  p.basis = "profile";
  p.host_cpu = cpu;
  for (std::size_t i = 0; i < p.layers.size(); ++i) p.layers[i].median_s *= slowdown * (0.6 + 0.1 * (i % 9));
  return p;
}

RadioPowerModel wifi() {
  // JointDNN Table 3, Wi-Fi: alpha_u 283.17, alpha_d 137.01 mW/Mbps, beta 132.86 mW.
  return {283.17, 132.86, 137.01, 132.86};
}

}  // namespace

TEST_CASE("transfer time is latency plus size over rate") {
  // 1e6 bytes = 8e6 bits at 8 Mbps = 1 s, plus 50 ms latency.
  CHECK(transfer_time_s(1e6, 8e6, 0.05) == Approx(1.05));
  CHECK(transfer_time_s(0, 8e6, 0.0547) == Approx(0.0547));
  CHECK_THROWS_AS(transfer_time_s(1e6, 0.0), Error);
  CHECK_THROWS_AS(transfer_time_s(-1, 1e6), Error);
}

TEST_CASE("radio power follows JointDNN eq. 21") {
  // Uplink at the Table 3 Wi-Fi upload speed 18.88 Mbps: 283.17 * 18.88 + 132.86 = 5479.1096 mW.
  CHECK(radio_power_w(wifi(), LinkDirection::Uplink, 18.88e6) == Approx(5.4791096));
  // Downlink at 54.97 Mbps: 137.01 * 54.97 + 132.86 = 7664.2997 mW.
  CHECK(radio_power_w(wifi(), LinkDirection::Downlink, 54.97e6) == Approx(7.6642997));
  // At zero throughput only beta remains.
  CHECK(radio_power_w(wifi(), LinkDirection::Uplink, 0.0) == Approx(0.13286));
}

TEST_CASE("radio energy is eq. 21 power times the time on the air") {
  // 1e6 bytes up at 18.88 Mbps: 8e6 / 18.88e6 = 0.423729 s; 5.4791096 W * 0.423729 s = 2.321657 J.
  CHECK(transfer_energy_j(wifi(), LinkDirection::Uplink, 1e6, 18.88e6) == Approx(2.321657).epsilon(1e-6));
  // 3G uplink (868.98, beta 817.88) at 1.1 Mbps, 137500 bytes = 1.1e6 bits -> 1 s:
  // (868.98 * 1.1 + 817.88) mW * 1 s = 1.773758 J.
  const RadioPowerModel g3{868.98, 817.88, 122.12, 817.88};
  CHECK(transfer_energy_j(g3, LinkDirection::Uplink, 137500, 1.1e6) == Approx(1.773758));
}

TEST_CASE("a layer's device time is its host time times its class scale") {
  const Graph g = tiny();
  const CostModel cost(g, tiny_profile(), kAsGiven);
  const auto d = device();
  CHECK(cost.layer_time_s(0, d) == 0.0);
  CHECK(cost.layer_time_s(1, d) == Approx(0.010 * 10));  // conv x10
  CHECK(cost.layer_time_s(2, d) == Approx(0.001 * 2));   // relu (elementwise) x2
  CHECK(cost.layer_time_s(3, d) == Approx(0.004 * 5));   // fc x5
}

TEST_CASE("batch lanes: a batch of B runs min(B, lanes) inputs at once, dense fc layers excepted") {
  const Graph g = tiny();
  auto batched = tiny_profile();  // the same host times, read as those of a batch of 8
  batched.batch = 8;
  const CostModel one(g, tiny_profile(), kAsGiven);
  const CostModel eight(g, batched, kAsGiven);
  auto d = device();
  d.batch_lanes = 4;
  CHECK(eight.layer_time_s(1, d) == Approx(0.010 * 10 / 4));  // conv: 4 of the 8 at once
  CHECK(eight.layer_time_s(2, d) == Approx(0.001 * 2 / 4));   // relu
  CHECK(eight.layer_time_s(3, d) == Approx(0.004 * 5));       // fc: its batched time as given
  CHECK(one.layer_time_s(1, d) == Approx(0.010 * 10));        // batch 1: no lane is idle to fill
  d.batch_lanes = 32;                                         // more lanes than inputs: 8 at once
  CHECK(eight.layer_time_s(1, d) == Approx(0.010 * 10 / 8));
  CHECK(eight.range_time_s(1, 3, d) == Approx(0.010 * 10 / 8 + 0.001 * 2 / 8 + 0.004 * 5));
}

TEST_CASE("a range's time is the sum of its scaled layer times") {
  const Graph g = tiny();
  const CostModel cost(g, tiny_profile(), kAsGiven);
  const auto d = device();
  // [1, 3]: 0.1 + 0.002 + 0.02 = 0.122 s; [2, 3]: 0.022 s; whole model the same as [1, 3].
  CHECK(cost.range_time_s(1, 3, d) == Approx(0.122));
  CHECK(cost.range_time_s(2, 3, d) == Approx(0.022));
  CHECK(cost.total_time_s(d) == Approx(0.122));
  CHECK_THROWS_AS(cost.range_time_s(2, 1, d), Error);
  CHECK_THROWS_AS(cost.range_time_s(0, 4, d), Error);
}

TEST_CASE("a grouped timing replaces the sum, scaled by the weighted mean scale") {
  const Graph g = tiny();
  HostProfile p = tiny_profile();
  p.groups.push_back({1, 3, {0.012, 0.0, 5}});  // grouped host time 12 ms (sum of layers: 15 ms)
  const CostModel cost(g, p, kAsGiven);
  const auto d = device();
  // Weighted mean scale = 0.122 / 0.015 = 8.1333; 0.012 * 8.1333 = 0.0976 s.
  CHECK(cost.range_time_s(1, 3, d) == Approx(0.0976));
  CHECK(cost.range_time_s(1, 3, d, false) == Approx(0.122));
  CHECK(cost.range_time_s(2, 3, d) == Approx(0.022));  // no group for [2, 3]
}

TEST_CASE("range_times_s gives every range from one first layer, grouped timings included") {
  const Graph g = tiny();
  HostProfile p = tiny_profile();
  p.groups.push_back({1, 3, {0.012, 0.0, 5}});
  const CostModel cost(g, p, kAsGiven);
  const auto d = device();
  // From layer 1: [1, 1], [1, 2], [1, 3] (the grouped one): exactly what range_time_s gives.
  const auto row = cost.range_times_s(1, d);
  REQUIRE(row.size() == 3);
  for (std::size_t last = 1; last <= 3; ++last) CHECK(row[last - 1] == cost.range_time_s(1, last, d));
  CHECK(row[2] == Approx(0.0976));
  CHECK_THROWS_AS(cost.range_times_s(4, d), Error);
}

TEST_CASE("compute energy is busy power times time") {
  const Graph g = tiny();
  const CostModel cost(g, tiny_profile(), kAsGiven);
  // 3 W * 0.122 s = 0.366 J.
  CHECK(cost.range_energy_j(1, 3, device()) == Approx(0.366));
}

TEST_CASE("the profile must match the graph") {
  const Graph g = tiny();
  HostProfile p = tiny_profile();
  p.layers.pop_back();
  CHECK_THROWS_AS(CostModel(g, p), Error);
}

TEST_CASE("MoDNN's SPT/GET regression times fc layers by density") {
  GraphBuilder b("sparse");
  auto x = b.input("data", {100});
  x = b.fc(x, "fc", 50);
  Graph g = b.build();
  HostProfile p;
  p.layers = {{0.0, 0.0, 1}, {0.001, 0.0, 1}};
  DeviceCalibration d = device();
  d.sparse_model = SparseModel{0.158, 2e-8, 1e-9};
  {
    const CostModel cost(g, p, kAsGiven);
    // Dense (density 1 >= 0.158): GET = 1e-9 * r * c = 1e-9 * 5000 = 5e-6 s.
    CHECK(cost.layer_time_s(1, d) == Approx(5e-6));
  }
  LayerAttrs a = g.layer(1).attrs;
  a.sparsity = 0.9;
  GraphBuilder b2("sparse");
  auto y = b2.input("data", {100});
  b2.add("fc", OpKind::FullyConnected, {y}, a);
  const Graph g2 = b2.build();
  const CostModel cost2(g2, p, kAsGiven);
  // Density 0.1 < 0.158: SPT = 2e-8 * nnz = 2e-8 * 0.1 * 5000 = 1e-5 s.
  CHECK(cost2.layer_time_s(1, d) == Approx(1e-5));
}

TEST_CASE("device times from a measured profile do not depend on the host's speed") {
  // nexus5.json is fitted on the estimate basis to VGG-16 = 15809 ms (MoDNN Table 1). Measured
  // profiles of two hosts, 2x and 5x slower than the nominal one, are normalised per op class to
  // the estimate's totals, so both predict the fitted figure (scales rounded to 5 digits).
  const Graph g = build_zoo_model("vgg16");
  const DeviceCalibration nexus5 =
      load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  const CostModel a(g, fake_measured(g, 2.0, "cpu A")), b(g, fake_measured(g, 5.0, "cpu B"));
  CHECK(a.profile().basis == "normalized");
  CHECK(a.total_time_s(nexus5) == Approx(15.809).epsilon(1e-4));
  CHECK(b.total_time_s(nexus5) == Approx(a.total_time_s(nexus5)).epsilon(1e-9));
}

TEST_CASE("a device fitted on measured times of one CPU is refused with other host times") {
  const Graph g = tiny();
  DeviceCalibration d = device();
  d.file = "dev.json";
  d.fit = FitRecord{"cpu A", "profile"};
  HostProfile p = tiny_profile();
  p.host_cpu = "cpu A";
  // As measured on the same CPU: usable. Normalised to the estimate basis, or from cpu B: not.
  CHECK(CostModel(g, p, kAsGiven).layer_time_s(1, d) == Approx(0.1));
  CHECK_THROWS_WITH(CostModel(g, p).layer_time_s(1, d), Catch::Contains("dev.json: fit.host_basis"));
  p.host_cpu = "cpu B";
  CHECK_THROWS_WITH(CostModel(g, p, kAsGiven).layer_time_s(1, d), Catch::Contains("dev.json: fit.host_cpu"));
}

TEST_CASE("an estimate-fitted device is refused with times kept as measured") {
  const Graph g = build_zoo_model("lenet5");
  const DeviceCalibration nexus5 =
      load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json");
  const CostModel cost(g, fake_measured(g, 2.0, "cpu A"), MeasuredProfile::AsMeasured);
  CHECK_THROWS_WITH(cost.total_time_s(nexus5), Catch::Contains("nexus5.json: fit.host_basis"));
}
