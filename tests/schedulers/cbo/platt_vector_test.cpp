// Platt calibration on the whole feature vector, N one-vs-rest logistic models
// (schedulers/cbo/platt_vector.hpp), against hand-computed optima.
#include "schedulers/cbo/platt_vector.hpp"

#include <stdexcept>

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

TEST_CASE("the calibrated confidence is the answered class's model, trained one against the rest") {
  // Two classes; feature vectors (1, 0) (answer 0) and (0, 1) (answer 1), three frames each.
  // Labels: (1, 0) -> 0, 0, 1; (0, 1) -> 1, 1, 1. Class 0 has N+ = 2, N- = 4: t+ = 3/4, t- = 1/6.
  // Its model sees group (1, 0) with targets 3/4, 3/4, 1/6 (mean 5/9) and group (0, 1) with 1/6
  // each. Two groups, a two-dimensional x and b: saturated, so p_0 = the group means. Class 1 has
  // N+ = 4, N- = 2: t+ = 5/6, t- = 1/4; group (0, 1): 5/6 each.
  cbo::ScoredFrames train;
  train.scores = {{1, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}, {0, 1}};
  train.labels = {0, 0, 1, 1, 1, 1};
  train.confidence.assign(6, 0.5);
  train.correct = {1, 1, 0, 1, 1, 1};
  const auto fit = cbo::fit_platt_vector(train);
  REQUIRE(fit.models.size() == 2);
  CHECK_THAT(cbo::platt_vector_apply(fit, {1, 0}), WithinAbs(5.0 / 9.0, 1e-8));  // model 0
  CHECK_THAT(cbo::platt_vector_apply(fit, {0, 1}), WithinAbs(5.0 / 6.0, 1e-8));  // model 1
  CHECK_THAT(cbo::logistic_apply(fit.models[0], {0, 1}), WithinAbs(1.0 / 6.0, 1e-8));
}

TEST_CASE("frames with one top score get different calibrated confidences from the runner-up") {
  // A scalar map of the top score cannot separate these; the vector can: a close runner-up
  // means the answer is wrong more often.
  cbo::ScoredFrames train;
  for (int i = 0; i < 40; ++i) {
    const bool close = i % 2 == 0;
    const bool right = close ? i % 4 == 0 : i % 10 != 1;  // close: half right; clear: 9 of 10
    train.scores.push_back({3.0, close ? 2.9 : 0.0});
    train.labels.push_back(right ? 0 : 1);
    train.confidence.push_back(0.9);
    train.correct.push_back(right ? 1 : 0);
  }
  const auto fit = cbo::fit_platt_vector(train);
  const double close = cbo::platt_vector_apply(fit, {3.0, 2.9}),
               clear = cbo::platt_vector_apply(fit, {3.0, 0.0});
  // Each group's mean smoothed target: 0.5 right among the close ones, 0.8 among the clear ones.
  CHECK(close < 0.6);
  CHECK(clear > 0.75);
}

TEST_CASE("Platt on the feature vector refuses frames without one") {
  const cbo::ScoredFrames no_vectors{{0.5, 0.6}, {1, 0}};
  CHECK_THROWS_AS(cbo::fit_platt_vector(no_vectors), std::invalid_argument);
  cbo::ScoredFrames bad_label = no_vectors;
  bad_label.scores = {{1, 0}, {0, 1}};
  bad_label.labels = {0, 2};
  CHECK_THROWS_AS(cbo::fit_platt_vector(bad_label), std::invalid_argument);
  cbo::ScoredFrames ok = bad_label;
  ok.labels = {0, 1};
  const auto fit = cbo::fit_platt_vector(ok);
  CHECK_THROWS_AS(cbo::platt_vector_apply(fit, {1, 0, 0}), std::invalid_argument);
}

TEST_CASE("Platt on the feature vector stays finite on scores near the largest doubles") {
  cbo::ScoredFrames train;
  train.scores = {{1e300, -1e300}, {-1e300, 1e300}, {1e300, 1e299}};
  train.labels = {0, 1, 1};
  train.confidence = {1, 1, 1};
  train.correct = {1, 1, 0};
  const auto fit = cbo::fit_platt_vector(train);
  for (const auto& x : train.scores) {
    const double p = cbo::platt_vector_apply(fit, x);
    CHECK(std::isfinite(p));
    CHECK(p >= 0.0);
    CHECK(p <= 1.0);
  }
}
