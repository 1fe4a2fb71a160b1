// sgd_step against PyTorch's update rule worked by hand.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/kernels/sgd.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

TEST_CASE("sgd_step without momentum or decay moves against the gradient", "[kernels][sgd]") {
  // w = 1 - 0.5 * 2 = 0, 2 - 0.5 * (-4) = 4.
  Tensor w({2}, {1.0f, 2.0f}), v;
  sgd_step(w, Tensor({2}, {2.0f, -4.0f}), v, {0.5f, 0.0f, 0.0f});
  CHECK(w == Tensor({2}, {0.0f, 4.0f}));
}

TEST_CASE("sgd_step accumulates momentum with weight decay over two steps", "[kernels][sgd]") {
  // lr 0.1, momentum 0.9, decay 0.5, w0 = 2, grad 1 both times:
  //   step 1: g = 1 + 0.5 * 2 = 2,     v = 2,                  w = 2 - 0.2 = 1.8
  //   step 2: g = 1 + 0.5 * 1.8 = 1.9, v = 0.9 * 2 + 1.9 = 3.7, w = 1.8 - 0.37 = 1.43
  Tensor w({1}, 2.0f), v;
  const Tensor g({1}, 1.0f);
  const SgdParams p{0.1f, 0.9f, 0.5f};
  sgd_step(w, g, v, p);
  CHECK(w.data[0] == Approx(1.8f));
  CHECK(v.data[0] == Approx(2.0f));
  sgd_step(w, g, v, p);
  CHECK(v.data[0] == Approx(3.7f));
  CHECK(w.data[0] == Approx(1.43f));
}

TEST_CASE("sgd_step rejects mismatched shapes and negative rates", "[kernels][sgd]") {
  Tensor w({3}), v;
  CHECK_THROWS_AS(sgd_step(w, Tensor({2}), v, {}), Error);
  Tensor bad_v({2});
  CHECK_THROWS_AS(sgd_step(w, Tensor({3}), bad_v, {}), Error);
  CHECK_THROWS_AS(sgd_step(w, Tensor({3}), v, {-0.1f, 0.0f, 0.0f}), Error);
}
