// Student's t against tabulated quantiles and the closed forms of df = 1 (Cauchy) and df = 2.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/metrics/student_t.hpp"

using namespace coinfer;

TEST_CASE("student t: the cdf of df 1 is the Cauchy's and of df 2 its closed form") {
  const double pi = std::acos(-1.0);
  for (const double t : {-3.0, -0.5, 0.0, 0.7, 2.0, 40.0}) {
    CHECK(student_t_cdf(t, 1) == Approx(0.5 + std::atan(t) / pi).epsilon(1e-12));
    CHECK(student_t_cdf(t, 2) == Approx(0.5 + t / (2.0 * std::sqrt(2.0 + t * t))).epsilon(1e-12));
  }
}

TEST_CASE("student t: two-sided 95% and 90% quantiles match the printed tables") {
  CHECK(student_t_quantile(0.975, 1) == Approx(12.7062047).epsilon(1e-8));
  CHECK(student_t_quantile(0.975, 2) == Approx(4.30265273).epsilon(1e-8));
  CHECK(student_t_quantile(0.975, 3) == Approx(3.18244631).epsilon(1e-8));
  CHECK(student_t_quantile(0.975, 10) == Approx(2.22813885).epsilon(1e-8));
  CHECK(student_t_quantile(0.975, 30) == Approx(2.04227246).epsilon(1e-8));
  CHECK(student_t_quantile(0.95, 1) == Approx(6.31375151).epsilon(1e-8));
  CHECK(student_t_quantile(0.95, 5) == Approx(2.01504837).epsilon(1e-8));
}

TEST_CASE("student t: large df tends to the normal, and quantiles are odd around 0.5") {
  CHECK(student_t_quantile(0.975, 1e7) == Approx(1.95996398).epsilon(1e-6));
  CHECK(student_t_quantile(0.5, 4) == 0.0);
  CHECK(student_t_quantile(0.025, 4) == Approx(-student_t_quantile(0.975, 4)).epsilon(1e-12));
  CHECK(student_t_cdf(student_t_quantile(0.99, 7), 7) == Approx(0.99).epsilon(1e-12));
}
