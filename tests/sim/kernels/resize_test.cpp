// Bilinear and area resizing to arbitrary sizes (sim/kernels/resize.hpp), against hand-computed values.
#include "sim/kernels/resize.hpp"

#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("bilinear resizing of a row uses half-pixel centres and clamps at the edges", "[kernels][resize]") {
  // in = {0, 1} (width 2) to width 4: source x = (o + 0.5) * 2 / 4 - 0.5 = -0.25, 0.25, 0.75, 1.25,
  // clamped to [0, 1]: values 0, 0.25, 0.75, 1.
  const Tensor x({1, 1, 2}, {0.0f, 1.0f});
  const Tensor y = resize_bilinear(x, 1, 4);
  CHECK(y.shape == Shape{1, 1, 4});
  CHECK(y.data == std::vector<float>{0.0f, 0.25f, 0.75f, 1.0f});
}

TEST_CASE("bilinear resizing keeps a constant image constant at any size", "[kernels][resize]") {
  const Tensor y = resize_bilinear(Tensor({2, 8, 8}, 0.5f), 45, 45);
  CHECK(y.shape == Shape{2, 45, 45});
  for (float v : y.data) CHECK(v == Approx(0.5f));
}

TEST_CASE("area resizing averages the covered pixels, partial pixels by their covered share",
          "[kernels][resize]") {
  // 3 -> 2 along a row: footprints [0, 1.5) and [1.5, 3): (1 x a + 0.5 x b) / 1.5 and (0.5 b + c) / 1.5.
  const Tensor x({1, 1, 3}, {3.0f, 6.0f, 9.0f});
  const Tensor y = resize_area(x, 1, 2);
  CHECK(y.data[0] == Approx((3.0 + 0.5 * 6.0) / 1.5));
  CHECK(y.data[1] == Approx((0.5 * 6.0 + 9.0) / 1.5));
  // 4x4 -> 2x2 is the mean of each 2x2 block
  const Tensor b({1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  CHECK(resize_area(b, 2, 2).data == std::vector<float>{3.5f, 5.5f, 11.5f, 13.5f});
}

TEST_CASE("area resizing to the same size is the identity and keeps the mean when shrinking",
          "[kernels][resize]") {
  const Tensor x = random_normal({1, 8, 8}, 3, 0.0f, 1.0f);
  CHECK(max_abs_diff(resize_area(x, 8, 8), x) == 0.0f);
  const Tensor big = resize_bilinear(x, 179, 179), small = resize_area(big, 8, 8);
  double mean_big = 0, mean_small = 0;
  for (float v : big.data) mean_big += v / big.data.size();
  for (float v : small.data) mean_small += v / small.data.size();
  CHECK(mean_small == Approx(mean_big).margin(1e-5));
}

TEST_CASE("resizing refuses a tensor that is not (C,H,W) and an empty output", "[kernels][resize]") {
  CHECK_THROWS_AS(resize_area(Tensor({4, 4}), 2, 2), Error);
  CHECK_THROWS_AS(resize_bilinear(Tensor({1, 4, 4}), 0, 2), Error);
}
