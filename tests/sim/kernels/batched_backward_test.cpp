// The batched backward kernels: B samples' gradients in one call equal B single-sample backward calls
// (input gradients per sample, weight and bias gradients summed), and finite differences of the batched
// forward (see gradient_check.hpp: L = sum r * f(x) over the whole batch).
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/kernels/dense.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

constexpr double kSumTolerance = 1e-4;

Shape with_batch(std::int64_t batch, const Shape& sample) {
  Shape s{batch};
  s.insert(s.end(), sample.begin(), sample.end());
  return s;
}

// Checks batched gradients against the sum of B single-sample ones (`single(x_b, dy_b)`), to fp32
// rounding: the two sum the same products in another order, and the largest case's weight gradient sums
// 3 x 4096 products of N(0, 1) values (entries ~100), where the orders differ by ~1e-5 relative (measured
// 1.02e-5); a wrong index or a missing sample is an O(1) error.
template <class Single>
void check_against_single(const Gradients& batched, const Tensor& x, const Tensor& dy, Single single) {
  const std::int64_t batch = x.shape[0];
  Tensor weight, bias;
  for (std::int64_t b = 0; b < batch; ++b) {
    const Gradients g = single(batch_sample(x, b), batch_sample(dy, b));
    INFO("sample " << b);
    CHECK(test::max_rel_error(batch_sample(batched.input, b), g.input) < kSumTolerance);
    if (b == 0) {
      weight = g.weight;
      bias = g.bias;
    } else {
      weight.vector() += g.weight.vector();
      if (!bias.empty()) bias.vector() += g.bias.vector();
    }
  }
  CHECK(test::max_rel_error(batched.weight, weight) < kSumTolerance);
  REQUIRE(batched.bias.empty() == bias.empty());
  if (!bias.empty()) CHECK(test::max_rel_error(batched.bias, bias) < kSumTolerance);
}

struct ConvCase {
  Shape sample;
  std::int64_t out_channels, kernel;
  ConvParams p;
};

// 0: grouped, strided, padded; 1: dilated, uneven stride (rows the forward's floor drops); 2: pointwise;
// 3: large enough that the column matrix is cut into chunks of one sample (kk * plane = 576 * 4096 >
// kBatchColumnFloats / 2), so the weight gradient accumulates over chunks.
ConvCase conv_case(int which) {
  ConvCase c;
  switch (which) {
    case 0:
      c = {{4, 9, 7}, 6, 3, {}};
      c.p.stride = {2, 1};
      c.p.padding = {1, 2};
      c.p.groups = 2;
      break;
    case 1:
      c = {{3, 10, 9}, 4, 3, {}};
      c.p.stride = {3, 2};
      c.p.dilation = {2, 1};
      break;
    case 2:
      c = {{5, 4, 6}, 3, 1, {}};
      break;
    default:
      c = {{64, 64, 64}, 4, 3, {}};
      c.p.padding = {1, 1};
      break;
  }
  return c;
}

}  // namespace

TEST_CASE("conv2d_batch_backward equals B conv2d_backward calls with summed parameter gradients",
          "[kernels][batch][backward]") {
  const int which = GENERATE(0, 1, 2, 3);
  const std::int64_t batch = GENERATE(1, 3);
  INFO("case " << which << ", batch " << batch);
  const ConvCase c = conv_case(which);
  const Tensor w = random_normal({c.out_channels, c.sample[0] / c.p.groups, c.kernel, c.kernel}, 41);
  const Tensor bias = random_normal({c.out_channels}, 42);
  const Tensor x = random_normal(with_batch(batch, c.sample), 43);
  const Tensor dy = random_normal(conv2d_batch(x, w, bias, c.p, batch).shape, 44);
  const Gradients g = conv2d_batch_backward(x, w, true, dy, c.p, batch);
  check_against_single(
      g, x, dy, [&](const Tensor& xb, const Tensor& dyb) { return conv2d_backward(xb, w, true, dyb, c.p); });
}

TEST_CASE("fully_connected_batch_backward equals B fully_connected_backward calls with summed gradients",
          "[kernels][batch][backward]") {
  // A (2, 3, 4) feature map flattened to 24 inputs, and a (5, 6) sequence; batches below and above
  // the forward's GEMM threshold.
  const bool sequence = GENERATE(false, true);
  const std::int64_t batch = GENERATE(1, 2, 7);
  INFO((sequence ? "sequence" : "flattened") << ", batch " << batch);
  const Tensor w = random_normal(sequence ? Shape{4, 6} : Shape{7, 24}, 51);
  const Tensor x = random_normal(with_batch(batch, sequence ? Shape{5, 6} : Shape{2, 3, 4}), 52);
  const Tensor dy = random_normal(fully_connected_batch(x, w, Tensor(), batch).shape, 53);
  const bool has_bias = !sequence;  // both cases of the bias
  const Gradients g = fully_connected_batch_backward(x, w, has_bias, dy, batch);
  check_against_single(g, x, dy, [&](const Tensor& xb, const Tensor& dyb) {
    return fully_connected_backward(xb, w, has_bias, dyb);
  });
}

TEST_CASE("conv2d_batch_backward's gradients match finite differences of the batched forward",
          "[kernels][batch][backward]") {
  const ConvCase c = conv_case(GENERATE(0, 1));
  const std::int64_t batch = 2;
  const Tensor w = random_normal({c.out_channels, c.sample[0] / c.p.groups, c.kernel, c.kernel}, 61);
  const Tensor bias = random_normal({c.out_channels}, 62);
  const Tensor x = random_normal(with_batch(batch, c.sample), 63);
  const Tensor r = random_normal(conv2d_batch(x, w, bias, c.p, batch).shape, 64);
  const Gradients g = conv2d_batch_backward(x, w, true, r, c.p, batch);
  test::check_gradient(
      g.input, [&](const Tensor& t) { return test::projection(conv2d_batch(t, w, bias, c.p, batch), r); }, x);
  test::check_gradient(
      g.weight, [&](const Tensor& t) { return test::projection(conv2d_batch(x, t, bias, c.p, batch), r); },
      w);
  test::check_gradient(
      g.bias, [&](const Tensor& t) { return test::projection(conv2d_batch(x, w, t, c.p, batch), r); }, bias);
}

TEST_CASE("fully_connected_batch_backward's gradients match finite differences of the batched forward",
          "[kernels][batch][backward]") {
  const std::int64_t batch = GENERATE(2, 5);  // GEMVs and one GEMM in the forward
  const Tensor w = random_normal({7, 24}, 71), bias = random_normal({7}, 72);
  const Tensor x = random_normal({batch, 2, 3, 4}, 73);
  const Tensor r = random_normal({batch, 7}, 74);
  const Gradients g = fully_connected_batch_backward(x, w, true, r, batch);
  test::check_gradient(
      g.input, [&](const Tensor& t) { return test::projection(fully_connected_batch(t, w, bias, batch), r); },
      x);
  test::check_gradient(
      g.weight,
      [&](const Tensor& t) { return test::projection(fully_connected_batch(x, t, bias, batch), r); }, w);
  test::check_gradient(
      g.bias, [&](const Tensor& t) { return test::projection(fully_connected_batch(x, w, t, batch), r); },
      bias);
}

TEST_CASE("the batched backward kernels reject inputs or output gradients that do not hold B samples",
          "[kernels][batch][backward]") {
  const Tensor w = random_normal({6, 4, 3, 3}, 81);
  const Tensor x = random_normal({2, 4, 5, 5}, 82);
  CHECK_THROWS_AS(conv2d_batch_backward(x, w, true, Tensor({2, 6, 4, 3}), {}, 2), Error);  // wrong plane
  CHECK_THROWS_AS(conv2d_batch_backward(x, w, true, Tensor({2, 6, 3, 3}), {}, 3), Error);  // wrong batch
  const Tensor fw = random_normal({3, 8}, 83);
  CHECK_THROWS_AS(fully_connected_batch_backward(Tensor({2, 8}), fw, true, Tensor({3, 3}), 2), Error);
  CHECK_THROWS_AS(fully_connected_batch_backward(Tensor({2, 8}), fw, true, Tensor({2, 4}), 2), Error);
}

TEST_CASE("conv2d_batch cut into chunks of one sample equals the unchunked batch", "[kernels][batch]") {
  // column_floats = 1: every sample its own GEMM (the bound keeps at least one sample per chunk).
  const ConvCase c = conv_case(0);
  const Tensor w = random_normal({c.out_channels, c.sample[0] / c.p.groups, c.kernel, c.kernel}, 91);
  const Tensor bias = random_normal({c.out_channels}, 92), x = random_normal(with_batch(3, c.sample), 93);
  CHECK(test::max_rel_error(conv2d_batch(x, w, bias, c.p, 3, 1), conv2d_batch(x, w, bias, c.p, 3)) <
        kSumTolerance);
}

TEST_CASE("the batched training pair refuses a layer without batched kernels", "[kernels][batch]") {
  Layer relu;
  relu.name = "r";
  relu.op = OpKind::Relu;
  const Tensor x = random_normal({2, 4}, 94);
  CHECK_FALSE(has_batched_backward(relu));
  CHECK_THROWS_WITH(forward_layer_batch(relu, x, {}, 2), Catch::Contains("no batched training kernel"));
  CHECK_THROWS_WITH(backward_layer_batch(relu, x, {}, x, 2), Catch::Contains("no batched backward kernel"));
}
