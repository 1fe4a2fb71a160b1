// Fitting op_scale: exact for one figure, recovers known scales from consistent figures.
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "sim/calibration/fit.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;

TEST_CASE("one figure gives one exact scale for every class") {
  // host: conv 0.06 s + fc 0.02 s = 0.08 s; reference 0.8 s -> s = 0.8 / 0.08 = 10.
  const FitResult r = fit_op_scale({{0.8, {{OpClass::Conv, 0.06}, {OpClass::Fc, 0.02}}, true}});
  for (OpClass c : all_op_classes()) CHECK(r.scale.at(c) == Approx(10.0));
  CHECK(r.predicted_s.at(0) == Approx(0.8));
  CHECK(r.residual_pct.at(0) == Approx(0.0).margin(1e-9));
  CHECK(r.free_parameters == 1);
}

TEST_CASE("the fit recovers a known common scale on random instances") {
  std::mt19937_64 rng(20240601);
  std::uniform_real_distribution<double> host(1e-4, 1.0), scale(0.01, 100.0);
  for (int trial = 0; trial < 300; ++trial) {
    const double s = scale(rng);
    std::vector<FitFigure> figures;
    const int n = 1 + trial % 4;
    for (int j = 0; j < n; ++j) {
      FitFigure f;
      f.host_s[OpClass::Conv] = host(rng);  // one class: every figure has the same composition
      f.reference_s = s * f.host_s[OpClass::Conv];
      figures.push_back(f);
    }
    const FitResult r = fit_op_scale(figures);
    INFO("trial " << trial);
    CHECK(r.scale.at(OpClass::Conv) == Approx(s).epsilon(1e-6));
    for (double res : r.residual_pct) CHECK(std::fabs(res) < 1e-4);
  }
}

TEST_CASE("the fit recovers per-class scales when the figures separate them") {
  // Three figures of different conv/fc mixes generated with conv x10 and fc x3: the per-class
  // least squares must find both (the system is consistent, so the ridge barely moves it).
  std::vector<FitFigure> figures{
      {10 * 0.9 + 3 * 0.1, {{OpClass::Conv, 0.9}, {OpClass::Fc, 0.1}}, true},
      {10 * 0.2 + 3 * 0.8, {{OpClass::Conv, 0.2}, {OpClass::Fc, 0.8}}, true},
      {10 * 0.5 + 3 * 0.5, {{OpClass::Conv, 0.5}, {OpClass::Fc, 0.5}}, true},
  };
  const FitResult r = fit_op_scale(figures, 1e-9);
  CHECK(r.scale.at(OpClass::Conv) == Approx(10.0).epsilon(1e-4));
  CHECK(r.scale.at(OpClass::Fc) == Approx(3.0).epsilon(1e-4));
  for (double res : r.residual_pct) CHECK(std::fabs(res) < 1e-3);
}

TEST_CASE("inconsistent figures of one composition split the difference in log space") {
  // Same host time 1 s, references 2 s and 8 s: log-space least squares gives sqrt(2 * 8) = 4,
  // residuals +100% and -50%.
  const FitResult r =
      fit_op_scale({{2.0, {{OpClass::Conv, 1.0}}, true}, {8.0, {{OpClass::Conv, 1.0}}, true}});
  CHECK(r.scale.at(OpClass::Conv) == Approx(4.0).epsilon(1e-6));
  CHECK(r.residual_pct.at(0) == Approx(100.0).epsilon(1e-5));
  CHECK(r.residual_pct.at(1) == Approx(-50.0).epsilon(1e-5));
}

TEST_CASE("a check figure is predicted but not fitted") {
  const FitResult r =
      fit_op_scale({{1.0, {{OpClass::Conv, 0.1}}, true}, {5.0, {{OpClass::Conv, 0.1}}, false}});
  CHECK(r.scale.at(OpClass::Conv) == Approx(10.0));
  CHECK(r.predicted_s.at(1) == Approx(1.0));
  CHECK(r.residual_pct.at(1) == Approx(-80.0));
}

TEST_CASE("a fit without a fitted figure, or without host time, is an error") {
  CHECK_THROWS_AS(fit_op_scale({{1.0, {{OpClass::Conv, 0.1}}, false}}), Error);
  CHECK_THROWS_AS(fit_op_scale({{1.0, {{OpClass::Conv, 0.0}}, true}}), Error);
}

TEST_CASE("residual is relative to the reference, in percent") {
  CHECK(residual_pct(1.05, 1.0) == Approx(5.0));
  CHECK(residual_pct(0.9, 1.0) == Approx(-10.0));
}
