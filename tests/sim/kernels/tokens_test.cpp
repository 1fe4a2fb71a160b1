// A vision transformer's token plumbing: (C, H, W) -> (H*W, C) tokens, the class token put in front, and
// their backward passes (both only move elements, so the gradients are the inverse moves).
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/kernels/attention.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

// Element (c, h, w) = 100 c + 10 h + w: every value says where it came from.
Tensor labelled_map(std::int64_t channels, std::int64_t height, std::int64_t width) {
  Tensor x({channels, height, width});
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t h = 0; h < height; ++h)
      for (std::int64_t w = 0; w < width; ++w) x.at(c, h, w) = static_cast<float>(100 * c + 10 * h + w);
  return x;
}

float element(const Tensor& m, std::int64_t row, std::int64_t col) {
  return m.data[static_cast<std::size_t>(row * m.dim(1) + col)];
}

}  // namespace

TEST_CASE("tokens turns pixel h*W + w into a row of its C channels", "[kernels][tokens]") {
  const Tensor y = tokens(labelled_map(3, 2, 4));
  REQUIRE(y.shape == Shape{8, 3});
  // Pixel (h, w) = (1, 2) is token 1 * 4 + 2 = 6; its features are channels 0, 1, 2.
  CHECK(element(y, 6, 0) == 12.0f);
  CHECK(element(y, 6, 1) == 112.0f);
  CHECK(element(y, 6, 2) == 212.0f);
  CHECK(element(y, 0, 1) == 100.0f);
  CHECK(element(y, 7, 2) == 213.0f);
}

TEST_CASE("tokens_backward is the inverse permutation", "[kernels][tokens][backward]") {
  const Tensor x = labelled_map(3, 2, 4);
  CHECK(tokens_backward(tokens(x), x.shape) == x);
  // The gradient of token 5 (pixel (1, 1)), feature 2 lands on element (2, 1, 1).
  Tensor dy({8, 3});
  dy.data[5 * 3 + 2] = 1.0f;
  const Tensor dx = tokens_backward(dy, x.shape);
  CHECK(dx.at(2, 1, 1) == 1.0f);
  CHECK(tensor_sum(dx) == 1.0);
}

TEST_CASE("tokens rejects a map that is not (C, H, W) and a wrong gradient", "[kernels][tokens]") {
  CHECK_THROWS_WITH(tokens(Tensor({4, 6})), Catch::Contains("expected a (C,H,W) input"));
  CHECK_THROWS_WITH(tokens_backward(Tensor({3, 8}), {3, 2, 4}),
                    Catch::Contains("grad_output [3,8] is not the output shape [8,3]"));
}

TEST_CASE("prepend_token puts the token in row 0 and the sequence after it", "[kernels][tokens]") {
  const Tensor x({2, 3}, {1, 2, 3, 4, 5, 6}), cls({3}, {-1, -2, -3});
  const Tensor y = prepend_token(x, cls);
  CHECK(y == Tensor({3, 3}, {-1, -2, -3, 1, 2, 3, 4, 5, 6}));
}

TEST_CASE("prepend_token_backward splits the gradient into the token's row and the input's",
          "[kernels][tokens][backward]") {
  const Tensor dy({3, 2}, {7, 8, 1, 2, 3, 4});
  const PrependTokenGradients g = prepend_token_backward(dy);
  CHECK(g.token == Tensor({2}, {7, 8}));
  CHECK(g.input == Tensor({2, 2}, {1, 2, 3, 4}));
}

TEST_CASE("prepend_token rejects a token of the wrong size", "[kernels][tokens]") {
  const Tensor x({2, 3}, 1.0f);
  CHECK_THROWS_WITH(prepend_token(x, Tensor({4})), Catch::Contains("token must have shape [3]"));
  CHECK_THROWS_AS(prepend_token(x, Tensor({1, 3})), Error);
  CHECK_THROWS_AS(prepend_token(Tensor({3}), Tensor({3})), Error);
  CHECK_THROWS_AS(prepend_token_backward(Tensor({0, 3})), Error);
}
