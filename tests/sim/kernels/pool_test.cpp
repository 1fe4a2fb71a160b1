// Max / average / global pooling against naive loops, with Caffe's ceil-mode and padding rules,
// and agreement with the graph's shape inference.
#include <catch2/catch.hpp>

#include <limits>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph.hpp"
#include "sim/kernels/pool.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;

namespace {

// Caffe: window [y*s - p, min(y*s - p + k, H + p)), divisor = its size, then clipped to [0, H).
Tensor naive_pool(const Tensor& in, const PoolParams& p, bool max, const Shape& out_shape) {
  Tensor out(out_shape);
  const std::int64_t h = in.shape[1], w = in.shape[2];
  for (std::int64_t c = 0; c < out_shape[0]; ++c)
    for (std::int64_t y = 0; y < out_shape[1]; ++y)
      for (std::int64_t x = 0; x < out_shape[2]; ++x) {
        const std::int64_t ys = y * p.stride[0] - p.padding[0], xs = x * p.stride[1] - p.padding[1];
        const std::int64_t ye = std::min(ys + p.kernel[0], h + p.padding[0]);
        const std::int64_t xe = std::min(xs + p.kernel[1], w + p.padding[1]);
        const double area = static_cast<double>((ye - ys) * (xe - xs));
        double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
        for (std::int64_t yy = std::max<std::int64_t>(ys, 0); yy < std::min(ye, h); ++yy)
          for (std::int64_t xx = std::max<std::int64_t>(xs, 0); xx < std::min(xe, w); ++xx)
            acc = max ? std::max<double>(acc, in.at(c, yy, xx)) : acc + in.at(c, yy, xx);
        out.at(c, y, x) = static_cast<float>(max ? acc : acc / area);
      }
  return out;
}

Shape inferred_shape(const Shape& in, const PoolParams& p) {
  Layer l;
  l.op = OpKind::MaxPool;
  l.attrs.kernel = p.kernel;
  l.attrs.stride = p.stride;
  l.attrs.padding = p.padding;
  l.attrs.ceil_mode = p.ceil_mode;
  infer_layer(l, {&in});
  return l.output_shape;
}

}  // namespace

TEST_CASE("max and average pooling match Caffe's rules on random shapes", "[kernels][pool]") {
  std::mt19937_64 rng(41);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    PoolParams p;
    p.kernel = {draw(rng, 1, 4), draw(rng, 1, 4)};
    p.stride = {draw(rng, 1, 3), draw(rng, 1, 3)};
    p.padding = {draw(rng, 0, p.kernel[0] / 2), draw(rng, 0, p.kernel[1] / 2)};
    p.ceil_mode = trial % 2 == 0;
    const Shape in_shape{draw(rng, 1, 3), draw(rng, 1, 11), draw(rng, 1, 11)};
    if (pool_output_size(in_shape[1], p.kernel[0], p.stride[0], p.padding[0], p.ceil_mode) < 1 ||
        pool_output_size(in_shape[2], p.kernel[1], p.stride[1], p.padding[1], p.ceil_mode) < 1)
      continue;
    const Tensor in = random_normal(in_shape, rng());
    const Shape out = inferred_shape(in_shape, p);  // the kernel must agree with shape inference
    INFO("trial " << trial);
    CHECK(max_pool2d(in, p) == naive_pool(in, p, true, out));  // max is exact
    CHECK(test::max_rel_error(avg_pool2d(in, p), naive_pool(in, p, false, out)) < 1e-5);
    ++checked;
  }
  CHECK(checked > 200);
}

TEST_CASE("ceil mode adds a last partial window (AlexNet pool1: 55 -> 27, GoogLeNet 112 -> 56)",
          "[kernels][pool]") {
  PoolParams p{{3, 3}, {2, 2}, {0, 0}, true};
  // (55 - 3) / 2 = 26 exactly: ceil and floor agree, 27 outputs
  CHECK(max_pool2d(random_normal({1, 55, 55}, 1), p).shape == Shape{1, 27, 27});
  // (112 - 3) / 2 = 54.5: ceil gives 56 outputs, floor 55
  CHECK(max_pool2d(random_normal({1, 112, 112}, 1), p).shape == Shape{1, 56, 56});
  p.ceil_mode = false;
  CHECK(max_pool2d(random_normal({1, 112, 112}, 1), p).shape == Shape{1, 55, 55});
}

TEST_CASE("average pooling counts padding but not the ceil overhang", "[kernels][pool]") {
  // 1x3x3 of ones, kernel 2, stride 2, ceil mode, no padding: windows at 0 and 2; the second has
  // one column inside the input and none past it is counted (Caffe clips at H + pad = 3): avg = 1.
  const Tensor ones({1, 3, 3}, 1.0f);
  const Tensor y = avg_pool2d(ones, {{2, 2}, {2, 2}, {0, 0}, true});
  CHECK(y.shape == Shape{1, 2, 2});
  for (float v : y.data) CHECK(v == 1.0f);
  // kernel 3, stride 1, padding 1 on ones 1x3x3: the corner window covers 4 input cells out of 9.
  const Tensor z = avg_pool2d(ones, {{3, 3}, {1, 1}, {1, 1}, false});
  CHECK(z.at(0, 0, 0) == Approx(4.0 / 9.0));
  CHECK(z.at(0, 1, 1) == Approx(1.0));
}

TEST_CASE("global average pooling is the per-channel mean", "[kernels][pool]") {
  const Tensor x({2, 2, 2}, std::vector<float>{1, 2, 3, 4, -1, -1, -1, 5});
  const Tensor y = global_avg_pool(x);
  CHECK(y.shape == Shape{2, 1, 1});
  CHECK(y.data[0] == Approx(2.5f));  // (1 + 2 + 3 + 4) / 4
  CHECK(y.data[1] == Approx(0.5f));  // (-1 - 1 - 1 + 5) / 4
  CHECK_THROWS_AS(global_avg_pool(Tensor({4})), Error);
}
