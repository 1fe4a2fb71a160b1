// The local and remote baselines on a two-device platform built in code.
#include <catch2/catch.hpp>

#include "partitioners/baseline/baseline.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

Device device(const std::string& name, DeviceKind kind, double scale) {
  Device d;
  d.name = name;
  d.calibration.edit().name = name;
  d.calibration.edit().kind = kind;
  for (auto c : all_op_classes()) d.calibration.edit().op_scale[std::string(op_class_name(c))] = scale;
  return d;
}

Platform two_devices() {
  Platform p;
  p.name = "pair";
  p.devices = {device("phone", DeviceKind::PhoneCpu, 10.0), device("gpu", DeviceKind::GpuServer, 0.1)};
  Network wifi;
  wifi.name = "wifi";
  wifi.kind = NetworkKind::Wifi;
  wifi.members = {"phone", "gpu"};
  wifi.link.rate_bps = 8e6;
  p.networks = {wifi};
  return p;
}

Graph tiny() {
  GraphBuilder b("tiny");
  auto x = b.input("data", {3, 16, 16});  // 3*16*16*4 = 3,072 bytes
  x = b.conv(x, "conv", 8, 3, 1, 1);
  b.fc(x, "fc", 10);  // 40 bytes out
  return b.build();
}

Plan plan_of(const char* name, const Json& params, const Graph& g, const Platform& p) {
  PartitionerRegistry r("partitioner");
  register_baseline_partitioners(r);
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  return r.create(name, params)->partition(PartitionContext{g, p, cost, "phone"});
}

}  // namespace

TEST_CASE("local runs the whole model as one task on the source") {
  const Graph g = tiny();
  const Platform p = two_devices();
  const CostModel cost(g, estimate_host_profile(g, HostSpeed::nominal()));
  const Plan plan = plan_of("local", Json::object(), g, p);
  REQUIRE(plan.tasks.size() == 1);
  CHECK(plan.tasks[0].device == "phone");
  // every class scaled by 10: device time = 10 x the host estimate of all layers
  CHECK(plan.tasks[0].duration_s == Approx(10.0 * cost.profile().range_sum_s(0, g.size() - 1)));
}

TEST_CASE("remote uploads the input, computes on the server and downloads the output") {
  const Graph g = tiny();
  const Plan plan = plan_of("remote", Json::object(), g, two_devices());
  REQUIRE(plan.tasks.size() == 3);
  CHECK(plan.tasks[0].kind == TaskKind::Transfer);
  CHECK(plan.tasks[0].bytes == 3072);
  CHECK(plan.tasks[1].device == "gpu");  // the first server-kind device
  CHECK(plan.tasks[1].deps == std::vector<std::string>{"upload"});
  CHECK(plan.tasks[2].dst == "phone");
  CHECK(plan.tasks[2].bytes == 40);
}

TEST_CASE("an unknown device is named with the platform's devices") {
  CHECK_THROWS_WITH(
      plan_of("local", Json{{"device", "pixel"}}, tiny(), two_devices()),
      Contains("partitioner.device") && Contains("unknown device 'pixel'") && Contains("phone, gpu"));
}

TEST_CASE("an unknown partitioner parameter is rejected") {
  CHECK_THROWS_WITH(plan_of("remote", Json{{"sever", "gpu"}}, tiny(), two_devices()),
                    Contains("partitioner.sever"));
}

TEST_CASE("a network that does not join the two devices is rejected") {
  Platform p = two_devices();
  p.networks[0].members = {"phone"};
  CHECK_THROWS_WITH(plan_of("remote", Json{{"server", "gpu"}}, tiny(), p), Contains("no network joins"));
}
