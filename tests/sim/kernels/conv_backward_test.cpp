// conv2d_backward and depthwise_conv2d_backward: finite differences of L = sum r * conv(x) (see
// gradient_check.hpp) and naive loops written from the chain rule.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "naive_conv.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;

namespace {

ConvParams make_params(std::int64_t stride, std::int64_t padding, std::int64_t dilation,
                       std::int64_t groups) {
  ConvParams p;
  p.stride = {stride, stride};
  p.padding = {padding, padding};
  p.dilation = {dilation, dilation};
  p.groups = groups;
  return p;
}

// One small layer: input, weight, bias, the projection r and the parameters.
struct Case {
  Tensor x, w, b, r;
  ConvParams p;
};

// Conv cases: plain 3x3, stride 2 with padding (the last input row and column are dropped by the
// floor division, so their gradient is zero), dilation with groups, and 1x1 pointwise (no im2col).
Case conv_case(int which) {
  const ConvParams ps[] = {make_params(1, 0, 1, 1), make_params(2, 1, 1, 1), make_params(1, 2, 2, 2),
                           make_params(1, 0, 1, 1)};
  const Shape ws[] = {{3, 2, 3, 3}, {4, 2, 3, 2}, {4, 1, 2, 3}, {5, 2, 1, 1}};
  Case c;
  c.p = ps[which];
  c.x = random_normal({2, 6, 7}, 100 + static_cast<std::uint64_t>(which));
  c.w = random_normal(ws[which], 200 + static_cast<std::uint64_t>(which));
  c.b = random_normal({ws[which][0]}, 300 + static_cast<std::uint64_t>(which));
  c.r = random_normal(conv2d(c.x, c.w, c.b, c.p).shape, 400 + static_cast<std::uint64_t>(which));
  return c;
}

// Depthwise cases: multiplier 1 and 2, stride 2 with padding, dilation.
Case depthwise_case(int which) {
  const ConvParams ps[] = {make_params(1, 1, 1, 1), make_params(2, 1, 1, 1), make_params(1, 1, 2, 1)};
  const std::int64_t mult[] = {1, 2, 2};
  Case c;
  c.p = ps[which];
  c.x = random_normal({3, 6, 7}, 110 + static_cast<std::uint64_t>(which));
  c.w = random_normal({3 * mult[which], 1, 3, 2}, 210 + static_cast<std::uint64_t>(which));
  c.b = random_normal({3 * mult[which]}, 310 + static_cast<std::uint64_t>(which));
  c.r = random_normal(depthwise_conv2d(c.x, c.w, c.b, c.p).shape, 410 + static_cast<std::uint64_t>(which));
  return c;
}

// The chain rule through the definition (naive_conv.hpp), in double: every product w * in adds
// dY[o, y, x] times its other factor to the gradient of each factor.
Gradients naive_conv_backward(const Tensor& in, const Tensor& w, const Tensor& dy, const ConvParams& p) {
  const std::int64_t oc = w.shape[0], plane = dy.shape[1] * dy.shape[2];
  std::vector<double> dx(in.data.size(), 0.0), dw(w.data.size(), 0.0), db(static_cast<std::size_t>(oc), 0.0);
  test::for_each_conv_product(in.shape, w.shape, p, [&](std::size_t out, std::size_t x, std::size_t wi) {
    dx[x] += static_cast<double>(dy.data[out]) * w.data[wi];
    dw[wi] += static_cast<double>(dy.data[out]) * in.data[x];
  });
  for (std::size_t k = 0; k < dy.data.size(); ++k) db[k / static_cast<std::size_t>(plane)] += dy.data[k];
  return {test::to_tensor(in.shape, dx), test::to_tensor(w.shape, dw), test::to_tensor({oc}, db)};
}

}  // namespace

TEST_CASE("conv2d_backward's input gradient matches finite differences", "[kernels][conv][backward]") {
  const Case c = conv_case(GENERATE(0, 1, 2, 3));
  const Gradients g = conv2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.input, [&](const Tensor& x) { return test::projection(conv2d(x, c.w, c.b, c.p), c.r); }, c.x);
}

TEST_CASE("conv2d_backward's weight gradient matches finite differences", "[kernels][conv][backward]") {
  const Case c = conv_case(GENERATE(0, 1, 2, 3));
  const Gradients g = conv2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.weight, [&](const Tensor& w) { return test::projection(conv2d(c.x, w, c.b, c.p), c.r); }, c.w);
}

TEST_CASE("conv2d_backward's bias gradient matches finite differences", "[kernels][conv][backward]") {
  const Case c = conv_case(GENERATE(0, 1, 2, 3));
  const Gradients g = conv2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.bias, [&](const Tensor& b) { return test::projection(conv2d(c.x, c.w, b, c.p), c.r); }, c.b);
}

TEST_CASE("conv2d_backward matches the naive chain rule on random shapes", "[kernels][conv][backward]") {
  std::mt19937_64 rng(31);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    ConvParams p = make_params(1, 0, 1, draw(rng, 1, 3));
    p.stride = {draw(rng, 1, 3), draw(rng, 1, 3)};
    p.padding = {draw(rng, 0, 2), draw(rng, 0, 2)};
    p.dilation = {draw(rng, 1, 2), draw(rng, 1, 2)};
    const std::int64_t c = p.groups * draw(rng, 1, 3), oc = p.groups * draw(rng, 1, 3);
    const std::int64_t kh = draw(rng, 1, 4), kw = draw(rng, 1, 4), h = draw(rng, 1, 10), w = draw(rng, 1, 10);
    if (conv_output_size(h, kh, p.stride[0], p.padding[0], p.dilation[0]) < 1 ||
        conv_output_size(w, kw, p.stride[1], p.padding[1], p.dilation[1]) < 1)
      continue;  // kernel does not fit
    const Tensor x = random_normal({c, h, w}, rng()), wt = random_normal({oc, c / p.groups, kh, kw}, rng());
    const Tensor dy = random_normal(conv2d(x, wt, Tensor(), p).shape, rng());
    const Gradients got = conv2d_backward(x, wt, true, dy, p), ref = naive_conv_backward(x, wt, dy, p);
    // Sums of at most a few hundred products of N(0, 1) values: fp32 error ~1e-5, tolerance 1e-4 relative.
    INFO("trial " << trial);
    CHECK(test::max_rel_error(got.input, ref.input) < 1e-4);
    CHECK(test::max_rel_error(got.weight, ref.weight) < 1e-4);
    CHECK(test::max_rel_error(got.bias, ref.bias) < 1e-4);
    ++checked;
  }
  CHECK(checked > 30);
}

TEST_CASE("conv2d_backward without a bias leaves the bias gradient empty", "[kernels][conv][backward]") {
  const Case c = conv_case(0);
  CHECK(conv2d_backward(c.x, c.w, false, c.r, c.p).bias.empty());
}

TEST_CASE("conv2d_backward gives the same gradients on several threads", "[kernels][conv][backward]") {
  const Tensor x = random_normal({8, 20, 20}, 1), w = random_normal({16, 8, 3, 3}, 2);
  const ConvParams p = make_params(1, 1, 1, 1);
  const Tensor dy = random_normal({16, 20, 20}, 3);
  const Gradients one = conv2d_backward(x, w, true, dy, p);
  set_kernel_threads(3);
  const Gradients three = conv2d_backward(x, w, true, dy, p);
  set_kernel_threads(1);
  CHECK(test::max_rel_error(three.input, one.input) < 1e-5);
  CHECK(test::max_rel_error(three.weight, one.weight) < 1e-5);
}

TEST_CASE("conv2d_backward rejects a grad_output that is not the output's shape",
          "[kernels][conv][backward]") {
  const Case c = conv_case(0);  // output [3, 4, 5]
  CHECK_THROWS_AS(conv2d_backward(c.x, c.w, true, Tensor({3, 4, 4}), c.p), Error);
  CHECK_THROWS_AS(conv2d_backward(c.x, random_normal({3, 3, 3, 3}, 1), true, c.r, c.p), Error);
}

TEST_CASE("depthwise_conv2d_backward's input gradient matches finite differences",
          "[kernels][conv][backward]") {
  const Case c = depthwise_case(GENERATE(0, 1, 2));
  const Gradients g = depthwise_conv2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.input, [&](const Tensor& x) { return test::projection(depthwise_conv2d(x, c.w, c.b, c.p), c.r); },
      c.x);
}

TEST_CASE("depthwise_conv2d_backward's weight and bias gradients match finite differences",
          "[kernels][conv][backward]") {
  const Case c = depthwise_case(GENERATE(0, 1, 2));
  const Gradients g = depthwise_conv2d_backward(c.x, c.w, true, c.r, c.p);
  test::check_gradient(
      g.weight, [&](const Tensor& w) { return test::projection(depthwise_conv2d(c.x, w, c.b, c.p), c.r); },
      c.w);
  test::check_gradient(
      g.bias, [&](const Tensor& b) { return test::projection(depthwise_conv2d(c.x, c.w, b, c.p), c.r); },
      c.b);
}

TEST_CASE("depthwise_conv2d_backward equals conv2d_backward with groups = channels",
          "[kernels][conv][backward]") {
  // Output channel o reads input o / m: conv2d with C groups computes the same function, so the
  // direct-loop gradients must equal the GEMM ones.
  const Case c = depthwise_case(GENERATE(0, 1, 2));
  ConvParams grouped = c.p;
  grouped.groups = c.x.shape[0];
  const Gradients got = depthwise_conv2d_backward(c.x, c.w, true, c.r, c.p);
  const Gradients ref = conv2d_backward(c.x, c.w, true, c.r, grouped);
  CHECK(test::max_rel_error(got.input, ref.input) < 1e-5);
  CHECK(test::max_rel_error(got.weight, ref.weight) < 1e-5);
  CHECK(test::max_rel_error(got.bias, ref.bias) < 1e-5);
}

TEST_CASE("depthwise_conv2d_backward gives the same gradients on several threads",
          "[kernels][conv][backward]") {
  const Case c = depthwise_case(1);
  const Gradients one = depthwise_conv2d_backward(c.x, c.w, true, c.r, c.p);
  set_kernel_threads(3);
  const Gradients three = depthwise_conv2d_backward(c.x, c.w, true, c.r, c.p);
  set_kernel_threads(1);
  CHECK(three.input == one.input);
  CHECK(three.weight == one.weight);
}
