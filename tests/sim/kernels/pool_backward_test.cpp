// Pooling backward passes: finite differences of L = sum r * pool(x) (see gradient_check.hpp) and the
// routing of max pooling's gradient.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/pool.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

PoolParams make_pool(std::int64_t k, std::int64_t s, std::int64_t pad, bool ceil_mode) {
  PoolParams p;
  p.kernel = {k, k};
  p.stride = {s, s};
  p.padding = {pad, pad};
  p.ceil_mode = ceil_mode;
  return p;
}

// 2x2/2; overlapping 3x3/2 in ceil mode (AlexNet's); 3x3/1 with padding 1 (GoogLeNet's); 3x3/2 with
// padding 1 in ceil mode (windows clipped by the padding and the overhang).
PoolParams pool_case(int which) {
  const PoolParams ps[] = {make_pool(2, 2, 0, false), make_pool(3, 2, 0, true), make_pool(3, 1, 1, false),
                           make_pool(3, 2, 1, true)};
  return ps[which];
}

// A (2, 7, 6) input holding the values 0.05 * (a random permutation of 0..83) - 2: no two elements
// within 2 eps of each other, so a finite-difference step never changes which element is a maximum.
Tensor distinct_input(std::uint64_t seed) {
  Tensor x({2, 7, 6});
  std::vector<int> order(static_cast<std::size_t>(x.size()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  for (std::size_t i = 0; i < order.size(); ++i) x.data[i] = 0.05f * static_cast<float>(order[i]) - 2.0f;
  return x;
}

}  // namespace

TEST_CASE("max_pool2d_backward matches finite differences", "[kernels][pool][backward]") {
  const PoolParams p = pool_case(GENERATE(0, 1, 2, 3));
  const Tensor x = distinct_input(600);
  const Tensor r = random_normal(max_pool2d(x, p).shape, 601);
  test::check_gradient(
      max_pool2d_backward(x, r, p), [&](const Tensor& v) { return test::projection(max_pool2d(v, p), r); },
      x);
}

TEST_CASE("max_pool2d_backward sends a tied window's gradient to its first maximum only",
          "[kernels][pool][backward]") {
  // One 2x2 window of equal values: the forward keeps the first (row-major), so only it receives dY.
  const Tensor x({1, 2, 2}, 3.0f), dy({1, 1, 1}, 5.0f);
  CHECK(max_pool2d_backward(x, dy, make_pool(2, 2, 0, false)) == Tensor({1, 2, 2}, {5.0f, 0.0f, 0.0f, 0.0f}));
}

TEST_CASE("avg_pool2d_backward matches finite differences", "[kernels][pool][backward]") {
  const PoolParams p = pool_case(GENERATE(0, 1, 2, 3));
  const Tensor x = random_normal({2, 7, 6}, 602);
  const Tensor r = random_normal(avg_pool2d(x, p).shape, 603);
  test::check_gradient(
      avg_pool2d_backward(x.shape, r, p),
      [&](const Tensor& v) { return test::projection(avg_pool2d(v, p), r); }, x);
}

TEST_CASE("global_avg_pool_backward matches finite differences", "[kernels][pool][backward]") {
  const Tensor x = random_normal({3, 4, 5}, 604), r = random_normal({3, 1, 1}, 605);
  test::check_gradient(
      global_avg_pool_backward(x.shape, r),
      [&](const Tensor& v) { return test::projection(global_avg_pool(v), r); }, x);
}

TEST_CASE("pooling backward rejects a grad_output that is not the output's shape",
          "[kernels][pool][backward]") {
  const Tensor x = random_normal({2, 6, 6}, 606);
  const PoolParams p = make_pool(2, 2, 0, false);  // output (2, 3, 3)
  CHECK_THROWS_AS(max_pool2d_backward(x, Tensor({2, 3, 2}), p), Error);
  CHECK_THROWS_AS(avg_pool2d_backward(x.shape, Tensor({1, 3, 3}), p), Error);
  CHECK_THROWS_AS(global_avg_pool_backward(x.shape, Tensor({2})), Error);
}
