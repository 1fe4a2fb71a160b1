// Fitting a device from per-layer profiles. The synthetic profiles (synthetic_device.hpp) time
// every layer with work as (host estimate of the layer) x (a known scale of its op class), so a
// correct match and fit must give back exactly those scales, and predict every row and every
// held-out model to the 5 digits the scales are rounded to.
#include <cmath>

#include <catch2/catch.hpp>

#include "sim/calibration/profile_fit.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"
#include "tests/sim/calibration/synthetic_device.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

HostProfile nominal(const Graph& g) { return estimate_host_profile(g, HostSpeed::nominal()); }

const FitRecord kRecord{"nominal reference host", "estimate"};

// A csv profile: one row per layer with work, named after it (or "node<k>" with by_name false).
ProfiledModel csv_profile(const std::string& model, bool by_name = true) {
  ProfiledModel m{model, build_zoo_model(model), {}};
  m.profile.file = model + ".csv";
  int line = 2;
  for (const auto& t : test::synthetic_layer_times(m.graph))
    m.profile.rows.push_back({by_name ? t.name : "node" + std::to_string(line - 2), "", t.ms, line++});
  return m;
}

}  // namespace

TEST_CASE("rows named after layers are matched by name, in any order") {
  ProfiledModel m = csv_profile("lenet5");
  std::swap(m.profile.rows.front(), m.profile.rows.back());  // prob first, conv1 last
  const ModelMatch match = match_profile(m);
  CHECK(match.match_by == "name");
  REQUIRE(match.rows.size() == 12);  // lenet5: 13 layers, 12 with work
  CHECK(match.rows.front().layers == std::vector<std::string>{"prob"});
  CHECK(match.rows.back().layers == std::vector<std::string>{"conv1"});
  CHECK(match.fused.empty());
  CHECK(match.unmatched.empty());
}

TEST_CASE("rows with other names are matched in order over the layers with work") {
  const ModelMatch match = match_profile(csv_profile("lenet5", false));
  CHECK(match.match_by == "order");
  REQUIRE(match.rows.size() == 12);
  CHECK(match.rows[0].layers == std::vector<std::string>{"conv1"});  // node0: the first layer after data
  CHECK(match.rows[11].layers == std::vector<std::string>{"prob"});
}

TEST_CASE("a layer left out of a csv profile is reported as unmatched") {
  ProfiledModel m = csv_profile("lenet5");
  m.profile.rows.pop_back();  // no row for prob
  const ModelMatch match = match_profile(m);
  CHECK(match.unmatched == std::vector<std::string>{"prob"});
}

TEST_CASE("a torch op that ran a layer and its activation is reported as fused") {
  // torch ops of lenet5 without the tanh calls (as if each were fused into the op before it):
  // conv2d, avg_pool2d, conv2d, avg_pool2d, conv2d, linear, linear, softmax. Each tanh follows a
  // conv or fc whose row then covers both layers: 4 fused rows.
  ProfiledModel m{"lenet5", build_zoo_model("lenet5"), {}};
  m.profile.format = ProfileFormat::TorchTrace;
  m.profile.file = "lenet5.json";
  const std::vector<std::string> ops{"aten::conv2d", "aten::avg_pool2d", "aten::conv2d", "aten::avg_pool2d",
                                     "aten::conv2d", "aten::linear",     "aten::linear", "aten::softmax"};
  for (std::size_t k = 0; k < ops.size(); ++k)
    m.profile.rows.push_back({ops[k], ops[k], 1.0, static_cast<int>(k + 1)});
  const ModelMatch match = match_profile(m);
  CHECK(match.match_by == "order");
  REQUIRE(match.fused.size() == 4);
  CHECK_THAT(match.fused[0], Contains("covers conv1, tanh1"));
  CHECK_THAT(match.fused[3], Contains("covers fc1, tanh4"));
  CHECK(match.rows[6].layers == std::vector<std::string>{"fc2"});
  CHECK(match.unmatched.empty());
}

TEST_CASE("a tflite node with a fused relu covers the relu layer after it") {
  // mxnet_mlp's layers with work begin fc1, relu1, fc2, relu2, ...; FULLY_CONNECTED nodes with
  // fused RELU activations have no RELU node of their own.
  ProfiledModel m{"mxnet_mlp", build_zoo_model("mxnet_mlp"), {}};
  m.profile.format = ProfileFormat::TfliteCsv;
  m.profile.file = "mlp.csv";
  for (int k = 0; k < 3; ++k)
    m.profile.rows.push_back({"n" + std::to_string(k), "FULLY_CONNECTED", 0.1, k + 1});
  m.profile.rows.push_back({"n3", "SOFTMAX", 0.01, 4});
  const ModelMatch match = match_profile(m);
  REQUIRE(match.rows.size() == 4);
  CHECK(match.rows[0].layers.size() == 2);
  CHECK(match.rows[0].layers[1].starts_with("relu"));
  CHECK(match.fused.size() == 2);  // fc1 + relu, fc2 + relu; fc3 is followed by softmax
}

TEST_CASE("a profile whose rows fit no layer is an InputError naming the file and line") {
  ProfiledModel m{"mxnet_mlp", build_zoo_model("mxnet_mlp"), {}};
  m.profile.file = "phone.csv";
  m.profile.rows.push_back({"conv", "CONV_2D", 1.0, 7});  // an MLP has no convolution
  try {
    match_profile(m);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == "phone.csv");
    CHECK(e.path() == "line 7");
    CHECK_THAT(std::string(e.what()), Contains("does not fit layer"));
  }
}

TEST_CASE("more csv rows than layers with work is an InputError") {
  ProfiledModel m = csv_profile("lenet5", false);
  m.profile.rows.push_back({"extra", "", 1.0, 99});
  // the first row naming no layer is node0 (line 2); lenet5 has 12 layers with work, 13 rows
  CHECK_THROWS_WITH(match_profile(m),
                    Contains("line 2") && Contains("one row per layer with work (12, got 13)"));
}

TEST_CASE("csv rows naming no layer, fewer than the layers, are an InputError, not matched in order") {
  // rows foo and bar: not layer names, and 2 rows cannot stand for lenet5's 12 layers in order
  ProfiledModel m{"lenet5", build_zoo_model("lenet5"), {}};
  m.profile.file = "nomatch.csv";
  m.profile.rows = {{"foo", "", 1.0, 2}, {"bar", "", 2.0, 3}};
  try {
    match_profile(m);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "nomatch.csv");
    CHECK(e.path() == "line 2");
    CHECK_THAT(e.message(), Contains("row 'foo' (line 2) names no layer of model 'lenet5'") &&
                                Contains("(12, got 2)") && Contains("coinfer model show lenet5"));
  }
}

TEST_CASE("the fit recovers per-class scales from one profile and reproduces every row") {
  const ProfileFit fit = fit_profiles({csv_profile("lenet5")}, nominal, kRecord);
  // lenet5 has conv, pool, elementwise (tanh, softmax) and fc layers: each class's rows are its
  // host times x its scale, so the least-squares fit is exact; classes without rows: the common
  // scale, somewhere within the fitted ones.
  CHECK(fit.op_scale.at("conv") == Approx(20.0).epsilon(1e-4));
  CHECK(fit.op_scale.at("pool") == Approx(5.0).epsilon(1e-4));
  CHECK(fit.op_scale.at("elementwise") == Approx(8.0).epsilon(1e-4));
  CHECK(fit.op_scale.at("fc") == Approx(12.0).epsilon(1e-4));
  CHECK(fit.op_scale.size() == kOpClassCount);
  for (const auto& row : fit.models.at(0).rows) CHECK(std::fabs(row.residual_pct) < 0.1);
  for (const auto& c : fit.classes) CHECK(std::fabs(c.residual_pct) < 0.1);
  CHECK(fit.record == kRecord);
}

TEST_CASE("leave-one-model-out predicts each of three models from the other two") {
  // Same device, three models: the scales fitted on any two (conv, pool, elementwise, fc are all
  // timed by lenet5 or digits_cnn plus mxnet_mlp) predict the third to ~0.
  const std::vector<ProfiledModel> models{csv_profile("lenet5"), csv_profile("digits_cnn"),
                                          csv_profile("mxnet_mlp")};
  const auto held = fit_profiles(models, nominal, kRecord, /*held_out=*/true).held_out;
  REQUIRE(held.size() == 3);
  for (const auto& h : held) {
    INFO(h.model);
    CHECK(h.measured_s > 0.0);
    CHECK(std::fabs(h.end_to_end_error_pct) < 0.1);
    for (double e : h.layer_error_pct) CHECK(e < 0.1);
  }
}

TEST_CASE("leave-one-model-out needs two models") {
  CHECK_THROWS_WITH(fit_profiles({csv_profile("lenet5")}, nominal, kRecord, /*held_out=*/true),
                    Contains("at least 2 models"));
}
