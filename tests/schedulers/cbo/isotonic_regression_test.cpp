// Isotonic regression by pool adjacent violators, predicting by steps
// (schedulers/cbo/isotonic_regression.hpp).
#include "schedulers/cbo/isotonic_regression.hpp"

#include <stdexcept>

#include <catch2/catch.hpp>

namespace cbo = coinfer::cbo;
using Catch::Matchers::WithinAbs;

TEST_CASE("isotonic pools one violating pair and predicts by steps") {
  // Sorted labels 0, 1, 0, 1: the pair (1, 0) at scores 0.2, 0.3 violates, pooled to 0.5.
  // Blocks: [0.1] -> 0, [0.2, 0.3] -> 0.5, [0.4] -> 1.
  const auto fit = cbo::fit_isotonic({{0.4, 0.1, 0.3, 0.2}, {1, 0, 0, 1}});  // any input order
  REQUIRE(fit.blocks.size() == 3);
  CHECK(fit.blocks[1].lower == 0.2);
  CHECK(fit.blocks[1].upper == 0.3);
  CHECK(fit.blocks[1].count == 2);
  CHECK_THAT(fit.blocks[1].value, WithinAbs(0.5, 1e-12));
  CHECK(cbo::isotonic_apply(fit, 0.05) == 0.0);  // below the first block: its value
  CHECK(cbo::isotonic_apply(fit, 0.1) == 0.0);
  CHECK(cbo::isotonic_apply(fit, 0.15) == 0.0);  // between blocks: the left one holds
  CHECK_THAT(cbo::isotonic_apply(fit, 0.25), WithinAbs(0.5, 1e-12));
  CHECK_THAT(cbo::isotonic_apply(fit, 0.35), WithinAbs(0.5, 1e-12));
  CHECK(cbo::isotonic_apply(fit, 0.4) == 1.0);
  CHECK(cbo::isotonic_apply(fit, 1.0) == 1.0);
}

TEST_CASE("isotonic pools backwards until the sequence rises") {
  // Labels by score 1, 1, 1, 0, 0. Equal values pool too (the blocks end strictly increasing):
  // 1 | 1 -> 1 (2) | 1 -> 1 (3) | 0 -> 3/4 (4) | 0 -> 3/5 (5): one block, value 0.6.
  const auto fit = cbo::fit_isotonic({{0.1, 0.2, 0.3, 0.4, 0.5}, {1, 1, 1, 0, 0}});
  REQUIRE(fit.blocks.size() == 1);
  CHECK(fit.blocks[0].lower == 0.1);
  CHECK(fit.blocks[0].upper == 0.5);
  CHECK_THAT(fit.blocks[0].value, WithinAbs(0.6, 1e-12));
}

TEST_CASE("isotonic starts tied scores in one block") {
  // Score 0.3 three times (right, wrong, wrong): one block of value 1/3; 0.7 right: 1.
  const auto fit = cbo::fit_isotonic({{0.3, 0.7, 0.3, 0.3}, {1, 1, 0, 0}});
  REQUIRE(fit.blocks.size() == 2);
  CHECK(fit.blocks[0].count == 3);
  CHECK_THAT(cbo::isotonic_apply(fit, 0.3), WithinAbs(1.0 / 3.0, 1e-12));
  CHECK(cbo::isotonic_apply(fit, 0.7) == 1.0);
}

TEST_CASE("isotonic rejects an empty training set") {
  CHECK_THROWS_AS(cbo::fit_isotonic({}), std::invalid_argument);
}
