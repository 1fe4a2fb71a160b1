// Device time of part of a layer: stripes and MoDNN's SpMV / GEMV rates.
#include "sim/cost/partial_cost.hpp"

#include <catch2/catch.hpp>

#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;

namespace {

struct Fixture {
  Graph graph = build_zoo_model("vgg16");
  CostModel cost{graph, estimate_host_profile(graph, HostSpeed::nominal())};
  DeviceCalibration phone;
  std::size_t fc6 = graph.topological_order().size() - 8;  // ... fc6 relu6 drop6 fc7 relu7 drop7 fc8 prob
  Fixture() {
    phone.name = "phone";
    for (auto c : all_op_classes()) phone.op_scale[std::string(op_class_name(c))] = 10.0;
    phone.sparse_model = SparseModel{0.158, 0.0, 0.0};  // MoDNN's Thld on a Nexus 5 (sec. 7.1)
  }
};

}  // namespace

TEST_CASE("partial cost: a stripe costs its share of the layer's device time", "[cost]") {
  const Fixture f;
  // A quarter of conv1_1's output rows: a quarter of its time.
  CHECK(partial_layer_time_s(f.cost, 1, f.phone, 0.25) == Approx(f.cost.layer_time_s(1, f.phone) / 4));
  CHECK_THROWS_AS(partial_layer_time_s(f.cost, 1, f.phone, 1.5), Error);
}

TEST_CASE("partial cost: SpMV per non-zero is GEMV per element over Thld", "[cost]") {
  const Fixture f;
  REQUIRE(f.graph.layer(f.graph.topological_order()[f.fc6]).name == "fc6");
  const auto r = fc_rates(f.cost, f.fc6, f.phone);
  // GEMV: fc6's dense time over 25088 x 4096 weights; SPT(Thld r c) = GET(r, c).
  CHECK(r.gemv_s_per_element == Approx(f.cost.host_time_s(f.fc6) * 10.0 / (25088.0 * 4096.0)));
  CHECK(r.spmv_s_per_nonzero == Approx(r.gemv_s_per_element / 0.158));
}

TEST_CASE("partial cost: a device without a density threshold is refused naming it", "[cost]") {
  Fixture f;
  f.phone.sparse_model.reset();
  CHECK_THROWS_WITH(fc_rates(f.cost, f.fc6, f.phone), Catch::Matchers::Contains("devices.phone.calibration"));
}
