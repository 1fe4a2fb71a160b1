// Batch norm (inference form) and Caffe's across-channel LRN against their formulas.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;

TEST_CASE("batch norm applies scale * (x - mean) / sqrt(var + eps) + shift per channel",
          "[kernels][batch_norm]") {
  const Tensor x = random_normal({3, 4, 5}, 61);
  const BatchNormParams p{
      {0.5f, -1.0f, 0.0f}, {1.0f, 4.0f, 0.25f}, {2.0f, 1.0f, -1.0f}, {0.0f, 3.0f, 1.0f}, 1e-5f};
  const Tensor y = batch_norm(x, p);
  for (std::int64_t c = 0; c < 3; ++c)
    for (std::int64_t i = 0; i < 20; ++i) {
      const auto k = static_cast<std::size_t>(c);
      const double expect =
          p.scale[k] * (x.data[c * 20 + i] - p.mean[k]) / std::sqrt(p.variance[k] + 1e-5) + p.shift[k];
      CHECK(y.data[static_cast<std::size_t>(c * 20 + i)] == Approx(expect).margin(1e-5));
    }
  BatchNormParams bad = p;
  bad.variance[1] = -1.0f;
  CHECK_THROWS_AS(batch_norm(x, bad), Error);
  bad = p;
  bad.mean.pop_back();
  CHECK_THROWS_AS(batch_norm(x, bad), Error);
}

TEST_CASE("LRN matches Caffe's across-channel formula", "[kernels][lrn]") {
  std::mt19937_64 rng(62);
  for (int trial = 0; trial < 40; ++trial) {
    const std::int64_t c = draw(rng, 1, 9), size = draw(rng, 1, 6);
    const float alpha = 0.5f, beta = 0.75f, k = 2.0f;  // large alpha so the window matters
    const Tensor x = random_normal({c, 3, 4}, rng());
    const Tensor y = lrn(x, size, alpha, beta, k);
    for (std::int64_t ch = 0; ch < c; ++ch)
      for (std::int64_t h = 0; h < 3; ++h)
        for (std::int64_t w = 0; w < 4; ++w) {
          double sq = 0.0;
          for (std::int64_t j = ch - (size - 1) / 2; j <= ch + size / 2; ++j)
            if (j >= 0 && j < c) sq += static_cast<double>(x.at(j, h, w)) * x.at(j, h, w);
          const double expect = x.at(ch, h, w) / std::pow(k + alpha / static_cast<double>(size) * sq, beta);
          CHECK(y.at(ch, h, w) == Approx(expect).margin(1e-5));
        }
  }
  CHECK_THROWS_AS(lrn(Tensor({2, 2, 2}), 0, 1e-4f, 0.75f, 1.0f), Error);
}
