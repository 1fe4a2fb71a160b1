// The broadcast element-wise product (squeeze-and-excitation, swish) against a naive loop, and its
// backward pass against finite differences.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

// The product of rank-3 tensors by the definition of broadcasting: index 0 along a dimension of size 1.
Tensor naive_mul(const Tensor& a, const Tensor& b) {
  Shape out(3);
  for (std::size_t d = 0; d < 3; ++d) out[d] = std::max(a.shape[d], b.shape[d]);
  Tensor y(out);
  const auto at = [](const Tensor& t, std::int64_t i, std::int64_t j, std::int64_t k) {
    i = t.shape[0] == 1 ? 0 : i;
    j = t.shape[1] == 1 ? 0 : j;
    k = t.shape[2] == 1 ? 0 : k;
    return t.data[static_cast<std::size_t>((i * t.shape[1] + j) * t.shape[2] + k)];
  };
  for (std::int64_t i = 0; i < out[0]; ++i)
    for (std::int64_t j = 0; j < out[1]; ++j)
      for (std::int64_t k = 0; k < out[2]; ++k)
        y.data[static_cast<std::size_t>((i * out[1] + j) * out[2] + k)] = at(a, i, j, k) * at(b, i, j, k);
  return y;
}

}  // namespace

TEST_CASE("mul of a [C,1,1] scale and a [C,H,W] map scales each channel", "[kernels][mul]") {
  const Tensor s = random_normal({3, 1, 1}, 800), x = random_normal({3, 4, 5}, 801);
  CHECK(mul(s, x) == naive_mul(s, x));
  CHECK(mul(x, s) == naive_mul(s, x));
}

TEST_CASE("mul broadcasts every dimension of size 1, in either input", "[kernels][mul]") {
  const Tensor a = random_normal({2, 1, 4}, 802), b = random_normal({1, 3, 4}, 803);
  CHECK(mul(a, b).shape == Shape{2, 3, 4});
  CHECK(mul(a, b) == naive_mul(a, b));
}

TEST_CASE("mul of shapes that do not broadcast throws", "[kernels][mul]") {
  CHECK_THROWS_AS(mul(Tensor({3, 4}), Tensor({2, 4})), Error);
  CHECK_THROWS_AS(mul(Tensor({3, 4}), Tensor({3, 4, 1})), Error);
}

TEST_CASE("mul_backward matches finite differences for both inputs", "[kernels][mul][backward]") {
  const Tensor s = random_normal({3, 1, 1}, 804), x = random_normal({3, 4, 5}, 805),
               r = random_normal({3, 4, 5}, 806);
  const auto [ds, dx] = mul_backward(s, x, r);
  test::check_gradient(
      ds, [&](const Tensor& v) { return test::projection(mul(v, x), r); }, s);
  test::check_gradient(
      dx, [&](const Tensor& v) { return test::projection(mul(s, v), r); }, x);
}
