// The logistic fit behind both Platt calibrators (schedulers/cbo/logistic_fit.hpp), against
// hand-computed optima.
#include "schedulers/cbo/logistic_fit.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "schedulers/cbo/platt_scaling.hpp"

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

TEST_CASE("a logistic fit on group indicators reproduces each group's mean target") {
  // Three groups, x = (0, 0), (1, 0), (0, 1): three parameters for three groups, so the gradient
  // conditions make p equal each group's mean target: 0.25, 0.5 and 0.75.
  const std::vector<std::vector<double>> x{{0, 0}, {0, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}};
  const std::vector<double> t{0.5, 0.0, 1.0, 0.0, 1.0, 0.5};
  const auto fit = cbo::fit_logistic(x, t, 0.0);
  CHECK_THAT(cbo::logistic_apply(fit, {0, 0}), WithinAbs(0.25, 1e-9));
  CHECK_THAT(cbo::logistic_apply(fit, {1, 0}), WithinAbs(0.5, 1e-9));
  CHECK_THAT(cbo::logistic_apply(fit, {0, 1}), WithinAbs(0.75, 1e-9));
  // p = 1 / (1 + exp(a . x + b)): b = ln 3 (p = 1/4), a_1 + b = 0, a_2 + b = -ln 3.
  CHECK_THAT(fit.b, WithinAbs(std::log(3.0), 1e-9));
  CHECK_THAT(fit.a[0], WithinAbs(-std::log(3.0), 1e-9));
  CHECK_THAT(fit.a[1], WithinAbs(-2 * std::log(3.0), 1e-9));
}

TEST_CASE("with one feature the logistic fit is Platt's fit on the top score") {
  const cbo::ScoredFrames f{{0.3, 0.9, 0.6, 0.95, 0.2, 0.7, 0.85}, {0, 1, 1, 1, 0, 0, 1}};
  const auto platt = cbo::fit_platt(f);
  const auto targets = cbo::platt_targets(f.correct);
  std::vector<std::vector<double>> x;
  for (const double s : f.confidence) x.push_back({s});
  const auto fit = cbo::fit_logistic(x, targets.t, targets.b0);
  CHECK(fit.a[0] == platt.a);
  CHECK(fit.b == platt.b);
  CHECK(fit.iterations == platt.iterations);
}

TEST_CASE("Platt's smoothed targets and start") {
  // N+ = 2, N- = 3: t+ = 3/4, t- = 1/5, b0 = ln(4/3).
  const auto t = cbo::platt_targets({1, 0, 0, 1, 0});
  CHECK(t.t == std::vector<double>{0.75, 0.2, 0.2, 0.75, 0.2});
  CHECK_THAT(t.b0, WithinAbs(std::log(4.0 / 3.0), 1e-15));
}
