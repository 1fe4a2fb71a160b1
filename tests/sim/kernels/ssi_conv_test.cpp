// The SSI index layer, mask pooling and ssi_conv2d against conv2d: equal at the active positions,
// bit for bit at density 1, and the base (or 0) at inactive positions.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/ssi_conv.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using Catch::Matchers::Contains;
using test::draw;

namespace {

SpatialMask mask_of(std::int64_t h, std::int64_t w, std::vector<std::uint8_t> active) {
  return {h, w, std::move(active)};
}

// Each position active with probability `density`.
SpatialMask random_mask(std::int64_t h, std::int64_t w, double density, std::mt19937_64& rng) {
  SpatialMask m = SpatialMask::filled(h, w, false);
  std::bernoulli_distribution on(density);
  for (auto& v : m.active) v = on(rng) ? 1 : 0;
  return m;
}

// Largest |a - b| / (1 + |b|) over channel-planes at the positions where `mask` is active.
double max_rel_error_at(const Tensor& a, const Tensor& b, const SpatialMask& mask) {
  const std::int64_t plane = mask.height * mask.width;
  double worst = 0.0;
  for (std::int64_t i = 0; i < a.size(); ++i)
    if (mask.active[static_cast<std::size_t>(i % plane)]) {
      const double ref = b.data[static_cast<std::size_t>(i)];
      worst = std::max(worst, std::abs(a.data[static_cast<std::size_t>(i)] - ref) / (1.0 + std::abs(ref)));
    }
  return worst;
}

}  // namespace

TEST_CASE("the SSI index of the mask 1 0 1 0 0 1 is {0, 2, 5}", "[kernels][ssi]") {
  // [Mao-PhD Fig. 4.9]: the non-zero positions of a 2x3 mask, flattened row by row.
  CHECK(ssi_index(mask_of(2, 3, {1, 0, 1, 0, 0, 1})) == std::vector<std::int64_t>{0, 2, 5});
  CHECK(ssi_index(SpatialMask::filled(2, 3, false)).empty());
}

TEST_CASE("a mask's density is its share of active positions", "[kernels][ssi]") {
  CHECK(mask_of(2, 3, {1, 0, 1, 0, 0, 1}).density() == Approx(0.5));  // 3 of 6
  CHECK(SpatialMask::filled(4, 4, true).density() == 1.0);
}

TEST_CASE("downsample_mask max-pools by default", "[kernels][ssi]") {
  // 4x4 to 2x2: each output pools a 2x2 window; only the top-left and bottom-right windows hold an
  // active position.
  const SpatialMask m = mask_of(4, 4,
                                {1, 0, 0, 0,  //
                                 0, 0, 0, 0,  //
                                 0, 0, 0, 0,  //
                                 0, 0, 0, 1});
  const SpatialMask d = downsample_mask(m, 2, 2);
  CHECK(d.height == 2);
  CHECK(d.width == 2);
  CHECK(d.active == std::vector<std::uint8_t>{1, 0, 0, 1});
}

TEST_CASE("downsample_mask keeps a window only above the share threshold", "[kernels][ssi]") {
  // Window shares: top-left 2/4, top-right 1/4, bottom-left 0, bottom-right 4/4; threshold 0.25
  // keeps the windows with more than a quarter active.
  const SpatialMask m = mask_of(4, 4,
                                {1, 1, 0, 1,  //
                                 0, 0, 0, 0,  //
                                 0, 0, 1, 1,  //
                                 0, 0, 1, 1});
  CHECK(downsample_mask(m, 2, 2, 0.25).active == std::vector<std::uint8_t>{1, 0, 0, 1});
}

TEST_CASE("downsample_mask pools sizes that do not divide with overlapping windows", "[kernels][ssi]") {
  // 5 columns to 2: windows [floor(0*5/2), ceil(1*5/2)) = [0, 3) and [floor(1*5/2), ceil(2*5/2)) = [2, 5),
  // so column 2 belongs to both.
  CHECK(downsample_mask(mask_of(1, 5, {0, 0, 1, 0, 0}), 1, 2).active == std::vector<std::uint8_t>{1, 1});
  CHECK(downsample_mask(mask_of(1, 5, {0, 0, 0, 1, 0}), 1, 2).active == std::vector<std::uint8_t>{0, 1});
}

TEST_CASE("downsample_mask rejects growing the mask, and a share below 0 or of 1 and above",
          "[kernels][ssi]") {
  const SpatialMask m = SpatialMask::filled(4, 4, true);
  CHECK_THROWS_WITH(downsample_mask(m, 8, 4), Contains("cannot pool a 4x4 mask to 8x4"));
  CHECK_THROWS_WITH(downsample_mask(m, 2, 2, 1.0), Contains("min_share must be in [0, 1)"));
}

TEST_CASE("ssi_conv2d equals conv2d at every active position on random shapes", "[kernels][ssi]") {
  // Random kernels (1-5), strides (1-3), paddings (0-2), dilations (1-2), groups (1-2) and densities;
  // sums of <= 100 products of N(0, 1) values: fp32 error ~1e-6, tolerance 1e-4 relative.
  std::mt19937_64 rng(31);
  int checked = 0;
  for (int trial = 0; trial < 150; ++trial) {
    ConvParams p;
    p.stride = {draw(rng, 1, 3), draw(rng, 1, 3)};
    p.padding = {draw(rng, 0, 2), draw(rng, 0, 2)};
    p.dilation = {draw(rng, 1, 2), draw(rng, 1, 2)};
    p.groups = draw(rng, 1, 2);
    const std::int64_t c = p.groups * draw(rng, 1, 4), oc = p.groups * draw(rng, 1, 5);
    const std::int64_t kh = draw(rng, 1, 5), kw = draw(rng, 1, 5), h = draw(rng, 1, 14), w = draw(rng, 1, 14);
    const std::int64_t oh = conv_output_size(h, kh, p.stride[0], p.padding[0], p.dilation[0]);
    const std::int64_t ow = conv_output_size(w, kw, p.stride[1], p.padding[1], p.dilation[1]);
    if (oh < 1 || ow < 1) continue;  // kernel does not fit
    const Tensor in = random_normal({c, h, w}, rng()), wt = random_normal({oc, c / p.groups, kh, kw}, rng());
    const Tensor b = trial % 2 ? random_normal({oc}, rng()) : Tensor();
    const SpatialMask mask =
        random_mask(oh, ow, std::uniform_real_distribution<double>(0.05, 0.95)(rng), rng);
    INFO("trial " << trial);
    CHECK(max_rel_error_at(ssi_conv2d(in, wt, b, p, mask), conv2d(in, wt, b, p), mask) < 1e-4);
    ++checked;
  }
  CHECK(checked > 80);
}

TEST_CASE("ssi_conv2d with a few active positions (one GEMV per output channel) equals conv2d there",
          "[kernels][ssi]") {
  // conv6_1's case scaled down: 3x3 over 64 channels on a 5x8 map, 4 of 40 outputs active (at most 8
  // take the GEMV path); sums of 576 products, tolerance 1e-4 relative.
  std::mt19937_64 rng(34);
  const Tensor in = random_normal({64, 5, 8}, rng()), wt = random_normal({32, 64, 3, 3}, rng());
  const Tensor b = random_normal({32}, rng());
  ConvParams p;
  p.padding = {1, 1};
  SpatialMask mask = SpatialMask::filled(5, 8, false);
  for (std::size_t i : {0, 9, 22, 39}) mask.active[i] = 1;  // two corners, two inside
  CHECK(max_rel_error_at(ssi_conv2d(in, wt, b, p, mask), conv2d(in, wt, b, p), mask) < 1e-4);
}

TEST_CASE("ssi_conv2d at density 1 is conv2d bit for bit", "[kernels][ssi]") {
  // Same column matrix, same GEMM sizes, same bias-then-accumulate order: identical floats. The
  // 5x5 stride-2 and 3x3 stride-1 cases are FlowNet's conv3 and conv3_1 shapes, scaled down; the 1x1
  // case is conv2d's pointwise path (no column matrix).
  std::mt19937_64 rng(32);
  const Tensor in = random_normal({16, 20, 24}, rng());
  for (const auto& [k, s, pad] : {std::array<std::int64_t, 3>{5, 2, 2}, {3, 1, 1}, {1, 1, 0}}) {
    ConvParams p;
    p.stride = {s, s};
    p.padding = {pad, pad};
    const Tensor wt = random_normal({24, 16, k, k}, rng()), b = random_normal({24}, rng());
    const Tensor dense = conv2d(in, wt, b, p);
    INFO("kernel " << k << " stride " << s);
    CHECK(ssi_conv2d(in, wt, b, p, SpatialMask::filled(dense.shape[1], dense.shape[2], true)) == dense);
  }
}

TEST_CASE("ssi_conv2d leaves inactive outputs at 0 without a base", "[kernels][ssi]") {
  // 1 channel in and out, 1x1 weight 2, bias 1: active outputs 2x + 1, inactive 0 (not the bias).
  const Tensor in({1, 2, 2}, {1, 2, 3, 4});
  const Tensor y = ssi_conv2d(in, Tensor({1, 1, 1, 1}, 2.0f), Tensor({1}, 1.0f), ConvParams(),
                              mask_of(2, 2, {1, 0, 0, 1}));
  CHECK(y.data == std::vector<float>{3, 0, 0, 9});
}

TEST_CASE("ssi_conv2d keeps the base's values at inactive outputs", "[kernels][ssi]") {
  // As above with the previous output {10, 20, 30, 40} as base: positions 1 and 2 keep 20 and 30.
  const Tensor in({1, 2, 2}, {1, 2, 3, 4});
  const Tensor base({1, 2, 2}, {10, 20, 30, 40});
  const Tensor y = ssi_conv2d(in, Tensor({1, 1, 1, 1}, 2.0f), Tensor({1}, 1.0f), ConvParams(),
                              mask_of(2, 2, {1, 0, 0, 1}), base);
  CHECK(y.data == std::vector<float>{3, 20, 30, 9});
}

TEST_CASE("ssi_conv2d_into rewrites only the active positions of the given output", "[kernels][ssi]") {
  // As above, in place on {10, 20, 30, 40}: the same {3, 20, 30, 9}.
  const Tensor in({1, 2, 2}, {1, 2, 3, 4});
  Tensor y({1, 2, 2}, {10, 20, 30, 40});
  ssi_conv2d_into(in, Tensor({1, 1, 1, 1}, 2.0f), Tensor({1}, 1.0f), ConvParams(),
                  mask_of(2, 2, {1, 0, 0, 1}), y);
  CHECK(y.data == std::vector<float>{3, 20, 30, 9});
}

TEST_CASE("ssi_conv2d with an empty mask returns the base unchanged", "[kernels][ssi]") {
  std::mt19937_64 rng(33);
  const Tensor in = random_normal({3, 6, 6}, rng()), wt = random_normal({4, 3, 3, 3}, rng());
  const Tensor base = random_normal({4, 4, 4}, rng());
  CHECK(ssi_conv2d(in, wt, Tensor(), ConvParams(), SpatialMask::filled(4, 4, false), base) == base);
}

TEST_CASE("ssi_conv2d rejects a mask or base of another size than the output", "[kernels][ssi]") {
  const Tensor in({1, 6, 6}), wt({2, 1, 3, 3});  // output 2x4x4
  CHECK_THROWS_WITH(ssi_conv2d(in, wt, Tensor(), ConvParams(), SpatialMask::filled(6, 6, true)),
                    Contains("mask 6x6 is not the output's 4x4"));
  CHECK_THROWS_WITH(
      ssi_conv2d(in, wt, Tensor(), ConvParams(), SpatialMask::filled(4, 4, true), Tensor({2, 6, 6})),
      Contains("base [2,6,6] is not the output shape [2,4,4]"));
  CHECK_THROWS_AS(
      ssi_conv2d(in, Tensor({2, 3, 3, 3}), Tensor(), ConvParams(), SpatialMask::filled(4, 4, true)), Error);
}
