// Temperature scaling of a binary confidence (schedulers/cbo/temperature_scaling.hpp).
#include "schedulers/cbo/temperature_scaling.hpp"

#include <cmath>
#include <random>

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// An overconfident model: it reports s = sigmoid(z), z ~ U(-5, 5), but is right with probability
// sigmoid(z / true_t). Uniforms come from the top 53 bits of mt19937_64, the same everywhere.
cbo::ScoredFrames overconfident(std::size_t n, double true_t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  cbo::ScoredFrames out;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = -5 + 10 * uniform();
    out.confidence.push_back(sigmoid(z));
    out.correct.push_back(uniform() < sigmoid(z / true_t) ? 1 : 0);
  }
  return out;
}

}  // namespace

TEST_CASE("temperature scaling lowers the NLL of an overconfident set and finds its temperature") {
  const auto train = overconfident(4000, 2.5, 11), held_out = overconfident(4000, 2.5, 12);
  const auto fit = cbo::fit_temperature(train);
  // The generating temperature, within sampling error (the MLE's s.d. here is about 0.1).
  CHECK(fit.temperature > 2.1);
  CHECK(fit.temperature < 2.9);
  CHECK(cbo::temperature_nll(train, fit.temperature) < cbo::temperature_nll(train, 1.0));
  CHECK(cbo::temperature_nll(held_out, fit.temperature) < cbo::temperature_nll(held_out, 1.0));
  // The fit is a minimum: the NLL rises a little either side of it.
  const double at = cbo::temperature_nll(train, fit.temperature);
  CHECK(cbo::temperature_nll(train, fit.temperature * 1.01) > at);
  CHECK(cbo::temperature_nll(train, fit.temperature / 1.01) > at);
}

TEST_CASE("temperature scaling of a calibrated set stays near 1 and keeps the ranking") {
  const auto fit = cbo::fit_temperature(overconfident(4000, 1.0, 5));
  CHECK(fit.temperature > 0.85);
  CHECK(fit.temperature < 1.15);
  CHECK(cbo::temperature_apply(fit, 0.9) > cbo::temperature_apply(fit, 0.6));
  CHECK_THAT(cbo::temperature_apply(fit, 0.5), WithinAbs(0.5, 1e-12));  // logit 0 stays 0
}

TEST_CASE("temperature scaling of uninformative scores: every score 0.5 gives T = 1") {
  const auto fit = cbo::fit_temperature({{0.5, 0.5, 0.5}, {1, 0, 1}});
  CHECK(fit.temperature == 1.0);
}
