// add, concat and upsample against their definitions.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("add sums element-wise and rejects different shapes", "[kernels][add]") {
  const Tensor a = random_normal({2, 3, 4}, 71), b = random_normal({2, 3, 4}, 72),
               c = random_normal({2, 3, 4}, 73);
  const Tensor s = add({&a, &b, &c});
  for (std::size_t i = 0; i < a.data.size(); ++i)
    CHECK(s.data[i] == Approx(a.data[i] + b.data[i] + c.data[i]));
  const Tensor d({2, 3, 5});
  CHECK_THROWS_AS(add({&a, &d}), Error);
}

TEST_CASE("concat along each axis places every input block in order", "[kernels][concat]") {
  const Tensor a = random_normal({2, 3, 4}, 74);
  for (std::int64_t axis = 0; axis < 3; ++axis) {
    Shape bs = a.shape;
    bs[static_cast<std::size_t>(axis)] = 2;
    const Tensor b = random_normal(bs, 75);
    const Tensor y = concat({&a, &b}, axis);
    Shape expect = a.shape;
    expect[static_cast<std::size_t>(axis)] += 2;
    REQUIRE(y.shape == expect);
    // y[idx] comes from a when idx[axis] < a.shape[axis], else from b at idx[axis] - a.shape[axis]
    for (std::int64_t i = 0; i < y.shape[0]; ++i)
      for (std::int64_t j = 0; j < y.shape[1]; ++j)
        for (std::int64_t k = 0; k < y.shape[2]; ++k) {
          std::array<std::int64_t, 3> idx{i, j, k};
          const bool from_a = idx[static_cast<std::size_t>(axis)] < a.shape[static_cast<std::size_t>(axis)];
          if (!from_a) idx[static_cast<std::size_t>(axis)] -= a.shape[static_cast<std::size_t>(axis)];
          const Tensor& src = from_a ? a : b;
          CHECK(y.at(i, j, k) == src.at(idx[0], idx[1], idx[2]));
        }
  }
  const Tensor bad({3, 3, 3});
  CHECK_THROWS_AS(concat({&a, &bad}, 0), Error);
  CHECK_THROWS_AS(concat({&a, &a}, 3), Error);
}

TEST_CASE("nearest upsampling repeats each pixel", "[kernels][upsample]") {
  const Tensor x = random_normal({2, 3, 4}, 76);
  const Tensor y = upsample(x, {2, 3}, "nearest");
  REQUIRE(y.shape == Shape{2, 6, 12});
  for (std::int64_t c = 0; c < 2; ++c)
    for (std::int64_t h = 0; h < 6; ++h)
      for (std::int64_t w = 0; w < 12; ++w) CHECK(y.at(c, h, w) == x.at(c, h / 2, w / 3));
  CHECK_THROWS_AS(upsample(x, {2, 2}, "cubic"), Error);
}

TEST_CASE("bilinear upsampling follows align_corners=false", "[kernels][upsample]") {
  // One row [0, 4], scale 2: source x = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25
  // -> clamp 0 -> 0; 0.25 -> 0 + 0.25 * 4 = 1; 0.75 -> 3; 1.25 -> i0 = 1 (last), edge -> 4.
  const Tensor x({1, 1, 2}, std::vector<float>{0.0f, 4.0f});
  const Tensor y = upsample(x, {1, 2}, "bilinear");
  REQUIRE(y.shape == Shape{1, 1, 4});
  CHECK(y.data == std::vector<float>{0.0f, 1.0f, 3.0f, 4.0f});
  // A constant image stays constant.
  const Tensor c({2, 3, 3}, 2.5f);
  for (float v : upsample(c, {3, 2}, "bilinear").data) CHECK(v == Approx(2.5f));
}
