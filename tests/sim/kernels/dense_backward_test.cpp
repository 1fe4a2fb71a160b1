// fully_connected_backward: finite differences of L = sum r * fc(x) (see gradient_check.hpp) and the
// naive chain rule, for a flattened (C, H, W) input and a (T, F) sequence.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

struct Case {
  Tensor x, w, b, r;
};

// which 0: a (2, 3, 4) feature map flattened to 24 inputs, 7 units; 1: a (5, 6) sequence, 4 units.
Case fc_case(int which) {
  const auto s = static_cast<std::uint64_t>(which);
  Case c;
  c.x = random_normal(which == 0 ? Shape{2, 3, 4} : Shape{5, 6}, 500 + s);
  c.w = random_normal(which == 0 ? Shape{7, 24} : Shape{4, 6}, 510 + s);
  c.b = random_normal({c.w.shape[0]}, 520 + s);
  c.r = random_normal(fully_connected(c.x, c.w, c.b).shape, 530 + s);
  return c;
}

// y[t, u] = b[u] + sum_f w[u, f] x[t, f], with x viewed as T x F (T = 1 when flattened), in double.
Gradients naive_fc_backward(const Tensor& x, const Tensor& w, const Tensor& dy) {
  const std::int64_t units = w.shape[0], features = w.shape[1], steps = x.size() / features;
  Gradients g{Tensor(x.shape), Tensor(w.shape), Tensor({units})};
  for (std::int64_t u = 0; u < units; ++u) {
    double db = 0.0;
    for (std::int64_t t = 0; t < steps; ++t) db += dy.data[static_cast<std::size_t>(t * units + u)];
    g.bias.data[static_cast<std::size_t>(u)] = static_cast<float>(db);
    for (std::int64_t f = 0; f < features; ++f) {
      double dw = 0.0;
      for (std::int64_t t = 0; t < steps; ++t)
        dw += static_cast<double>(dy.data[static_cast<std::size_t>(t * units + u)]) *
              x.data[static_cast<std::size_t>(t * features + f)];
      g.weight.data[static_cast<std::size_t>(u * features + f)] = static_cast<float>(dw);
    }
  }
  for (std::int64_t t = 0; t < steps; ++t)
    for (std::int64_t f = 0; f < features; ++f) {
      double dx = 0.0;
      for (std::int64_t u = 0; u < units; ++u)
        dx += static_cast<double>(dy.data[static_cast<std::size_t>(t * units + u)]) *
              w.data[static_cast<std::size_t>(u * features + f)];
      g.input.data[static_cast<std::size_t>(t * features + f)] = static_cast<float>(dx);
    }
  return g;
}

}  // namespace

TEST_CASE("fully_connected_backward's input gradient matches finite differences", "[kernels][fc][backward]") {
  const Case c = fc_case(GENERATE(0, 1));
  const Gradients g = fully_connected_backward(c.x, c.w, true, c.r);
  CHECK(g.input.shape == c.x.shape);
  test::check_gradient(
      g.input, [&](const Tensor& x) { return test::projection(fully_connected(x, c.w, c.b), c.r); }, c.x);
}

TEST_CASE("fully_connected_backward's weight and bias gradients match finite differences",
          "[kernels][fc][backward]") {
  const Case c = fc_case(GENERATE(0, 1));
  const Gradients g = fully_connected_backward(c.x, c.w, true, c.r);
  test::check_gradient(
      g.weight, [&](const Tensor& w) { return test::projection(fully_connected(c.x, w, c.b), c.r); }, c.w);
  test::check_gradient(
      g.bias, [&](const Tensor& b) { return test::projection(fully_connected(c.x, c.w, b), c.r); }, c.b);
}

TEST_CASE("fully_connected_backward matches the naive chain rule", "[kernels][fc][backward]") {
  // Larger than the finite-difference cases: 400 inputs (LeNet's fc1 fan-in) and a 9-step sequence.
  const bool sequence = GENERATE(false, true);
  const Tensor x = random_normal(sequence ? Shape{9, 40} : Shape{16, 5, 5}, 540);
  const Tensor w = random_normal(sequence ? Shape{12, 40} : Shape{30, 400}, 541);
  const Tensor dy = random_normal(sequence ? Shape{9, 12} : Shape{30}, 542);
  const Gradients got = fully_connected_backward(x, w, true, dy), ref = naive_fc_backward(x, w, dy);
  // Sums of at most 400 products of N(0, 1) values: fp32 error ~1e-5, tolerance 1e-4 relative.
  CHECK(test::max_rel_error(got.input, ref.input) < 1e-4);
  CHECK(test::max_rel_error(got.weight, ref.weight) < 1e-4);
  CHECK(test::max_rel_error(got.bias, ref.bias) < 1e-4);
}

TEST_CASE("fully_connected_backward rejects a grad_output that is not the output's shape",
          "[kernels][fc][backward]") {
  const Case c = fc_case(1);  // output (5, 4)
  CHECK_THROWS_AS(fully_connected_backward(c.x, c.w, true, Tensor({4, 5})), Error);
  CHECK_THROWS_AS(fully_connected_backward(c.x, random_normal({4, 7}, 1), true, c.r), Error);
  CHECK(fully_connected_backward(c.x, c.w, false, c.r).bias.empty());
}
