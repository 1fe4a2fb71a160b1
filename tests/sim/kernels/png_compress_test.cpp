// PNG compression of activations: round trip within one quantization step, measured ratios.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/activation.hpp"
#include "sim/kernels/png_compress.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("PNG round trip error is at most half an 8-bit step", "[kernels][png]") {
  for (const Shape& s : {Shape{5, 7, 9}, Shape{1, 13, 3}, Shape{16, 4, 4}, Shape{6, 11}, Shape{37}}) {
    const Tensor x = random_normal(s, 101, 1.0f, 3.0f);
    const PngTensor p = png_compress(x);
    const Tensor back = png_decompress(p);
    REQUIRE(back.shape == s);
    // step = (max - min) / 255; nearest level -> |error| <= step / 2 (plus fp32 rounding)
    CHECK(max_abs_diff(back, x) <= p.step() * 0.5f * 1.001f);
  }
}

TEST_CASE("a ReLU-sparse activation compresses below its 8-bit size", "[kernels][png]") {
  // About half the values of relu(N(0,1)) are exactly 0 -> long runs of level 0 that deflate well.
  const Tensor x = relu(random_normal({64, 28, 28}, 102));
  const PngTensor p = png_compress(x);
  INFO("PNG bytes " << p.png.size() << ", CR vs 8-bit " << p.ratio_vs_8bit() << ", vs fp32 "
                    << p.ratio_vs_fp32());
  CHECK(p.ratio_vs_8bit() > 1.0);
  CHECK(p.ratio_vs_fp32() == Approx(4.0 * p.ratio_vs_8bit()));
  CHECK(p.min == 0.0f);
  // tiling: ceil(sqrt(64)) = 8 tiles per row of 28 x 28
  CHECK(p.tiles_per_row == 8);
  CHECK(max_abs_diff(png_decompress(p), x) <= p.step() * 0.5f * 1.001f);
}

TEST_CASE("a constant tensor round-trips exactly", "[kernels][png]") {
  const Tensor x({3, 4, 4}, -2.5f);
  CHECK(png_decompress(png_compress(x)) == x);
}

TEST_CASE("corrupt PNG data and bad tensors raise errors", "[kernels][png]") {
  PngTensor p = png_compress(random_normal({2, 5, 5}, 103));
  p.png.resize(p.png.size() / 2);
  CHECK_THROWS_AS(png_decompress(p), Error);
  CHECK_THROWS_AS(png_compress(Tensor()), Error);
  CHECK_THROWS_AS(png_compress(Tensor({2}, std::numeric_limits<float>::infinity())), Error);
}
