// Training-mode batch norm and LRN backward passes: finite differences of L = sum r * f(x) (see
// gradient_check.hpp). Batch norm's check differentiates through the batch statistics too.
#include <catch2/catch.hpp>

#include <cmath>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

BatchNormParams scale_shift(std::int64_t channels, std::uint64_t seed) {
  const Tensor scale = random_uniform({channels}, seed, 0.5f, 2.0f),
               shift = random_normal({channels}, seed + 1);
  const auto n = static_cast<std::size_t>(channels);
  return {std::vector<float>(n, 0.0f), std::vector<float>(n, 1.0f), scale.data, shift.data, 1e-5f};
}

// The training forward: normalise x with its own batch statistics.
Tensor bn_train(const Tensor& x, const BatchNormParams& p) {
  return batch_norm(x, batch_norm_statistics(x, p));
}

}  // namespace

TEST_CASE("batch_norm_statistics gives each channel's mean and biased variance",
          "[kernels][batch_norm][backward]") {
  // Channel 0 holds 1, 2, 3, 6: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5 (divided by M = 4, not 3).
  // Channel 1 is constant 5: mean 5, variance 0.
  const Tensor x({2, 2, 2}, {1.0f, 2.0f, 3.0f, 6.0f, 5.0f, 5.0f, 5.0f, 5.0f});
  const BatchNormParams b = batch_norm_statistics(x, scale_shift(2, 1));
  CHECK(b.mean == std::vector<float>{3.0f, 5.0f});
  CHECK(b.variance == std::vector<float>{3.5f, 0.0f});
  // Normalised with them, each channel has mean shift and variance scale^2 (up to eps).
  const Tensor y = bn_train(random_normal({2, 3, 4}, 2, 1.0f, 3.0f), b);
  double sum = 0.0;
  for (std::int64_t i = 0; i < 12; ++i) sum += y.data[static_cast<std::size_t>(i)];
  CHECK(sum / 12.0 == Approx(b.shift[0]).margin(1e-5));
}

TEST_CASE("batch_norm_backward's input gradient matches finite differences through the batch statistics",
          "[kernels][batch_norm][backward]") {
  // (3, 2, 5): a "minibatch" of 2 samples of (3, 5), channel-major; mean 0.5, spread 2.
  const Tensor x = random_normal({3, 2, 5}, 800, 0.5f, 2.0f), r = random_normal({3, 2, 5}, 801);
  const BatchNormParams p = scale_shift(3, 802);
  const Gradients g = batch_norm_backward(x, batch_norm_statistics(x, p), r);
  test::check_gradient(
      g.input, [&](const Tensor& v) { return test::projection(bn_train(v, p), r); }, x);
}

TEST_CASE("batch_norm_backward's scale and shift gradients match finite differences",
          "[kernels][batch_norm][backward]") {
  const Tensor x = random_normal({3, 2, 5}, 803, 0.5f, 2.0f), r = random_normal({3, 2, 5}, 804);
  const BatchNormParams p = scale_shift(3, 805);
  const Gradients g = batch_norm_backward(x, batch_norm_statistics(x, p), r);
  auto with = [&](const Tensor& v, bool scale) {
    BatchNormParams q = p;
    (scale ? q.scale : q.shift) = v.data;
    return test::projection(bn_train(x, q), r);
  };
  test::check_gradient(
      g.weight, [&](const Tensor& v) { return with(v, true); }, Tensor({3}, p.scale));
  test::check_gradient(
      g.bias, [&](const Tensor& v) { return with(v, false); }, Tensor({3}, p.shift));
}

TEST_CASE("batch_norm_backward rejects inconsistent shapes", "[kernels][batch_norm][backward]") {
  const Tensor x = random_normal({3, 4}, 806);
  const BatchNormParams b = batch_norm_statistics(x, scale_shift(3, 807));
  CHECK_THROWS_AS(batch_norm_backward(x, b, Tensor({3, 5})), Error);
  CHECK_THROWS_AS(batch_norm_backward(x, scale_shift(2, 808), Tensor({3, 4})), Error);
  CHECK_THROWS_AS(batch_norm_statistics(Tensor({3, 0}), scale_shift(3, 809)), Error);
}

TEST_CASE("lrn_backward matches finite differences", "[kernels][lrn][backward]") {
  // Odd and even window sizes (even: the window is asymmetric, so the backward's mirrored window differs
  // from the forward's), a window wider than the channel count, and AlexNet's size 5; a large alpha so
  // the cross-channel term matters.
  const std::int64_t size = GENERATE(1, 2, 3, 5, 8);
  const Tensor x = random_normal({6, 3, 2}, 810), r = random_normal({6, 3, 2}, 811);
  const float alpha = 0.5f, beta = 0.75f, k = 2.0f;
  test::check_gradient(
      lrn_backward(x, r, size, alpha, beta, k),
      [&](const Tensor& v) { return test::projection(lrn(v, size, alpha, beta, k), r); }, x);
}

TEST_CASE("lrn_backward rejects a grad_output of another shape", "[kernels][lrn][backward]") {
  const Tensor x = random_normal({4, 3, 3}, 812);
  CHECK_THROWS_AS(lrn_backward(x, Tensor({4, 3, 2}), 5, 1e-4f, 0.75f, 1.0f), Error);
  CHECK_THROWS_AS(lrn_backward(x, x, 0, 1e-4f, 0.75f, 1.0f), Error);
}
