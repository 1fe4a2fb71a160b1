// Activation backward passes: finite differences of L = sum r * f(x) (see gradient_check.hpp), with
// inputs kept away from the kinks of relu, relu6 and leaky_relu.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/activation.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("relu_backward matches finite differences", "[kernels][activation][backward]") {
  const Tensor x = test::away_from(random_normal({3, 4, 5}, 700), {0.0f}), r = random_normal({3, 4, 5}, 701);
  test::check_gradient(
      relu_backward(x, r), [&](const Tensor& v) { return test::projection(relu(v), r); }, x);
}

TEST_CASE("relu6_backward matches finite differences on both sides of both kinks",
          "[kernels][activation][backward]") {
  const Tensor x = test::away_from(random_uniform({3, 4, 5}, 702, -8.0f, 8.0f), {0.0f, 6.0f});
  const Tensor r = random_normal({3, 4, 5}, 703);
  test::check_gradient(
      relu6_backward(x, r), [&](const Tensor& v) { return test::projection(relu6(v), r); }, x);
}

TEST_CASE("leaky_relu_backward matches finite differences", "[kernels][activation][backward]") {
  const Tensor x = test::away_from(random_normal({60}, 704), {0.0f}), r = random_normal({60}, 705);
  test::check_gradient(
      leaky_relu_backward(x, r, 0.1f),
      [&](const Tensor& v) { return test::projection(leaky_relu(v, 0.1f), r); }, x);
}

TEST_CASE("hard_sigmoid_backward matches finite differences inside and outside its ramp",
          "[kernels][activation][backward]") {
  const Tensor x = test::away_from(random_uniform({60}, 710, -6.0f, 6.0f), {-3.0f, 3.0f});
  const Tensor r = random_normal({60}, 711);
  test::check_gradient(
      hard_sigmoid_backward(x, r, 1.0f / 6, 0.5f),
      [&](const Tensor& v) { return test::projection(hard_sigmoid(v, 1.0f / 6, 0.5f), r); }, x);
}

TEST_CASE("relu's derivative is 0 at 0 and leaky_relu's is 1 there", "[kernels][activation][backward]") {
  const Tensor zero({2}, 0.0f), dy({2}, 1.0f);
  CHECK(relu_backward(zero, dy) == Tensor({2}, 0.0f));
  CHECK(relu6_backward(Tensor({2}, {0.0f, 6.0f}), dy) == Tensor({2}, 0.0f));
  CHECK(leaky_relu_backward(zero, dy, 0.1f) == Tensor({2}, 1.0f));
}

TEST_CASE("sigmoid_backward matches finite differences", "[kernels][activation][backward]") {
  const Tensor x = random_normal({3, 4, 5}, 706, 0.0f, 2.0f), r = random_normal({3, 4, 5}, 707);
  test::check_gradient(
      sigmoid_backward(sigmoid(x), r), [&](const Tensor& v) { return test::projection(sigmoid(v), r); }, x);
}

TEST_CASE("tanh_backward matches finite differences", "[kernels][activation][backward]") {
  const Tensor x = random_normal({3, 4, 5}, 708), r = random_normal({3, 4, 5}, 709);
  test::check_gradient(
      tanh_backward(kernels::tanh(x), r),
      [&](const Tensor& v) { return test::projection(kernels::tanh(v), r); }, x);
}

TEST_CASE("softmax_backward matches finite differences on vectors, sequences and feature maps",
          "[kernels][activation][backward]") {
  // (10): one softmax; (4, 6): one per row; (5, 3, 2): one per pixel over the channel axis.
  const Shape shape = GENERATE(Shape{10}, Shape{4, 6}, Shape{5, 3, 2});
  const Tensor x = random_normal(shape, 710, 0.0f, 2.0f), r = random_normal(shape, 711);
  test::check_gradient(
      softmax_backward(softmax(x), r), [&](const Tensor& v) { return test::projection(softmax(v), r); }, x);
}

TEST_CASE("activation backward passes reject a gradient of another shape",
          "[kernels][activation][backward]") {
  const Tensor x({2, 3}), dy({3, 2});
  CHECK_THROWS_AS(relu_backward(x, dy), Error);
  CHECK_THROWS_AS(sigmoid_backward(x, dy), Error);
  CHECK_THROWS_AS(softmax_backward(x, dy), Error);
}
