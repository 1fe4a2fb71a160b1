// Slicing one axis and ShuffleNet's channel shuffle against naive index arithmetic, and their backward
// passes against finite differences.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("slice of the channel, row or column axis keeps start..end of it", "[kernels][slice]") {
  const Tensor x = random_normal({6, 4, 5}, 810);
  for (std::int64_t axis = 0; axis < 3; ++axis) {
    CAPTURE(axis);
    const Tensor y = slice(x, axis, 1, 3);
    Shape want = x.shape;
    want[static_cast<std::size_t>(axis)] = 2;
    REQUIRE(y.shape == want);
    for (std::int64_t c = 0; c < want[0]; ++c)
      for (std::int64_t h = 0; h < want[1]; ++h)
        for (std::int64_t w = 0; w < want[2]; ++w)
          CHECK(y.at(c, h, w) == x.at(c + (axis == 0), h + (axis == 1), w + (axis == 2)));
  }
}

TEST_CASE("slice of a range outside the axis throws", "[kernels][slice]") {
  const Tensor x({6, 4});
  CHECK_THROWS_AS(slice(x, 0, 2, 7), Error);
  CHECK_THROWS_AS(slice(x, 2, 0, 1), Error);
  CHECK_THROWS_AS(slice(x, 1, 3, 3), Error);
}

TEST_CASE("slice_backward matches finite differences", "[kernels][slice][backward]") {
  const Tensor x = random_normal({6, 4, 5}, 811), r = random_normal({6, 2, 5}, 812);
  test::check_gradient(
      slice_backward(r, x.shape, 1, 2),
      [&](const Tensor& v) { return test::projection(slice(v, 1, 2, 4), r); }, x);
}

TEST_CASE("channel_shuffle sends channel i (C/g) + j to j g + i", "[kernels][shuffle]") {
  const Tensor x = random_normal({6, 2, 3}, 813);
  const Tensor y = channel_shuffle(x, 3);  // 3 groups of 2 channels
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 0; j < 2; ++j)
      for (std::int64_t h = 0; h < 2; ++h)
        for (std::int64_t w = 0; w < 3; ++w) CHECK(y.at(j * 3 + i, h, w) == x.at(i * 2 + j, h, w));
  CHECK_THROWS_AS(channel_shuffle(x, 4), Error);
}

TEST_CASE("channel_shuffle_backward matches finite differences", "[kernels][shuffle][backward]") {
  const Tensor x = random_normal({6, 2, 3}, 814), r = random_normal({6, 2, 3}, 815);
  test::check_gradient(
      channel_shuffle_backward(r, 2),
      [&](const Tensor& v) { return test::projection(channel_shuffle(v, 2), r); }, x);
}
