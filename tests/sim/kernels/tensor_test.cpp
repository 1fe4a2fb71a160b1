// Tensor storage, seeded random fills and seed derivation.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor.hpp"

using namespace coinfer;

TEST_CASE("a tensor is row-major and checks its sizes", "[kernels][tensor]") {
  Tensor t({2, 3, 4});
  t.at(1, 2, 3) = 5.0f;
  CHECK(t.data[(1 * 3 + 2) * 4 + 3] == 5.0f);  // (c*H + h)*W + w
  CHECK(t.matrix(2, 12)(1, 11) == 5.0f);
  CHECK_THROWS_AS(t.matrix(5, 5), Error);
  CHECK_THROWS_AS(Tensor({2, 2}, std::vector<float>{1, 2, 3}), Error);
  CHECK_THROWS_AS(Tensor({-1, 2}), Error);
  CHECK(t.reshaped({24}).shape == Shape{24});
  CHECK_THROWS_AS(t.reshaped({5}), Error);
}

TEST_CASE("random fills are reproducible from the seed and have the requested moments", "[kernels][tensor]") {
  const Tensor a = random_normal({100000}, 42, 1.0f, 2.0f);
  CHECK(a == random_normal({100000}, 42, 1.0f, 2.0f));
  CHECK_FALSE(a == random_normal({100000}, 43, 1.0f, 2.0f));
  // Sample mean of 1e5 draws of N(1, 4): standard error 2 / sqrt(1e5) = 0.0063; variance within ~2%.
  const double mean = tensor_sum(a) / 1e5;
  double var = 0.0;
  for (float v : a.data) var += (v - mean) * (v - mean);
  var /= 1e5;
  CHECK(mean == Approx(1.0).margin(0.03));
  CHECK(var == Approx(4.0).epsilon(0.03));
  const Tensor u = random_uniform({100000}, 1, -1.0f, 3.0f);
  CHECK(*std::min_element(u.data.begin(), u.data.end()) >= -1.0f);
  CHECK(*std::max_element(u.data.begin(), u.data.end()) < 3.0f);
  CHECK(tensor_sum(u) / 1e5 == Approx(1.0).margin(0.02));  // mean of U[-1, 3) is 1
}

TEST_CASE("derived seeds differ by label and by base seed", "[kernels][tensor]") {
  CHECK(derive_seed(7, "conv1") == derive_seed(7, "conv1"));
  CHECK(derive_seed(7, "conv1") != derive_seed(7, "conv2"));
  CHECK(derive_seed(7, "conv1") != derive_seed(8, "conv1"));
}
