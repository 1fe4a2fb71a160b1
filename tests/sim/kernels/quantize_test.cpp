// int8 round trip, 1-bit quantization with error feedback, TernGrad unbiasedness.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/quantize.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("int8 round trip error is at most half a quantization step", "[kernels][quantize]") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Tensor x = random_normal({3, 7, 5}, seed, 0.0f, 1.0f + static_cast<float>(seed));
    const Int8Tensor q = quantize_int8(x);
    // scale = max|x| / 127; round to nearest -> |x - scale q| <= scale / 2 (plus fp32 rounding)
    CHECK(max_abs_diff(dequantize(q), x) <= q.scale * 0.5f * (1.0f + 1e-5f));
    CHECK(q.size_bytes() == 105 + 4);
  }
  const Int8Tensor zero = quantize_int8(Tensor({4}));
  CHECK(dequantize(zero).data == std::vector<float>(4, 0.0f));
  CHECK_THROWS_AS(quantize_int8(Tensor({1}, std::numeric_limits<float>::quiet_NaN())), Error);
}

TEST_CASE("2- to 8-bit symmetric quantization uses 2^(b-1) - 1 levels a side", "[kernels][quantize]") {
  // x = {-1, -0.3, 0.2, 0.6}, max|x| = 1. 4 bits: L = 7, scale = 1/7; -0.3 * 7 = -2.1 -> -2,
  // 0.2 * 7 = 1.4 -> 1, 0.6 * 7 = 4.2 -> 4.
  const Tensor x({4}, {-1.0f, -0.3f, 0.2f, 0.6f});
  const Int8Tensor q4 = quantize_symmetric(x, 4);
  CHECK(q4.scale == Approx(1.0f / 7.0f));
  CHECK(q4.values == std::vector<std::int8_t>{-7, -2, 1, 4});
  // 2 bits: L = 1, ternary levels {-1, 0, 1} x 1: |x| < 0.5 rounds to 0, 0.6 to 1.
  CHECK(quantize_symmetric(x, 2).values == std::vector<std::int8_t>{-1, 0, 0, 1});
  // quantize_int8 is the 8-bit case
  CHECK(quantize_symmetric(x, 8).values == quantize_int8(x).values);
  CHECK_THROWS_AS(quantize_symmetric(x, 1), Error);
  CHECK_THROWS_AS(quantize_symmetric(x, 9), Error);
}

TEST_CASE("1-bit codes carry the sign and the per-row means", "[kernels][quantize]") {
  // Row 0: [1, 3, -2] -> positive mean 2, negative mean -2; row 1: [0, -1, -5] -> 0 (0 counts as
  // non-negative), -3.
  const Tensor x({2, 3}, std::vector<float>{1, 3, -2, 0, -1, -5});
  const OneBitTensor q = quantize_one_bit(x);
  CHECK(q.positive_level == std::vector<float>{2.0f, 0.0f});
  CHECK(q.negative_level == std::vector<float>{-2.0f, -3.0f});
  CHECK(dequantize(q).data == std::vector<float>{2, 2, -2, 0, -3, -3});
  CHECK(q.size_bytes() == 1 + 2 * 8);  // 6 bits -> 1 byte, plus 2 levels x 2 rows x 4 bytes
}

TEST_CASE("1-bit error feedback keeps the residual bounded and the decoded sum on the input sum",
          "[kernels][quantize]") {
  // eq. 3.9-3.10: sum_k decoded_k = sum_k x_k - e_K, so the running sums differ by exactly the last
  // residual; with a bounded residual the per-step average of that difference goes to 0.
  OneBitQuantizer enc;
  const Shape shape{4, 50};
  Tensor sum_in(shape), sum_out(shape);
  float worst_residual = 0.0f;
  const int steps = 2000;
  for (int k = 0; k < steps; ++k) {
    const Tensor g = random_normal(shape, 1000 + static_cast<std::uint64_t>(k), 0.1f, 1.0f);
    const Tensor d = dequantize(enc.quantize(g));
    sum_in.vector() += g.vector();
    sum_out.vector() += d.vector();
    for (float v : enc.residual().data) worst_residual = std::max(worst_residual, std::abs(v));
  }
  CHECK(worst_residual < 10.0f);  // inputs are N(0.1, 1): the residual stays a few units at most
  Tensor gap = sum_in;
  gap.vector() -= sum_out.vector();
  // the gap is the final residual (up to fp32 accumulation over 2000 steps)
  CHECK(max_abs_diff(gap, enc.residual()) < 1e-2f);
  CHECK(max_abs_diff(gap, Tensor(shape)) / steps < 0.01f);
  CHECK_THROWS_AS(enc.quantize(Tensor({3})), Error);
}

TEST_CASE("1-bit quantization without feedback is biased where feedback is not", "[kernels][quantize]") {
  // x = [1, 0.2] as one row: both non-negative -> decoded [0.6, 0.6] every time without feedback
  // (error -0.4 on element 0 forever). With feedback the residual pushes element 0 up and element 1
  // down until their signs alternate, and the average decoded value of element 0 tends to 1.
  const Tensor x({1, 2}, std::vector<float>{1.0f, 0.2f});
  OneBitQuantizer enc;
  double fb = 0.0;
  const int steps = 500;
  for (int k = 0; k < steps; ++k) fb += dequantize(enc.quantize(x)).data[0];
  CHECK(dequantize(quantize_one_bit(x)).data[0] == Approx(0.6f));
  CHECK(fb / steps == Approx(1.0).margin(0.01));
}

TEST_CASE("TernGrad is unbiased: the mean of many seeded draws approaches the input", "[kernels][quantize]") {
  const Tensor x = random_normal({200}, 91);
  Rng rng(92);
  const int draws = 4000;
  Tensor mean({200});
  TernaryTensor q;
  for (int k = 0; k < draws; ++k) {
    q = terngrad_quantize(x, rng);
    for (std::int8_t v : q.values) CHECK((v == -1 || v == 0 || v == 1));
    mean.vector() += dequantize(q).vector();
  }
  mean.vector() /= static_cast<float>(draws);
  // Each draw has variance s |x| - x^2 <= s^2/4; standard error <= s / (2 sqrt(4000)) = 0.0079 s.
  // 5 standard errors: 0.04 s.
  CHECK(max_abs_diff(mean, x) < 0.04f * q.scale);
  float m = 0.0f;
  for (float v : x.data) m = std::max(m, std::abs(v));
  CHECK(q.scale == m);
  CHECK(q.size_bytes() == 50 + 4);  // 200 x 2 bits = 50 bytes + scale
}
