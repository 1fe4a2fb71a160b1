// The LSTM kernel against a scalar loop written from the gate equations.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/lstm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;
using test::draw;

namespace {

double sig(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// One direction: z = W_ih x_t + W_hh h + b; i, f, o = sigmoid, g = tanh; c = f c + i g; h = o tanh(c).
std::vector<std::vector<double>> naive_direction(const std::vector<std::vector<double>>& x,
                                                 const LstmCellWeights& w, bool reverse) {
  const std::size_t t_n = x.size(), f = x[0].size(), h = static_cast<std::size_t>(w.w_hh.shape[1]);
  std::vector<double> hs(h, 0.0), cs(h, 0.0);
  std::vector<std::vector<double>> out(t_n, std::vector<double>(h));
  for (std::size_t s = 0; s < t_n; ++s) {
    const std::size_t t = reverse ? t_n - 1 - s : s;
    std::vector<double> z(4 * h);
    for (std::size_t r = 0; r < 4 * h; ++r) {
      z[r] = w.bias.empty() ? 0.0 : w.bias.data[r];
      for (std::size_t k = 0; k < f; ++k) z[r] += w.w_ih.data[r * f + k] * x[t][k];
      for (std::size_t k = 0; k < h; ++k) z[r] += w.w_hh.data[r * h + k] * hs[k];
    }
    for (std::size_t k = 0; k < h; ++k) {
      cs[k] = sig(z[h + k]) * cs[k] + sig(z[k]) * std::tanh(z[2 * h + k]);
      hs[k] = sig(z[3 * h + k]) * std::tanh(cs[k]);
    }
    out[t] = hs;
  }
  return out;
}

}  // namespace

TEST_CASE("lstm matches the gate equations (stacked, bidirectional, last step)", "[kernels][lstm]") {
  std::mt19937_64 rng(81);
  for (int trial = 0; trial < 20; ++trial) {
    const std::int64_t t_n = draw(rng, 1, 6), f = draw(rng, 1, 5), h = draw(rng, 1, 5),
                       layers = draw(rng, 1, 2);
    const bool bi = trial % 2 == 1, seq = trial % 3 != 0;
    const std::int64_t dirs = bi ? 2 : 1;
    std::vector<LstmCellWeights> cells;
    for (std::int64_t l = 0; l < layers; ++l)
      for (std::int64_t d = 0; d < dirs; ++d) {
        const std::int64_t in_f = l == 0 ? f : dirs * h;
        cells.push_back({random_normal({4 * h, in_f}, rng(), 0.0f, 0.5f),
                         random_normal({4 * h, h}, rng(), 0.0f, 0.5f),
                         trial % 4 ? random_normal({4 * h}, rng()) : Tensor()});
      }
    const Tensor x = random_normal({t_n, f}, rng());
    std::vector<std::vector<double>> cur(static_cast<std::size_t>(t_n));
    for (std::int64_t t = 0; t < t_n; ++t)
      cur[static_cast<std::size_t>(t)].assign(x.ptr() + t * f, x.ptr() + (t + 1) * f);
    std::vector<double> last;
    for (std::int64_t l = 0; l < layers; ++l) {
      std::vector<std::vector<double>> next(static_cast<std::size_t>(t_n));
      last.clear();
      for (std::int64_t d = 0; d < dirs; ++d) {
        const auto o = naive_direction(cur, cells[static_cast<std::size_t>(l * dirs + d)], d == 1);
        for (std::int64_t t = 0; t < t_n; ++t)
          next[static_cast<std::size_t>(t)].insert(next[static_cast<std::size_t>(t)].end(),
                                                   o[static_cast<std::size_t>(t)].begin(),
                                                   o[static_cast<std::size_t>(t)].end());
        // final state: the forward direction ends at t = T-1, the backward one at t = 0
        const auto& fin = o[d == 0 ? static_cast<std::size_t>(t_n - 1) : 0];
        last.insert(last.end(), fin.begin(), fin.end());
      }
      cur = next;
    }
    const Tensor y = lstm(x, cells, layers, bi, seq);
    INFO("trial " << trial);
    if (seq) {
      REQUIRE(y.shape == Shape{t_n, dirs * h});
      for (std::int64_t t = 0; t < t_n; ++t)
        for (std::int64_t k = 0; k < dirs * h; ++k)
          CHECK(y.data[static_cast<std::size_t>(t * dirs * h + k)] ==
                Approx(cur[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)]).margin(1e-5));
    } else {
      REQUIRE(y.shape == Shape{dirs * h});
      for (std::int64_t k = 0; k < dirs * h; ++k)
        CHECK(y.data[static_cast<std::size_t>(k)] == Approx(last[static_cast<std::size_t>(k)]).margin(1e-5));
    }
  }
}

TEST_CASE("lstm rejects a wrong number of cells or mismatched weights", "[kernels][lstm]") {
  const Tensor x = random_normal({3, 2}, 1);
  const LstmCellWeights cell{random_normal({8, 2}, 2), random_normal({8, 2}, 3), Tensor()};
  CHECK_NOTHROW(lstm(x, {cell}, 1, false, true));
  CHECK_THROWS_AS(lstm(x, {cell}, 1, true, true), Error);
  const LstmCellWeights bad{random_normal({8, 3}, 2), random_normal({8, 2}, 3), Tensor()};
  CHECK_THROWS_AS(lstm(x, {bad}, 1, false, true), Error);
}
