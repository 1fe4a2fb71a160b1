// The one-sided Mann-Whitney U test: exact distribution for small samples without ties, normal
// approximation with tie and continuity corrections otherwise. Every expected p-value is derived
// by hand below; each equals scipy.stats.mannwhitneyu(x, y, alternative=..., method=...).pvalue
// (scipy 1.10), which is quoted next to it.
#include <catch2/catch.hpp>

#include "sim/check/mann_whitney.hpp"

using namespace coinfer::check;

TEST_CASE("U counts the pairs in which x beats y, a tie counting one half") {
  // x = {1, 2, 2, 3}, y = {2, 3, 3, 4}: 1 beats nothing; each 2 ties the 2 (0.5 each: 1.0);
  // 3 beats 2 and ties two 3s (1 + 0.5 + 0.5 = 2). U = 0 + 1 + 2 = 3.
  CHECK(mann_whitney_greater({1, 2, 2, 3}, {2, 3, 3, 4}).u == 3.0);
}

TEST_CASE("the exact distribution of U for three against three") {
  // The 20 = C(6, 3) orderings of three x among three y have U = 0..9 with counts
  // 1, 1, 2, 3, 3, 3, 3, 2, 1, 1 (the partitions of u into at most 3 parts of size at most 3).
  const double counts[] = {1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
  double tail = 0.0;
  for (int u = 9; u >= 0; --u) {
    tail += counts[u];
    CHECK(exact_u_upper_tail(3, 3, u) == Approx(tail / 20.0));
  }
}

TEST_CASE("x = 1 3 5 against y = 2 4 6 is no evidence that x is larger") {
  // U = 0 + 1 + 2 = 3; P(U >= 3) = (20 - 1 - 1 - 2) / 20 = 0.8 (scipy 'exact': 0.8).
  const auto t = mann_whitney_greater({1, 3, 5}, {2, 4, 6});
  CHECK(t.exact);
  CHECK(t.u == 3.0);
  CHECK(t.p == Approx(0.8));
}

TEST_CASE("three values all above three others give the smallest p of three against three") {
  // U = 9, only one of the 20 orderings reaches it: p = 1/20 = 0.05 (scipy 'exact': 0.05).
  CHECK(mann_whitney_greater({4, 5, 6}, {1, 2, 3}).p == Approx(0.05));
  CHECK(mann_whitney_greater({1, 2, 3}, {4, 5, 6}).p == Approx(1.0));
}

TEST_CASE("nine against nine completely separated is highly significant") {
  // One ordering in C(18, 9) = 48620: p = 1/48620 = 2.0568e-5 (scipy 'exact': 2.0567667626491154e-05).
  const auto t = mann_whitney_greater({10, 11, 12, 13, 14, 15, 16, 17, 18}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(t.exact);
  CHECK(t.u == 81.0);
  CHECK(t.p == Approx(1.0 / 48620.0));
}

TEST_CASE("four against five interleaved sits at the middle of the exact distribution") {
  // x = {2, 4, 6, 8}, y = {1, 3, 5, 7, 9}: U = 1 + 2 + 3 + 4 = 10 = mn/2. U is symmetric about 10, so
  // P(U >= 10) = 1/2 + P(U = 10)/2. P(U = 10) = 12/126: the partitions of 10 into at most 4 parts of
  // size at most 5 are 5+5, 5+4+1, 5+3+2, 5+3+1+1, 5+2+2+1, 4+4+2, 4+4+1+1, 4+3+3, 4+3+2+1, 4+2+2+2,
  // 3+3+3+1, 3+3+2+2. p = 0.5 + 6/126 = 0.547619 (scipy 'exact': 0.5476190476190477).
  CHECK(mann_whitney_greater({2, 4, 6, 8}, {1, 3, 5, 7, 9}).p == Approx(69.0 / 126.0));
}

TEST_CASE("ties switch to the normal approximation with tie and continuity corrections") {
  // x = {1, 2, 2, 3}, y = {2, 3, 3, 4}: U = 3, E[U] = 8; tie groups 2 (three values) and 3 (three):
  // sum(t^3 - t) = 24 + 24 = 48; Var = 16/12 * (9 - 48 / 56) = 10.857143, sd = 3.295018.
  // greater: z = (3 - 8 - 0.5) / sd = -1.669186, p = 1 - Phi(z) = 0.952460 (scipy: 0.9524598065992065).
  // less (y against x): U_y = 16 - 3 = 13, z = (13 - 8 - 0.5) / sd = 1.365697, p = 0.086017
  // (scipy: 0.08601685446091145).
  const auto greater = mann_whitney_greater({1, 2, 2, 3}, {2, 3, 3, 4});
  CHECK_FALSE(greater.exact);
  CHECK(greater.p == Approx(0.9524598065992065).epsilon(1e-9));
  CHECK(mann_whitney_greater({2, 3, 3, 4}, {1, 2, 2, 3}).p == Approx(0.08601685446091145).epsilon(1e-9));
}

TEST_CASE("identical samples give no evidence at all") {
  // Every value tied: the variance vanishes; p = 1 (scipy: 1.0).
  CHECK(mann_whitney_greater({3, 3, 3}, {3, 3, 3}).p == 1.0);
}

TEST_CASE("large samples without ties use the normal approximation") {
  // 25 against 25 (50 > kExactLimit), x = y + 0.5 interleaved: U = sum over x_i = i + 0.5 of the
  // i + 1 values y_0..y_i below it = 25 * 26 / 2 = 325 = mn/2 + 12.5; Var = 625/12 * 51 = 2656.25,
  // sd = 51.5388; z = (325 - 312.5 - 0.5) / sd = 0.232834; p = 1 - Phi(z) = 0.407945
  // (scipy: 0.40794507743037356).
  std::vector<double> x, y;
  for (int i = 0; i < 25; ++i) {
    y.push_back(i);
    x.push_back(i + 0.5);
  }
  const auto t = mann_whitney_greater(x, y);
  CHECK_FALSE(t.exact);
  CHECK(t.u == 325.0);
  CHECK(t.p == Approx(0.40794507743037356).epsilon(1e-9));
}

TEST_CASE("the median of an even count is the mean of the middle two") {
  CHECK(median({3, 1, 2}) == 2.0);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  CHECK_THROWS_AS(median({}), std::invalid_argument);
}
