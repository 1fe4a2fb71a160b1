// GELU, the exact erf form: known values, the formula against std::erf in double, and its backward
// pass against finite differences of L = sum r * gelu(x) (see gradient_check.hpp).
#include <catch2/catch.hpp>

#include <cmath>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/activation.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("gelu takes its known values", "[kernels][activation][gelu]") {
  // gelu(x) = x Phi(x): Phi(0) = 1/2 so gelu(0) = 0; Phi(1) = 0.8413447460685429 (the one-sigma CDF), so
  // gelu(1) = 0.8413...; gelu(-1) = -Phi(-1) = -(1 - Phi(1)) = -0.15865525393145707. Far out, gelu is x
  // on the right and 0 on the left.
  const Tensor y = gelu(Tensor({5}, {0.0f, 1.0f, -1.0f, 10.0f, -10.0f}));
  CHECK(y.data[0] == 0.0f);
  CHECK(y.data[1] == Approx(0.8413447460685429).epsilon(1e-6));
  CHECK(y.data[2] == Approx(-0.15865525393145707).epsilon(1e-6));
  CHECK(y.data[3] == 10.0f);
  CHECK(y.data[4] == Approx(0.0f).margin(1e-20));
}

TEST_CASE("gelu is 0.5 x (1 + erf(x / sqrt(2))) element by element", "[kernels][activation][gelu]") {
  const Tensor x = random_normal({3, 5, 7}, 920, 0.0f, 3.0f);
  const Tensor y = gelu(x);
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const double v = x.data[i];
    CHECK(y.data[i] == Approx(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)))).margin(1e-6));
  }
}

TEST_CASE("gelu_backward matches finite differences", "[kernels][activation][gelu][backward]") {
  // Inputs spread over [-4, 4] cover the dip below zero (the minimum near x = -0.75) and both tails.
  const Tensor x = random_uniform({3, 4, 5}, 921, -4.0f, 4.0f), r = random_normal({3, 4, 5}, 922);
  test::check_gradient(
      gelu_backward(x, r), [&](const Tensor& v) { return test::projection(gelu(v), r); }, x);
}

TEST_CASE("gelu_backward is Phi(x) + x phi(x) at known points", "[kernels][activation][gelu][backward]") {
  // At 0: Phi(0) = 1/2 and the x phi(x) term vanishes. At 1: Phi(1) + phi(1) = 0.8413447 + 0.2419707 =
  // 1.0833155; at -1: Phi(-1) - phi(-1) = 0.1586553 - 0.2419707 = -0.0833155 (the curve still falls).
  const Tensor dx = gelu_backward(Tensor({3}, {0.0f, 1.0f, -1.0f}), Tensor({3}, 2.0f));
  CHECK(dx.data[0] == Approx(1.0f));
  CHECK(dx.data[1] == Approx(2.0 * 1.0833154705876864).epsilon(1e-6));
  CHECK(dx.data[2] == Approx(2.0 * -0.0833154705876864).epsilon(1e-6));
}

TEST_CASE("gelu_backward rejects a gradient of another shape", "[kernels][activation][gelu][backward]") {
  CHECK_THROWS_AS(gelu_backward(Tensor({3, 4}), Tensor({4, 3})), Error);
}
