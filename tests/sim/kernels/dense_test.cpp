// Dense and sparse fully connected layers and magnitude pruning.
#include <catch2/catch.hpp>

#include <algorithm>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;

namespace {

// y[u] = b[u] + sum_i W[u, i] x[i]
Tensor naive_fc(const Tensor& x, const Tensor& w, const Tensor& b) {
  const std::int64_t units = w.shape[0], n = w.shape[1];
  Tensor y({units});
  for (std::int64_t u = 0; u < units; ++u) {
    double s = b.empty() ? 0.0 : b.data[u];
    for (std::int64_t i = 0; i < n; ++i) s += static_cast<double>(w.data[u * n + i]) * x.data[i];
    y.data[u] = static_cast<float>(s);
  }
  return y;
}

}  // namespace

TEST_CASE("fully_connected matches the naive product and flattens its input", "[kernels][fc]") {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 50; ++trial) {
    const auto c = draw(rng, 1, 4), h = draw(rng, 1, 6), w = draw(rng, 1, 6), units = draw(rng, 1, 40);
    const Tensor x = random_normal({c, h, w}, rng()), wt = random_normal({units, c * h * w}, rng());
    const Tensor b = trial % 2 ? random_normal({units}, rng()) : Tensor();
    CHECK(test::max_rel_error(fully_connected(x, wt, b), naive_fc(x, wt, b)) < 1e-4);
  }
  CHECK_THROWS_AS(fully_connected(Tensor({5}), Tensor({3, 4}), Tensor()), Error);
}

TEST_CASE("fully_connected on a (T, F) sequence applies the same weights at every step", "[kernels][fc]") {
  std::mt19937_64 rng(37);
  for (int trial = 0; trial < 30; ++trial) {
    const auto steps = draw(rng, 1, 9), features = draw(rng, 1, 30), units = draw(rng, 1, 40);
    const Tensor x = random_normal({steps, features}, rng()), wt = random_normal({units, features}, rng());
    const Tensor b = trial % 2 ? random_normal({units}, rng()) : Tensor();
    const Tensor y = fully_connected(x, wt, b);
    REQUIRE(y.shape == Shape{steps, units});
    for (std::int64_t t = 0; t < steps; ++t) {
      Tensor xt({features}), yt({units});
      std::copy_n(x.ptr() + t * features, features, xt.ptr());
      std::copy_n(y.ptr() + t * units, units, yt.ptr());
      CHECK(test::max_rel_error(yt, naive_fc(xt, wt, b)) < 1e-4);
    }
  }
  CHECK_THROWS_AS(fully_connected(Tensor({2, 5}), Tensor({3, 10}), Tensor()), Error);
}

TEST_CASE("prune_to_csr keeps the largest magnitudes of every row", "[kernels][fc]") {
  std::mt19937_64 rng(32);
  for (double sparsity : {0.0, 0.5, 0.9, 0.97}) {
    const Tensor w = random_normal({7, 100}, rng());
    const CsrMatrix s = prune_to_csr(w, sparsity);
    // round((1 - s) * 100) entries per row: 100, 50, 10, 3
    const auto keep = static_cast<std::int64_t>(std::llround((1.0 - sparsity) * 100));
    for (std::int64_t r = 0; r < 7; ++r) {
      CHECK(s.row(r).nonZeros() == keep);
      // every dropped magnitude is <= every kept magnitude
      float min_kept = 1e30f, max_dropped = 0.0f;
      for (std::int64_t c = 0; c < 100; ++c) {
        const float v = w.data[r * 100 + c], kept = s.coeff(r, c);
        if (kept != 0.0f) {
          CHECK(kept == v);
          min_kept = std::min(min_kept, std::abs(v));
        } else {
          max_dropped = std::max(max_dropped, std::abs(v));
        }
      }
      CHECK(max_dropped <= min_kept);
    }
  }
  CHECK_THROWS_AS(prune_to_csr(Tensor({2, 2}), 1.0), Error);
  CHECK_THROWS_AS(prune_to_csr(Tensor({2, 2}), -0.1), Error);
}

TEST_CASE("sparse_fully_connected equals the dense product with the pruned matrix", "[kernels][fc]") {
  std::mt19937_64 rng(33);
  for (int trial = 0; trial < 30; ++trial) {
    const auto n = draw(rng, 1, 200), units = draw(rng, 1, 50);
    const Tensor x = random_normal({n}, rng()), w = random_normal({units, n}, rng()),
                 b = random_normal({units}, rng());
    const CsrMatrix s = prune_to_csr(w, 0.8);
    Tensor dense({units, n});
    dense.matrix(units, n) = s.toDense();
    CHECK(test::max_rel_error(sparse_fully_connected(x, s, b), naive_fc(x, dense, b)) < 1e-4);
  }
  // CSR bytes: 3 rows x 2 nonzeros x (4 B value + 4 B index) + (3 + 1) row pointers x 4 B = 64
  CHECK(csr_size_bytes(prune_to_csr(random_normal({3, 4}, 1), 0.5)) == 64);
}
