// The sign test against a bound: p = P(Binomial(n, 1/2) >= k), k samples beyond the bound.
#include <catch2/catch.hpp>

#include "sim/check/sign_test.hpp"

using namespace coinfer::check;

TEST_CASE("nine of nine samples above the bound give p = 1/512") {
  CHECK(sign_test_above({2, 2, 2, 2, 2, 2, 2, 2, 2}, 1.0) == Approx(1.0 / 512));
  CHECK(sign_test_below({2, 2, 2, 2, 2, 2, 2, 2, 2}, 1.0) == Approx(1.0));
}

TEST_CASE("seven of nine above is not significant at 5 percent") {
  // P(X >= 7) = (C(9,7) + C(9,8) + C(9,9)) / 512 = (36 + 9 + 1) / 512 = 0.0898.
  CHECK(sign_test_above({2, 2, 2, 2, 2, 2, 2, 0, 0}, 1.0) == Approx(46.0 / 512));
  // Eight of nine: (9 + 1) / 512 = 0.0195.
  CHECK(sign_test_above({2, 2, 2, 2, 2, 2, 2, 2, 0}, 1.0) == Approx(10.0 / 512));
}

TEST_CASE("samples equal to the bound are dropped") {
  // Two of the four samples are on the bound: 2 of 2 above, p = 1/4.
  CHECK(sign_test_above({1, 1, 2, 2}, 1.0) == Approx(0.25));
  CHECK(sign_test_above({1, 1}, 1.0) == 1.0);
}
