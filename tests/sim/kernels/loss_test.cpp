// Fused softmax + cross-entropy: the loss against its definition, the gradient against finite
// differences of the loss itself (see gradient_check.hpp; here L is the loss, no projection needed).
#include <catch2/catch.hpp>

#include <cmath>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/loss.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("softmax_cross_entropy of equal logits is log(classes)", "[kernels][loss]") {
  // softmax of 10 equal logits is 1/10 everywhere: loss -log(1/10) = log 10; gradient 0.1 - onehot.
  const LossGradient l = softmax_cross_entropy(Tensor({10}, 3.0f), {4});
  CHECK(l.loss == Approx(std::log(10.0)).epsilon(1e-6));
  CHECK(l.grad.data[4] == Approx(-0.9f));
  CHECK(l.grad.data[0] == Approx(0.1f));
}

TEST_CASE("softmax_cross_entropy stays finite for huge logits", "[kernels][loss]") {
  // Logits (1000, 0): the wrong class wins by 1000, loss = logsumexp - z[1] = 1000 + log(1 + e^-1000) ~ 1000
  // (an unstabilised exp(1000) overflows, and log(softmax) of e^-1000 underflows to log 0).
  const LossGradient l = softmax_cross_entropy(Tensor({2}, {1000.0f, 0.0f}), {1});
  CHECK(l.loss == Approx(1000.0));
  CHECK(l.grad == Tensor({2}, {1.0f, -1.0f}));
}

TEST_CASE("softmax_cross_entropy's gradient matches finite differences of the mean loss", "[kernels][loss]") {
  // A batch of 4 samples of 7 classes: the gradient includes the 1/N of the mean.
  const Tensor z = random_normal({4, 7}, 1000, 0.0f, 2.0f);
  const std::vector<std::int64_t> labels{3, 0, 6, 3};
  test::check_gradient(
      softmax_cross_entropy(z, labels).grad,
      [&](const Tensor& v) { return softmax_cross_entropy(v, labels).loss; }, z);
}

TEST_CASE("softmax_cross_entropy rejects wrong label counts and labels out of range", "[kernels][loss]") {
  CHECK_THROWS_AS(softmax_cross_entropy(Tensor({4, 7}), {1, 2, 3}), Error);
  CHECK_THROWS_AS(softmax_cross_entropy(Tensor({7}), {7}), Error);
  CHECK_THROWS_AS(softmax_cross_entropy(Tensor({7}), {-1}), Error);
  CHECK_THROWS_AS(softmax_cross_entropy(Tensor({2, 3, 4}), {0, 0}), Error);
}
