// int8 round trip, 1-bit quantization with error feedback, TernGrad unbiasedness.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>

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
  const OneBitTensor q = quantize_one_bit(x, OneBitGroups::Rows);
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
  // x = [1, 0.2], a vector and so one group: both non-negative -> decoded [0.6, 0.6] every time without
  // feedback (error -0.4 on element 0 forever). With feedback the residual pushes element 0 up and element 1
  // down until their signs alternate, and the average decoded value of element 0 tends to 1.
  const Tensor x({2}, std::vector<float>{1.0f, 0.2f});
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

namespace {

// Naive reference of 1-bit quantization: the group of element (r, c) of the rows x cols view by name,
// levels as plain averages, decoded element by element.
Tensor naive_one_bit(const Tensor& x, OneBitGroups groups) {
  const std::int64_t rows = x.shape.empty() ? 1 : x.shape[0], cols = x.size() / rows;
  auto group = [&](std::int64_t r, std::int64_t c) {
    return groups == OneBitGroups::Rows ? r : groups == OneBitGroups::Columns ? c : 0;
  };
  std::map<std::int64_t, std::vector<float>> pos, neg;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const float v = x.data[static_cast<std::size_t>(r * cols + c)];
      (v >= 0.0f ? pos : neg)[group(r, c)].push_back(v);
    }
  auto mean = [](const std::vector<float>& v) {
    double s = 0.0;
    for (float f : v) s += f;
    return v.empty() ? 0.0f : static_cast<float>(s / static_cast<double>(v.size()));
  };
  Tensor out(x.shape);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto i = static_cast<std::size_t>(r * cols + c);
      out.data[i] = x.data[i] >= 0.0f ? mean(pos[group(r, c)]) : mean(neg[group(r, c)]);
    }
  return out;
}

}  // namespace

TEST_CASE("1-bit quantization per row, per column and whole equals a naive reference",
          "[kernels][quantize]") {
  for (const Shape& shape : {Shape{7}, Shape{5, 9}, Shape{4, 3, 3, 3}, Shape{1, 13}, Shape{13, 1}}) {
    for (OneBitGroups groups : {OneBitGroups::Rows, OneBitGroups::Columns, OneBitGroups::Whole}) {
      const Tensor x = random_normal(shape, 17, 0.2f, 1.0f);
      const OneBitTensor q = quantize_one_bit(x, groups);
      INFO(shape_to_string(shape) << " groups " << static_cast<int>(groups));
      CHECK(max_abs_diff(dequantize(q), naive_one_bit(x, groups)) < 1e-6f);
      // every decoded element has its input's sign class: >= 0 decodes to a level >= 0, < 0 to one < 0
      const Tensor y = dequantize(q);
      for (std::size_t i = 0; i < x.data.size(); ++i) CHECK((x.data[i] >= 0.0f) == (y.data[i] >= 0.0f));
      // the levels are group means, so the decoded tensor keeps the input's sum
      CHECK(y.vector().sum() == Approx(x.vector().sum()).margin(1e-4));
    }
  }
}

TEST_CASE("AdaLearner's 1-bit groups: per column of an fc weight, per filter of a conv, one for a bias",
          "[kernels][quantize]") {
  CHECK(one_bit_groups_for({10}) == OneBitGroups::Whole);
  CHECK(one_bit_groups_for({128, 784}) == OneBitGroups::Columns);
  CHECK(one_bit_groups_for({20, 1, 5, 5}) == OneBitGroups::Rows);
  // fc weight (2 out, 3 in): columns [1, -1], [3, 0], [-2, -5] -> levels (1, -1), (1.5, 0), (0, -3.5)
  const Tensor w({2, 3}, std::vector<float>{1, 3, -2, -1, 0, -5});
  const OneBitTensor q = quantize_one_bit(w);
  CHECK(q.groups == OneBitGroups::Columns);
  CHECK(q.positive_level == std::vector<float>{1.0f, 1.5f, 0.0f});
  CHECK(q.negative_level == std::vector<float>{-1.0f, 0.0f, -3.5f});
  CHECK(dequantize(q).data == std::vector<float>{1, 1.5f, -3.5f, -1, 1.5f, -3.5f});
  // 6 bits -> 1 byte, plus 2 levels x 3 columns x 4 bytes
  CHECK(q.size_bytes() == 1 + 3 * 8);
  // an fc weight of 128 x 784: 100,352 bits = 12,544 bytes and 784 columns x 8 bytes = 6,272
  CHECK(quantize_one_bit(Tensor({128, 784})).size_bytes() == 12544 + 6272);
}

TEST_CASE("The GO's sum of decoded 1-bit gradients equals the sum of their dequantized tensors",
          "[kernels][quantize]") {
  Tensor sum({6, 4});
  Tensor expected({6, 4});
  for (std::uint64_t k = 0; k < 3; ++k) {
    const OneBitTensor q = quantize_one_bit(random_normal({6, 4}, 40 + k));
    add_dequantized(sum, q);
    expected.vector() += dequantize(q).vector();
  }
  CHECK(max_abs_diff(sum, expected) < 1e-6f);
  Tensor wrong({4, 6});
  CHECK_THROWS_AS(add_dequantized(wrong, quantize_one_bit(Tensor({6, 4}))), Error);
}

TEST_CASE("1-bit error feedback carries the residual into the next step exactly", "[kernels][quantize]") {
  // eq. 3.9-3.10 by hand for one step after the first: corrected = x_2 + e_1, e_2 = corrected - Q^-1(...)
  OneBitQuantizer enc;
  const Tensor x1 = random_normal({3, 5}, 61), x2 = random_normal({3, 5}, 62);
  const Tensor d1 = dequantize(enc.quantize(x1));
  Tensor e1 = x1;
  e1.vector() -= d1.vector();
  CHECK(max_abs_diff(enc.residual(), e1) < 1e-6f);
  Tensor corrected = x2;
  corrected.vector() += e1.vector();
  const Tensor d2 = dequantize(enc.quantize(x2));
  CHECK(max_abs_diff(d2, dequantize(quantize_one_bit(corrected))) < 1e-6f);
  Tensor e2 = corrected;
  e2.vector() -= d2.vector();
  CHECK(max_abs_diff(enc.residual(), e2) < 1e-6f);
  enc.reset();
  CHECK(enc.residual().empty());
}
