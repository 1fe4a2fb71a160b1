// Element-wise activations and softmax against their formulas.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_test_util.hpp"
#include "sim/kernels/activation.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("activations follow their formulas element by element", "[kernels][activation]") {
  const Tensor x = random_normal({3, 5, 7}, 51, 0.0f, 4.0f);
  const Tensor r = relu(x), r6 = relu6(x), s = sigmoid(x), t = tanh(x), l = leaky_relu(x, 0.1f);
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const double v = x.data[i];
    CHECK(r.data[i] == (v > 0 ? v : 0.0));
    CHECK(r6.data[i] == std::min(6.0, std::max(0.0, v)));
    CHECK(s.data[i] == Approx(1.0 / (1.0 + std::exp(-v))).margin(1e-6));
    CHECK(t.data[i] == Approx(std::tanh(v)).margin(1e-6));
    CHECK(l.data[i] == Approx(v >= 0 ? v : 0.1 * v));
  }
}

TEST_CASE("hard_sigmoid is max(0, min(1, slope x + offset))", "[kernels][activation]") {
  const Tensor y = hard_sigmoid(Tensor({5}, {-4.0f, -3.0f, 0.0f, 1.5f, 4.0f}), 1.0f / 6, 0.5f);
  CHECK(y.data[0] == 0.0f);
  CHECK(y.data[1] == Approx(0.0f).margin(1e-7));
  CHECK(y.data[2] == 0.5f);
  CHECK(y.data[3] == Approx(0.75f));
  CHECK(y.data[4] == 1.0f);
}

TEST_CASE("softmax normalises the channel axis of a feature map and the last axis otherwise",
          "[kernels][softmax]") {
  // (C, H, W): at each pixel, softmax over C.
  const Tensor x = random_normal({4, 3, 2}, 52, 0.0f, 3.0f);
  const Tensor y = softmax(x);
  for (std::int64_t h = 0; h < 3; ++h)
    for (std::int64_t w = 0; w < 2; ++w) {
      double z = 0.0;
      for (std::int64_t c = 0; c < 4; ++c) z += std::exp(static_cast<double>(x.at(c, h, w)));
      for (std::int64_t c = 0; c < 4; ++c)
        CHECK(y.at(c, h, w) == Approx(std::exp(x.at(c, h, w)) / z).margin(1e-6));
    }
  // (T, F): each row sums to 1.
  const Tensor s = softmax(random_normal({5, 6}, 53));
  for (std::int64_t t = 0; t < 5; ++t) {
    double sum = 0.0;
    for (std::int64_t f = 0; f < 6; ++f) sum += s.data[static_cast<std::size_t>(t * 6 + f)];
    CHECK(sum == Approx(1.0).margin(1e-6));
  }
}

TEST_CASE("softmax is stable for large logits", "[kernels][softmax]") {
  // exp(1000) overflows; after subtracting the max: exp(0) / (exp(0) + exp(-1)) = 1 / (1 + e^-1) = 0.731
  const Tensor y = softmax(Tensor({2}, std::vector<float>{1000.0f, 999.0f}));
  CHECK(y.data[0] == Approx(1.0 / (1.0 + std::exp(-1.0))));
  CHECK(std::isfinite(y.data[1]));
}
