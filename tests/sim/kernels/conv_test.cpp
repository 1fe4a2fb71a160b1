// conv2d, depthwise_conv2d and conv_transpose2d against naive loops written from their definitions,
// on seeded random shapes covering stride, padding, dilation, groups, 1x1 and non-square kernels.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "naive_conv.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/gemm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;
using test::naive_conv;

namespace {

// Transposed conv by scattering: out[o, y*s - p + i*d, x*s - p + j*d] += w[c, o - o0, i, j] * in[c, y, x].
Tensor naive_conv_transpose(const Tensor& in, const Tensor& w, const Tensor& b, const ConvParams& p) {
  const std::int64_t c = in.shape[0], h = in.shape[1], wd = in.shape[2], g = p.groups;
  const std::int64_t ocg = w.shape[1], kh = w.shape[2], kw = w.shape[3], oc = ocg * g, icg = c / g;
  const std::int64_t oh =
      (h - 1) * p.stride[0] - 2 * p.padding[0] + p.dilation[0] * (kh - 1) + p.output_padding[0] + 1;
  const std::int64_t ow =
      (wd - 1) * p.stride[1] - 2 * p.padding[1] + p.dilation[1] * (kw - 1) + p.output_padding[1] + 1;
  std::vector<double> acc(static_cast<std::size_t>(oc * oh * ow), 0.0);
  for (std::int64_t ci = 0; ci < c; ++ci)
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < wd; ++x)
        for (std::int64_t o = 0; o < ocg; ++o)
          for (std::int64_t i = 0; i < kh; ++i)
            for (std::int64_t j = 0; j < kw; ++j) {
              const std::int64_t oy = y * p.stride[0] - p.padding[0] + i * p.dilation[0];
              const std::int64_t ox = x * p.stride[1] - p.padding[1] + j * p.dilation[1];
              if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
              const std::int64_t oo = (ci / icg) * ocg + o;
              acc[static_cast<std::size_t>((oo * oh + oy) * ow + ox)] +=
                  static_cast<double>(w.data[((ci * ocg + o) * kh + i) * kw + j]) * in.at(ci, y, x);
            }
  Tensor out({oc, oh, ow});
  for (std::size_t k = 0; k < acc.size(); ++k)
    out.data[k] =
        static_cast<float>(acc[k] + (b.empty() ? 0.0 : b.data[k / static_cast<std::size_t>(oh * ow)]));
  return out;
}

ConvParams random_params(std::mt19937_64& rng) {
  ConvParams p;
  p.stride = {draw(rng, 1, 3), draw(rng, 1, 3)};
  p.padding = {draw(rng, 0, 2), draw(rng, 0, 2)};
  p.dilation = {draw(rng, 1, 2), draw(rng, 1, 2)};
  return p;
}

}  // namespace

TEST_CASE("conv2d matches the naive convolution on random shapes", "[kernels][conv]") {
  std::mt19937_64 rng(21);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    ConvParams p = random_params(rng);
    p.groups = draw(rng, 1, 3);
    const std::int64_t c = p.groups * draw(rng, 1, 4), oc = p.groups * draw(rng, 1, 4);
    const std::int64_t kh = draw(rng, 1, 4), kw = draw(rng, 1, 4);  // non-square kernels included
    const std::int64_t h = draw(rng, 1, 12), w = draw(rng, 1, 12);
    if ((h + 2 * p.padding[0] - p.dilation[0] * (kh - 1) - 1) < 0 ||
        (w + 2 * p.padding[1] - p.dilation[1] * (kw - 1) - 1) < 0)
      continue;  // kernel does not fit
    const Tensor in = random_normal({c, h, w}, rng()), wt = random_normal({oc, c / p.groups, kh, kw}, rng());
    const Tensor b = trial % 2 ? random_normal({oc}, rng()) : Tensor();
    // Sums of <= 48 products of N(0,1) values: fp32 error ~1e-6, tolerance 1e-4 relative.
    INFO("trial " << trial);
    CHECK(test::max_rel_error(conv2d(in, wt, b, p), naive_conv(in, wt, b, p)) < 1e-4);
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("conv2d edge cases: 1x1 pointwise, stride 2 with padding, dilation, depthwise-as-groups",
          "[kernels][conv]") {
  std::mt19937_64 rng(22);
  const Tensor in = random_normal({6, 9, 7}, rng());
  ConvParams pointwise;
  const Tensor w1 = random_normal({5, 6, 1, 1}, rng());
  CHECK(test::max_rel_error(conv2d(in, w1, Tensor(), pointwise), naive_conv(in, w1, Tensor(), pointwise)) <
        1e-4);
  ConvParams s2;
  s2.stride = {2, 2};
  s2.padding = {1, 1};
  const Tensor w3 = random_normal({4, 6, 3, 3}, rng());
  const Tensor y = conv2d(in, w3, Tensor(), s2);
  CHECK(y.shape == Shape{4, 5, 4});  // floor((9 + 2 - 3) / 2) + 1 = 5, floor((7 + 2 - 3) / 2) + 1 = 4
  CHECK(test::max_rel_error(y, naive_conv(in, w3, Tensor(), s2)) < 1e-4);
  ConvParams dil;
  dil.dilation = {2, 3};
  CHECK(test::max_rel_error(conv2d(in, w3, Tensor(), dil), naive_conv(in, w3, Tensor(), dil)) < 1e-4);
  ConvParams grouped;
  grouped.groups = 6;  // one filter per channel
  const Tensor wg = random_normal({6, 1, 3, 3}, rng());
  CHECK(test::max_rel_error(conv2d(in, wg, Tensor(), grouped), naive_conv(in, wg, Tensor(), grouped)) < 1e-4);
}

TEST_CASE("conv2d gives the same result on several threads", "[kernels][conv]") {
  const Tensor in = random_normal({8, 20, 20}, 1), w = random_normal({16, 8, 3, 3}, 2);
  ConvParams p;
  p.padding = {1, 1};
  const Tensor one = conv2d(in, w, Tensor(), p);
  set_kernel_threads(3);
  const Tensor three = conv2d(in, w, Tensor(), p);
  set_kernel_threads(1);
  CHECK(test::max_rel_error(three, one) < 1e-5);
}

TEST_CASE("conv2d rejects inconsistent shapes", "[kernels][conv]") {
  const Tensor in = random_normal({4, 5, 5}, 1);
  CHECK_THROWS_AS(conv2d(in, random_normal({2, 3, 3, 3}, 1), Tensor(), {}), Error);  // 3 != 4 input channels
  CHECK_THROWS_AS(conv2d(in, random_normal({2, 4, 7, 7}, 1), Tensor(), {}), Error);  // kernel does not fit
  CHECK_THROWS_AS(conv2d(in, random_normal({2, 4, 3, 3}, 1), Tensor({3}), {}), Error);  // bias size
  // A 2x2 kernel on a 1x1 input at stride 2: (1 - 1 - 1) / 2 truncates to 0 in C++, floor gives -1.
  ConvParams s2;
  s2.stride = {2, 2};
  CHECK_THROWS_AS(conv2d(Tensor({1, 1, 1}), random_normal({1, 1, 2, 2}, 1), Tensor(), s2), Error);
  CHECK_THROWS_AS(depthwise_conv2d(Tensor({1, 1, 1}), random_normal({1, 1, 2, 2}, 1), Tensor(), s2), Error);
}

TEST_CASE("depthwise_conv2d equals a grouped conv2d with groups = channels", "[kernels][conv]") {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 100; ++trial) {
    ConvParams p = random_params(rng);
    const std::int64_t c = draw(rng, 1, 5), mult = draw(rng, 1, 3), kh = draw(rng, 1, 4),
                       kw = draw(rng, 1, 4);
    const std::int64_t h = draw(rng, 4, 12), w = draw(rng, 4, 12);
    if ((h + 2 * p.padding[0] - p.dilation[0] * (kh - 1) - 1) < 0 ||
        (w + 2 * p.padding[1] - p.dilation[1] * (kw - 1) - 1) < 0)
      continue;
    const Tensor in = random_normal({c, h, w}, rng()), wt = random_normal({c * mult, 1, kh, kw}, rng());
    const Tensor b = random_normal({c * mult}, rng());
    // Output channel o reads input o / mult: exactly conv2d with groups = c (c*mult outputs, c groups).
    ConvParams g = p;
    g.groups = c;
    INFO("trial " << trial);
    CHECK(test::max_rel_error(depthwise_conv2d(in, wt, b, p), naive_conv(in, wt, b, g)) < 1e-4);
  }
}

TEST_CASE("conv_transpose2d matches the naive scatter on random shapes", "[kernels][conv]") {
  std::mt19937_64 rng(24);
  for (int trial = 0; trial < 150; ++trial) {
    ConvParams p = random_params(rng);
    p.groups = draw(rng, 1, 2);
    for (int i = 0; i < 2; ++i) p.output_padding[i] = draw(rng, 0, std::max(p.stride[i], p.dilation[i]) - 1);
    const std::int64_t c = p.groups * draw(rng, 1, 3), ocg = draw(rng, 1, 3), kh = draw(rng, 1, 4),
                       kw = draw(rng, 1, 4);
    const std::int64_t h = draw(rng, 1, 8), w = draw(rng, 1, 8);
    const std::int64_t oh =
        (h - 1) * p.stride[0] - 2 * p.padding[0] + p.dilation[0] * (kh - 1) + p.output_padding[0] + 1;
    const std::int64_t ow =
        (w - 1) * p.stride[1] - 2 * p.padding[1] + p.dilation[1] * (kw - 1) + p.output_padding[1] + 1;
    if (oh < 1 || ow < 1) continue;
    const Tensor in = random_normal({c, h, w}, rng()), wt = random_normal({c, ocg, kh, kw}, rng());
    const Tensor b = trial % 2 ? random_normal({ocg * p.groups}, rng()) : Tensor();
    INFO("trial " << trial);
    CHECK(test::max_rel_error(conv_transpose2d(in, wt, b, p), naive_conv_transpose(in, wt, b, p)) < 1e-4);
  }
}

TEST_CASE("conv_transpose2d with stride 2 doubles the size (DCGAN-style 4x4, pad 1)", "[kernels][conv]") {
  ConvParams p;
  p.stride = {2, 2};
  p.padding = {1, 1};
  const Tensor in = random_normal({3, 5, 6}, 5), w = random_normal({3, 2, 4, 4}, 6);
  const Tensor y = conv_transpose2d(in, w, Tensor(), p);
  CHECK(y.shape == Shape{2, 10, 12});  // (5 - 1) * 2 - 2 + 3 + 1 = 10, (6 - 1) * 2 - 2 + 3 + 1 = 12
  CHECK(test::max_rel_error(y, naive_conv_transpose(in, w, Tensor(), p)) < 1e-4);
}
