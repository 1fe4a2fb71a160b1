// conv_transpose2d_backward: finite differences of L = sum r * conv_transpose2d(x) (see
// gradient_check.hpp), and the adjoint identity that defines the transposed convolution.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

struct Case {
  Tensor x, w, b, r;
  ConvParams p;
};

// Cases: plain 3x3 stride 1; stride 2 with padding and output_padding 1 (the last output row and
// column are touched by no input through some taps); dilation 2 with 2 groups; Chair's fc5 form (an
// 8x8 kernel on a 1x1 input); stride 3 with output_padding 2 (more than 1 extra row).
Case transpose_case(int which) {
  struct Form {
    Shape x, w;
    std::int64_t stride, padding, dilation, output_padding, groups;
  };
  const Form forms[] = {{{3, 4, 5}, {3, 2, 3, 3}, 1, 0, 1, 0, 1},
                        {{2, 3, 4}, {2, 3, 3, 2}, 2, 1, 1, 1, 1},
                        {{4, 3, 3}, {4, 2, 2, 3}, 1, 1, 2, 0, 2},
                        {{5, 1, 1}, {5, 3, 8, 8}, 1, 0, 1, 0, 1},
                        {{2, 2, 3}, {2, 2, 2, 2}, 3, 0, 1, 2, 1}};
  const Form& f = forms[which];
  Case c;
  c.p.stride = {f.stride, f.stride};
  c.p.padding = {f.padding, f.padding};
  c.p.dilation = {f.dilation, f.dilation};
  c.p.output_padding = {f.output_padding, f.output_padding};
  c.p.groups = f.groups;
  const auto seed = static_cast<std::uint64_t>(which);
  c.x = random_normal(f.x, 1100 + seed);
  c.w = random_normal(f.w, 1200 + seed);
  c.b = random_normal({f.w[1] * f.groups}, 1300 + seed);
  c.r = random_normal(conv_transpose2d(c.x, c.w, c.b, c.p).shape, 1400 + seed);
  return c;
}

}  // namespace

TEST_CASE("conv_transpose2d_backward's input gradient matches finite differences",
          "[kernels][conv][backward]") {
  const Case c = transpose_case(GENERATE(0, 1, 2, 3, 4));
  const Gradients g = conv_transpose2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.input, [&](const Tensor& x) { return test::projection(conv_transpose2d(x, c.w, c.b, c.p), c.r); },
      c.x);
}

TEST_CASE("conv_transpose2d_backward's weight and bias gradients match finite differences",
          "[kernels][conv][backward]") {
  const Case c = transpose_case(GENERATE(0, 1, 2, 3, 4));
  const Gradients g = conv_transpose2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.weight, [&](const Tensor& w) { return test::projection(conv_transpose2d(c.x, w, c.b, c.p), c.r); },
      c.w);
  test::check_gradient(
      g.bias, [&](const Tensor& b) { return test::projection(conv_transpose2d(c.x, c.w, b, c.p), c.r); },
      c.b);
}

TEST_CASE("conv_transpose2d_backward's input gradient is conv2d of dy with the same weight",
          "[kernels][conv][backward]") {
  // <r, convT(x, W)> = <conv2d(r, W), x> for every x: the transposed convolution is conv2d's adjoint, so
  // dL/dx = conv2d(r, W) (no output_padding in these cases, so the sizes match exactly).
  const Case c = transpose_case(GENERATE(0, 2, 3));
  const Gradients g = conv_transpose2d_backward(c.x, c.w, false, c.r, c.p);
  CHECK(test::max_rel_error(g.input, conv2d(c.r, c.w, Tensor(), c.p)) < 1e-5);
  CHECK(g.bias.empty());
}

TEST_CASE("conv_transpose2d_backward rejects a grad_output that is not the output's shape",
          "[kernels][conv][backward]") {
  const Case c = transpose_case(0);  // output [2, 6, 7]
  CHECK_THROWS_AS(conv_transpose2d_backward(c.x, c.w, true, Tensor({2, 6, 6}), c.p), Error);
  CHECK_THROWS_AS(conv_transpose2d_backward(c.x, random_normal({2, 2, 3, 3}, 1), true, c.r, c.p), Error);
}
