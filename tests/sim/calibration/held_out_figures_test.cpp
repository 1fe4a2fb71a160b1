// Leave-one-figure-out: each fitted figure predicted from a fit on the others. Figures are made
// with known scales (reference = scale * host time of the figure on the nominal estimate), so the
// expected errors follow by hand whatever the host times are.
#include <catch2/catch.hpp>

#include "sim/calibration/held_out_figures.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

HostProfile nominal(const Graph& g) { return estimate_host_profile(g, HostSpeed::nominal()); }

// Host seconds of one forward pass of a zoo model on the nominal estimate (H_j).
double host_total_s(const std::string& model) {
  const Graph g = build_zoo_model(model);
  double total = 0.0;
  for (const auto& [c, s] : host_seconds_by_class(g, nominal(g), 1.0)) total += s;
  return total;
}

// A figure of `model` whose reference is `scale` times its host time, in seconds.
ReferenceFigure figure_at_scale(const std::string& model, double scale, bool fitted = true) {
  ReferenceFigure f;
  f.model = model;
  f.quantity = "latency";
  f.value = scale * host_total_s(model);
  f.unit = "s";
  f.source = "synthetic";
  f.fitted = fitted;
  return f;
}

DeviceCalibration synthetic(std::vector<ReferenceFigure> figures) {
  DeviceCalibration c;
  c.name = "synthetic";
  c.op_scale = {{"default", 1.0}};
  c.references = std::move(figures);
  return c;
}

}  // namespace

TEST_CASE("figures sharing one scale are each predicted exactly from the others") {
  // Every reference is 10 x its host time: the fit on any two gives the common scale s0 = 10 for
  // every class (log residuals all 0, the ridge keeps the rest at s0), so pred = 10 H = ref.
  const auto h = held_out_figures(
      synthetic({figure_at_scale("lenet5", 10), figure_at_scale("mlp", 10), figure_at_scale("convnet", 10)}),
      nominal);
  REQUIRE(h.figures.size() == 3);
  for (const auto& r : h.figures) CHECK(r.error_pct == Approx(0.0).margin(1e-6));
  CHECK(h.record.host_basis == "estimate");
}

TEST_CASE("two figures at different scales: each is predicted at the other's scale") {
  // Left out lenet5 (ref = 2 H): the fit on mlp alone is its single scale 3, so pred = 3 H and
  // error = (3 - 2) / 2 = +50%. Left out mlp (ref = 3 H): scale 2, error = (2 - 3) / 3 = -33.33%.
  const auto h =
      held_out_figures(synthetic({figure_at_scale("lenet5", 2), figure_at_scale("mlp", 3)}), nominal);
  REQUIRE(h.figures.size() == 2);
  CHECK(h.figures[0].figure.model == "lenet5");
  CHECK(h.figures[0].error_pct == Approx(50.0));
  CHECK(h.figures[0].predicted_s == Approx(3.0 * host_total_s("lenet5")));
  CHECK(h.figures[1].error_pct == Approx(-100.0 / 3.0));
  CHECK(h.figures[0].free_parameters == 1);
}

TEST_CASE("a check figure is neither fitted on nor left out") {
  // One fitted figure and one check: nothing to fit on once the fitted one is left out.
  const auto h =
      held_out_figures(synthetic({figure_at_scale("lenet5", 2), figure_at_scale("mlp", 3, false)}), nominal);
  CHECK(h.figures.empty());
  CHECK_THAT(h.skip_reason, Contains("1 fitted figure available") && Contains("at least 2"));
}

TEST_CASE("a figure whose model cannot be built is not used") {
  // Two fitted figures, one of an unknown model: one is left, too few to leave one out.
  auto unknown = figure_at_scale("lenet5", 2);
  unknown.model = "lenet6";
  const auto h = held_out_figures(synthetic({unknown, figure_at_scale("mlp", 3)}), nominal);
  CHECK(h.figures.empty());
  CHECK_THAT(h.skip_reason, Contains("1 fitted figure available"));
}
