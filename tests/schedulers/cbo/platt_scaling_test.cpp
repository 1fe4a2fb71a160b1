// Platt scaling fitted by Newton's method with Platt's smoothed targets
// (schedulers/cbo/platt_scaling.hpp).
#include "schedulers/cbo/platt_scaling.hpp"

#include <cmath>
#include <stdexcept>

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

TEST_CASE("Platt on two score values reproduces each group's mean smoothed target") {
  // Scores 0 (right, wrong, wrong) and 1 (right, right, wrong): N+ = N- = 3, so the targets are
  // t+ = (3 + 1) / (3 + 2) = 0.8 and t- = 1 / (3 + 2) = 0.2.
  // The gradient conditions sum_i (t_i - p_i) = 0 and sum_i s_i (t_i - p_i) = 0 with s in {0, 1}
  // make p equal the mean target in each group:
  //   p(0) = (0.8 + 0.2 + 0.2) / 3 = 0.4 = 1 / (1 + e^B)      ->  B = ln 1.5
  //   p(1) = (0.8 + 0.8 + 0.2) / 3 = 0.6 = 1 / (1 + e^(A+B))  ->  A + B = ln(2/3), A = -2 ln 1.5
  const auto fit = cbo::fit_platt({{0, 0, 0, 1, 1, 1}, {1, 0, 0, 1, 1, 0}});
  CHECK_THAT(fit.b, WithinAbs(std::log(1.5), 1e-9));
  CHECK_THAT(fit.a, WithinAbs(-2 * std::log(1.5), 1e-9));
  CHECK_THAT(cbo::platt_apply(fit, 0), WithinAbs(0.4, 1e-9));
  CHECK_THAT(cbo::platt_apply(fit, 1), WithinAbs(0.6, 1e-9));
  CHECK(fit.iterations >= 1);
}

TEST_CASE("Platt on one class predicts the smoothed target, not certainty") {
  // Four right frames: t+ = (4 + 1) / (4 + 2) = 5/6 for all, so the optimum is p = 5/6 everywhere:
  // A = 0, B = ln(1/5), which is also Lin et al.'s start B = log((N- + 1) / (N+ + 1)) = log(1/5).
  const auto fit = cbo::fit_platt({{0.2, 0.4, 0.6, 0.8}, {1, 1, 1, 1}});
  CHECK_THAT(fit.a, WithinAbs(0.0, 1e-9));
  CHECK_THAT(fit.b, WithinAbs(std::log(0.2), 1e-9));
  CHECK_THAT(cbo::platt_apply(fit, 0.5), WithinAbs(5.0 / 6.0, 1e-9));
}

TEST_CASE("Platt gives A < 0 when higher scores are right more often, and stays finite when separable") {
  // Perfectly separated: without the smoothed targets (here 4/5 and 1/5) A would run to -infinity.
  // The set is symmetric about s = 0.5 with the labels flipped, so the fit is too:
  // p(s) + p(1 - s) = 1, i.e. A * 0.5 + B = 0.
  const auto fit = cbo::fit_platt({{0.1, 0.2, 0.3, 0.7, 0.8, 0.9}, {0, 0, 0, 1, 1, 1}});
  CHECK(fit.a < 0);
  CHECK(std::isfinite(fit.a));
  CHECK_THAT(fit.a * 0.5 + fit.b, WithinAbs(0.0, 1e-9));
  CHECK_THAT(cbo::platt_apply(fit, 0.9) + cbo::platt_apply(fit, 0.1), WithinAbs(1.0, 1e-9));
  // The gradient conditions at the optimum: the mean prediction equals the mean target (1/2).
  double mean = 0;
  for (const double s : {0.1, 0.2, 0.3, 0.7, 0.8, 0.9}) mean += cbo::platt_apply(fit, s) / 6;
  CHECK_THAT(mean, WithinAbs(0.5, 1e-9));
}

TEST_CASE("Platt rejects an empty training set") {
  CHECK_THROWS_AS(cbo::fit_platt({}), std::invalid_argument);
}
