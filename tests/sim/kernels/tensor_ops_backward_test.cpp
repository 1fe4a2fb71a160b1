// Backward passes of add, concat, flatten, dropout and upsample: finite differences of L = sum r * f(x) (see
// gradient_check.hpp) where there is a function of x to differentiate, exact values otherwise.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("add_backward passes the gradient to every input and matches finite differences",
          "[kernels][tensor_ops][backward]") {
  const Tensor a = random_normal({2, 3, 4}, 900), b = random_normal({2, 3, 4}, 901),
               r = random_normal({2, 3, 4}, 902);
  const std::vector<Tensor> g = add_backward(r, 2);
  REQUIRE(g.size() == 2);
  test::check_gradient(
      g[0],
      [&](const Tensor& v) {
        return test::projection(add({&v, &b}), r);
      },
      a);
  test::check_gradient(
      g[1],
      [&](const Tensor& v) {
        return test::projection(add({&a, &v}), r);
      },
      b);
}

TEST_CASE("concat_backward matches finite differences for every input and axis",
          "[kernels][tensor_ops][backward]") {
  // Three (C, H, W) pieces that differ only along `axis`.
  const std::int64_t axis = GENERATE(0, 1, 2);
  std::vector<Tensor> pieces;
  for (std::int64_t i = 0; i < 3; ++i) {
    Shape s{2, 3, 4};
    s[static_cast<std::size_t>(axis)] = i + 1;
    pieces.push_back(random_normal(s, 903 + static_cast<std::uint64_t>(i)));
  }
  const Tensor r = random_normal(concat({&pieces[0], &pieces[1], &pieces[2]}, axis).shape, 906);
  const std::vector<Tensor> g = concat_backward(r, {pieces[0].shape, pieces[1].shape, pieces[2].shape}, axis);
  REQUIRE(g.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    auto loss = [&](const Tensor& v) {
      std::vector<const Tensor*> in{&pieces[0], &pieces[1], &pieces[2]};
      in[i] = &v;
      return test::projection(concat(in, axis), r);
    };
    INFO("input " << i);
    test::check_gradient(g[i], loss, pieces[i]);
  }
}

TEST_CASE("concat_backward rejects shapes that do not concatenate to the gradient's",
          "[kernels][tensor_ops][backward]") {
  const Tensor dy({5, 2});
  CHECK_THROWS_AS(concat_backward(dy, {{2, 2}, {2, 2}}, 0), Error);  // 4 rows, not 5
  CHECK_THROWS_AS(concat_backward(dy, {{2, 2}, {3, 1}}, 0), Error);  // differ outside the axis
  CHECK_THROWS_AS(concat_backward(dy, {{5, 2}}, 2), Error);          // axis out of range
}

TEST_CASE("flatten_backward restores the input's shape", "[kernels][tensor_ops][backward]") {
  const Tensor x = random_normal({2, 3, 4}, 907), r = random_normal({24}, 908);
  const Tensor g = flatten_backward(r, x.shape);
  CHECK(g.shape == x.shape);
  test::check_gradient(
      g, [&](const Tensor& v) { return test::projection(v.reshaped({24}), r); }, x);
  CHECK_THROWS_AS(flatten_backward(r, {5, 5}), Error);
}

TEST_CASE("dropout_mask zeroes about rate of the elements and scales the rest by 1 / (1 - rate)",
          "[kernels][tensor_ops][dropout]") {
  const Tensor mask = dropout_mask({100, 100}, 0.25f, 909);
  std::int64_t zeros = 0;
  for (float m : mask.data) {
    CHECK((m == 0.0f || m == Approx(1.0f / 0.75f)));
    zeros += m == 0.0f;
  }
  // Binomial(10000, 0.25): mean 2500, standard deviation 43; 5 sigma either side.
  CHECK(zeros > 2500 - 217);
  CHECK(zeros < 2500 + 217);
  CHECK(dropout_mask({100, 100}, 0.25f, 909) == mask);  // seeded
  CHECK_THROWS_AS(dropout_mask({3}, 1.0f, 1), Error);
}

TEST_CASE("dropout_backward matches finite differences with the forward's mask",
          "[kernels][tensor_ops][backward]") {
  const Tensor mask = dropout_mask({3, 4, 5}, 0.5f, 910);
  const Tensor x = random_normal({3, 4, 5}, 911), r = random_normal({3, 4, 5}, 912);
  test::check_gradient(
      dropout_backward(r, mask), [&](const Tensor& v) { return test::projection(dropout(v, mask), r); }, x);
  CHECK_THROWS_AS(dropout_backward(r, Tensor({60})), Error);
}

TEST_CASE("upsample_backward matches finite differences in both modes and unequal scales",
          "[kernels][tensor_ops][backward]") {
  const std::string mode = GENERATE(as<std::string>{}, "nearest", "bilinear");
  const std::array<std::int64_t, 2> scale =
      GENERATE(std::array<std::int64_t, 2>{2, 2}, std::array<std::int64_t, 2>{3, 2});
  const Tensor x = random_normal({2, 3, 4}, 913);
  const Tensor r = random_normal(upsample(x, scale, mode).shape, 914);
  INFO(mode << " " << scale[0] << "x" << scale[1]);
  test::check_gradient(
      upsample_backward(x.shape, r, scale, mode),
      [&](const Tensor& v) { return test::projection(upsample(v, scale, mode), r); }, x);
}

TEST_CASE("nearest upsample_backward sums the gradient over each block", "[kernels][tensor_ops][backward]") {
  // (1, 1, 2) upsampled 2x2 to (1, 2, 4): input column 0 feeds output columns 0-1 of both rows.
  const Tensor dy({1, 2, 4}, {1, 2, 3, 4, 10, 20, 30, 40});
  CHECK(upsample_backward({1, 1, 2}, dy, {2, 2}, "nearest") ==
        Tensor({1, 1, 2}, {1 + 2 + 10 + 20, 3 + 4 + 30 + 40}));
}

TEST_CASE("upsample_backward rejects a gradient of the wrong shape and an unknown mode",
          "[kernels][tensor_ops][backward]") {
  CHECK_THROWS_AS(upsample_backward({1, 2, 2}, Tensor({1, 4, 3}), {2, 2}, "nearest"), Error);
  CHECK_THROWS_AS(upsample_backward({1, 2, 2}, Tensor({1, 4, 4}), {2, 2}, "cubic"), Error);
}
