// Layer normalisation over the feature axis: against a naive double-precision reference, and its
// backward pass against finite differences of L = sum r * f(x) (see gradient_check.hpp).
#include <catch2/catch.hpp>

#include <cmath>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

// The textbook formula, one normalised set at a time: the elements at index(0..F-1) of a set.
template <class Index>
void reference_set(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps, std::int64_t f_count,
                   Index index, Tensor& y) {
  double mean = 0.0, var = 0.0;
  for (std::int64_t f = 0; f < f_count; ++f) mean += x.data[index(f)];
  mean /= static_cast<double>(f_count);
  for (std::int64_t f = 0; f < f_count; ++f) var += std::pow(x.data[index(f)] - mean, 2);
  var /= static_cast<double>(f_count);  // biased, as PyTorch
  for (std::int64_t f = 0; f < f_count; ++f) {
    const auto k = static_cast<std::size_t>(f);
    y.data[index(f)] =
        static_cast<float>((x.data[index(f)] - mean) / std::sqrt(var + eps) * gamma.data[k] + beta.data[k]);
  }
}

// Rank 3: over C at every (h, w); rank 2: over F in every row; rank 1: over the whole vector.
Tensor reference_layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
  Tensor y(x.shape);
  auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  if (x.rank() == 3) {
    const std::int64_t h_count = x.shape[1], w_count = x.shape[2];
    for (std::int64_t h = 0; h < h_count; ++h)
      for (std::int64_t w = 0; w < w_count; ++w)
        reference_set(
            x, gamma, beta, eps, x.shape[0],
            [&](std::int64_t c) { return at((c * h_count + h) * w_count + w); }, y);
  } else {
    const std::int64_t f_count = x.shape.back(), rows = x.size() / f_count;
    for (std::int64_t t = 0; t < rows; ++t)
      reference_set(
          x, gamma, beta, eps, f_count, [&](std::int64_t f) { return at(t * f_count + f); }, y);
  }
  return y;
}

}  // namespace

TEST_CASE("layer_norm of a vector uses the biased variance with eps inside the root",
          "[kernels][layer_norm]") {
  // x = (1, 2, 3, 6): mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5 (divided by F = 4, not 3). With eps = 0.5
  // the scale is 1 / sqrt(3.5 + 0.5) = 1 / 2, so x^ = (-1, -0.5, 0, 1.5); then y = gamma x^ + beta.
  const Tensor x({4}, {1.0f, 2.0f, 3.0f, 6.0f});
  const Tensor gamma({4}, {1.0f, 2.0f, 3.0f, 4.0f}), beta({4}, {0.0f, 1.0f, 0.0f, -1.0f});
  const Tensor y = layer_norm(x, gamma, beta, 0.5f);
  CHECK(y.data[0] == Approx(-1.0f));
  CHECK(y.data[1] == Approx(0.0f).margin(1e-6));
  CHECK(y.data[2] == Approx(0.0f).margin(1e-6));
  CHECK(y.data[3] == Approx(5.0f));
}

TEST_CASE("layer_norm matches the reference for vectors and (T, F) sequences", "[kernels][layer_norm]") {
  const Shape shape = GENERATE(Shape{7}, Shape{5, 6}, Shape{3, 768});
  const std::int64_t f_count = shape.back();
  const Tensor x = random_normal(shape, 900, 0.5f, 2.0f);
  const Tensor gamma = random_uniform({f_count}, 901, 0.5f, 2.0f), beta = random_normal({f_count}, 902);
  CHECK(test::max_rel_error(layer_norm(x, gamma, beta, 1e-5f), reference_layer_norm(x, gamma, beta, 1e-5)) <
        1e-5);
}

TEST_CASE("layer_norm of a (C, H, W) map normalises over the channels at every pixel",
          "[kernels][layer_norm]") {
  // Each channel has its own offset, so normalising over (H, W) or over W instead would not give a zero
  // per-pixel mean.
  const std::int64_t channels = 6, height = 4, width = 5;
  Tensor x = random_normal({channels, height, width}, 903);
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t h = 0; h < height; ++h)
      for (std::int64_t w = 0; w < width; ++w) x.at(c, h, w) += static_cast<float>(c) - 2.0f;
  const Tensor ones({channels}, 1.0f), zeros({channels}, 0.0f);
  const Tensor y = layer_norm(x, ones, zeros, 1e-5f);
  // Before the affine step (gamma 1, beta 0): mean 0 and variance var / (var + eps) ~ 1 at every pixel.
  for (std::int64_t h = 0; h < height; ++h)
    for (std::int64_t w = 0; w < width; ++w) {
      double mean = 0.0, square = 0.0;
      for (std::int64_t c = 0; c < channels; ++c) {
        mean += y.at(c, h, w);
        square += static_cast<double>(y.at(c, h, w)) * y.at(c, h, w);
      }
      CHECK(mean / channels == Approx(0.0).margin(1e-6));
      CHECK(square / channels == Approx(1.0).margin(1e-4));
    }
  const Tensor gamma = random_uniform({channels}, 904, 0.5f, 2.0f), beta = random_normal({channels}, 905);
  CHECK(test::max_rel_error(layer_norm(x, gamma, beta, 1e-6f), reference_layer_norm(x, gamma, beta, 1e-6)) <
        1e-5);
}

TEST_CASE("layer_norm stays accurate on ConvNeXt-sized maps with a large offset", "[kernels][layer_norm]") {
  // Values 1000 +- 0.1: E[x^2] - E[x]^2 in fp32 would lose every digit (1e6 vs a variance of 1e-2); the
  // two-pass double statistics keep the normalised values to fp32 rounding.
  const Shape shape = GENERATE(Shape{96, 56, 56}, Shape{768, 7, 7});
  const Tensor x = random_normal(shape, 906, 1000.0f, 0.1f);
  const Tensor gamma = random_uniform({shape[0]}, 907, 0.5f, 2.0f), beta = random_normal({shape[0]}, 908);
  // The inputs themselves are rounded to fp32 near 1000 (ulp 6e-5), so x^ carries ~1e-3 of relative error
  // from the data alone; both sides see the same rounded inputs, so they agree far more closely.
  CHECK(test::max_rel_error(layer_norm(x, gamma, beta, 1e-6f), reference_layer_norm(x, gamma, beta, 1e-6)) <
        1e-5);
}

TEST_CASE("layer_norm_backward matches finite differences for the input, gamma and beta",
          "[kernels][layer_norm][backward]") {
  // (T, F) rows, a (C, H, W) map (over the channels at every pixel) and a vector.
  const Shape shape = GENERATE(Shape{4, 6}, Shape{5, 3, 2}, Shape{7});
  const std::int64_t f_count = shape.size() == 3 ? shape[0] : shape.back();
  const Tensor x = random_normal(shape, 910, 0.5f, 2.0f), r = random_normal(shape, 911);
  const Tensor gamma = random_uniform({f_count}, 912, 0.5f, 2.0f), beta = random_normal({f_count}, 913);
  const float eps = 1e-5f;
  const LayerNormGradients g = layer_norm_backward(x, gamma, eps, r);
  REQUIRE(g.input.shape == shape);
  REQUIRE(g.gamma.shape == Shape{f_count});
  REQUIRE(g.beta.shape == Shape{f_count});
  SECTION("input") {
    test::check_gradient(
        g.input, [&](const Tensor& v) { return test::projection(layer_norm(v, gamma, beta, eps), r); }, x);
  }
  SECTION("gamma") {
    test::check_gradient(
        g.gamma, [&](const Tensor& v) { return test::projection(layer_norm(x, v, beta, eps), r); }, gamma);
  }
  SECTION("beta") {
    test::check_gradient(
        g.beta, [&](const Tensor& v) { return test::projection(layer_norm(x, gamma, v, eps), r); }, beta);
  }
}

TEST_CASE("layer_norm rejects a gamma or beta of the wrong size", "[kernels][layer_norm]") {
  // (4, 3, 3) normalises over its 4 channels, not its last axis of 3.
  const Tensor x = random_normal({4, 3, 3}, 914);
  const Tensor four({4}, 1.0f), three({3}, 1.0f);
  CHECK_NOTHROW(layer_norm(x, four, four, 1e-5f));
  CHECK_THROWS_WITH(layer_norm(x, three, four, 1e-5f), Catch::Contains("gamma must have shape [4]"));
  CHECK_THROWS_WITH(layer_norm(x, four, three, 1e-5f), Catch::Contains("beta must have shape [4]"));
  CHECK_THROWS_AS(layer_norm(x, Tensor({1, 4}, 1.0f), four, 1e-5f), Error);
  CHECK_THROWS_AS(layer_norm_backward(x, three, 1e-5f, x), Error);
}

TEST_CASE("layer_norm rejects ranks 0 and above 3, a negative epsilon and a mismatched gradient",
          "[kernels][layer_norm]") {
  const Tensor one({1}, 1.0f), four({4}, 1.0f);
  CHECK_THROWS_AS(layer_norm(Tensor(Shape{}, 1.0f), one, one, 1e-5f), Error);
  CHECK_THROWS_AS(layer_norm(Tensor({2, 2, 2, 4}), four, four, 1e-5f), Error);
  CHECK_THROWS_AS(layer_norm(Tensor({3, 4}), four, four, -1.0f), Error);
  CHECK_THROWS_AS(layer_norm_backward(Tensor({3, 4}), four, 1e-5f, Tensor({4, 3})), Error);
}
