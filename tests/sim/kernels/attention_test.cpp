// Multi-head self-attention: against a naive double-precision reference, against values printed by
// PyTorch's nn.MultiheadAttention, and its backward pass against finite differences of L = sum r * f(x)
// (see gradient_check.hpp).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/attention.hpp"
#include "sim/kernels/gemm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

// Random weights for F features, N(0, stddev^2); 0.5 keeps the scores of small F O(1), so no softmax row
// is saturated.
AttentionWeights random_attention_weights(std::int64_t f, std::uint64_t seed, float stddev = 0.5f) {
  return {random_normal({3 * f, f}, derive_seed(seed, "in_w"), 0.0f, stddev),
          random_normal({3 * f}, derive_seed(seed, "in_b"), 0.0f, stddev),
          random_normal({f, f}, derive_seed(seed, "out_w"), 0.0f, stddev),
          random_normal({f}, derive_seed(seed, "out_b"), 0.0f, stddev)};
}

// The definition, in double with plain loops: z = x W_in^T + b_in; per head
// A = softmax_rows(q_h k_h^T / sqrt(d)), o_h = A v_h; y = concat(o) W_out^T + b_out.
Tensor reference_attention(const Tensor& x, const AttentionWeights& w, std::int64_t heads) {
  const std::int64_t t_n = x.dim(0), f = x.dim(1), d = f / heads;
  auto at = [](const Tensor& m, std::int64_t r, std::int64_t c, std::int64_t cols) -> double {
    return m.data[static_cast<std::size_t>(r * cols + c)];
  };
  std::vector<std::vector<double>> z(t_n, std::vector<double>(3 * f)), o(t_n, std::vector<double>(f, 0.0));
  for (std::int64_t t = 0; t < t_n; ++t)
    for (std::int64_t j = 0; j < 3 * f; ++j) {
      double s = w.in_proj_bias.data[static_cast<std::size_t>(j)];
      for (std::int64_t i = 0; i < f; ++i) s += at(x, t, i, f) * at(w.in_proj_weight, j, i, f);
      z[t][j] = s;
    }
  for (std::int64_t h = 0; h < heads; ++h)
    for (std::int64_t t = 0; t < t_n; ++t) {
      std::vector<double> score(t_n);
      double max_score = -INFINITY, total = 0.0;
      for (std::int64_t u = 0; u < t_n; ++u) {
        double s = 0.0;
        for (std::int64_t c = h * d; c < (h + 1) * d; ++c) s += z[t][c] * z[u][f + c];
        score[u] = s / std::sqrt(static_cast<double>(d));
        max_score = std::max(max_score, score[u]);
      }
      for (auto& s : score) total += s = std::exp(s - max_score);
      for (std::int64_t u = 0; u < t_n; ++u)
        for (std::int64_t c = h * d; c < (h + 1) * d; ++c) o[t][c] += score[u] / total * z[u][2 * f + c];
    }
  Tensor y({t_n, f});
  for (std::int64_t t = 0; t < t_n; ++t)
    for (std::int64_t j = 0; j < f; ++j) {
      double s = w.out_proj_bias.data[static_cast<std::size_t>(j)];
      for (std::int64_t c = 0; c < f; ++c) s += o[t][c] * at(w.out_proj_weight, j, c, f);
      y.data[static_cast<std::size_t>(t * f + j)] = static_cast<float>(s);
    }
  return y;
}

// v[i] = scale * sin(0.7 (i + 1) + phase) over the flattened tensor, rounded from double to float
// (the same formula as the PyTorch snippet below).
Tensor sine_fill(const Shape& shape, double scale, double phase) {
  Tensor t(shape);
  for (std::size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = static_cast<float>(scale * std::sin(0.7 * static_cast<double>(i + 1) + phase));
  return t;
}

}  // namespace

TEST_CASE("multi_head_attention matches the naive reference", "[kernels][attention]") {
  // heads = 1 is plain scaled dot-product attention; 2 and 4 split F = 8 into heads of 4 and 2 columns.
  const std::int64_t heads = GENERATE(1, 2, 4);
  const Tensor x = random_normal({5, 8}, 700);
  const AttentionWeights w = random_attention_weights(8, 701);
  const Tensor y = multi_head_attention(x, w, heads);
  REQUIRE(y.shape == Shape{5, 8});
  CHECK(max_abs_diff(y, reference_attention(x, w, heads)) < 1e-5f);
}

TEST_CASE("multi_head_attention reproduces PyTorch's nn.MultiheadAttention", "[kernels][attention]") {
  // Generated with torch 1.13 (eval mode, so no dropout); x is (T, batch 1, F):
  //   import math, torch
  //   def fill(shape, scale, phase):
  //       n = math.prod(shape)
  //       return torch.tensor([scale * math.sin(0.7 * (i + 1) + phase) for i in range(n)],
  //                           dtype=torch.float64).float().reshape(shape)
  //   m = torch.nn.MultiheadAttention(4, 2).eval()
  //   with torch.no_grad():
  //       m.in_proj_weight.copy_(fill((12, 4), 0.8, 0.0)); m.in_proj_bias.copy_(fill((12,), 0.2, 1.0))
  //       m.out_proj.weight.copy_(fill((4, 4), 0.6, 2.0)); m.out_proj.bias.copy_(fill((4,), 0.1, 3.0))
  //       x = fill((3, 1, 4), 1.5, 4.0)
  //       y, _ = m(x, x, x, need_weights=False)
  //   print(', '.join(f'{v:.8e}f' for v in y.reshape(-1).tolist()))
  // The attention rows are far from uniform here: scores without the 1 / sqrt(d) factor change the
  // output by 0.17, and q and k swapped in in_proj by 0.95.
  const AttentionWeights w{sine_fill({12, 4}, 0.8, 0.0), sine_fill({12}, 0.2, 1.0),
                           sine_fill({4, 4}, 0.6, 2.0), sine_fill({4}, 0.1, 3.0)};
  const Tensor x = sine_fill({3, 4}, 1.5, 4.0);
  const Tensor expected({3, 4}, {-8.84919643e-01f, 4.50489312e-01f, -2.88891733e-01f, -2.22173899e-01f,
                                 5.18305361e-01f, -9.65863585e-01f, 9.76921976e-01f, -1.19117701e+00f,
                                 -8.83693635e-01f, 8.45988333e-01f, -1.03541374e+00f, 7.89106548e-01f});
  CHECK(max_abs_diff(multi_head_attention(x, w, 2), expected) < 1e-5f);
}

TEST_CASE("multi_head_attention stays finite when the scores are large", "[kernels][attention]") {
  // Inputs of size ~100 give scores of order 1e4: exp would overflow to inf (and inf / inf = NaN)
  // without the row maximum subtracted first.
  const Tensor x = random_normal({6, 8}, 702, 0.0f, 100.0f);
  const AttentionWeights w = random_attention_weights(8, 703);
  const Tensor y = multi_head_attention(x, w, 2);
  for (float v : y.data) REQUIRE(std::isfinite(v));
  CHECK(test::max_rel_error(y, reference_attention(x, w, 2)) < 1e-4);
}

TEST_CASE("multi_head_attention_backward matches finite differences for the input and every weight",
          "[kernels][attention][backward]") {
  // T = 4 steps of F = 6 features; one head of 6 columns or three of 2. Attention is smooth, so the
  // central difference's truncation error stays near 1e-5 (see gradient_check.hpp).
  const std::int64_t heads = GENERATE(1, 3);
  const Tensor x = random_normal({4, 6}, 710), r = random_normal({4, 6}, 711);
  const AttentionWeights w = random_attention_weights(6, 712);
  const AttentionGradients g = multi_head_attention_backward(x, w, heads, r);
  auto loss_with = [&](Tensor AttentionWeights::*field) {
    return [&, field](const Tensor& v) {
      AttentionWeights changed = w;
      changed.*field = v;
      return test::projection(multi_head_attention(x, changed, heads), r);
    };
  };
  SECTION("input") {
    test::check_gradient(
        g.input, [&](const Tensor& v) { return test::projection(multi_head_attention(v, w, heads), r); }, x);
  }
  SECTION("in_proj_weight") {
    test::check_gradient(g.weights.in_proj_weight, loss_with(&AttentionWeights::in_proj_weight),
                         w.in_proj_weight);
  }
  SECTION("in_proj_bias") {
    test::check_gradient(g.weights.in_proj_bias, loss_with(&AttentionWeights::in_proj_bias), w.in_proj_bias);
  }
  SECTION("out_proj_weight") {
    test::check_gradient(g.weights.out_proj_weight, loss_with(&AttentionWeights::out_proj_weight),
                         w.out_proj_weight);
  }
  SECTION("out_proj_bias") {
    test::check_gradient(g.weights.out_proj_bias, loss_with(&AttentionWeights::out_proj_bias),
                         w.out_proj_bias);
  }
}

TEST_CASE("multi_head_attention gives the same results on several threads",
          "[kernels][attention][backward]") {
  // The heads are split over the threads (5 heads on 3 threads: 1, 2 and 2) and T = 40 columns
  // of the projections.
  const Tensor x = random_normal({40, 20}, 715), r = random_normal({40, 20}, 716);
  const AttentionWeights w = random_attention_weights(20, 717, 0.2f);
  const Tensor y1 = multi_head_attention(x, w, 5);
  const AttentionGradients g1 = multi_head_attention_backward(x, w, 5, r);
  set_kernel_threads(3);
  const Tensor y3 = multi_head_attention(x, w, 5);
  const AttentionGradients g3 = multi_head_attention_backward(x, w, 5, r);
  set_kernel_threads(1);
  CHECK(test::max_rel_error(y3, y1) < 1e-5);
  CHECK(test::max_rel_error(g3.input, g1.input) < 1e-5);
  CHECK(test::max_rel_error(g3.weights.in_proj_weight, g1.weights.in_proj_weight) < 1e-5);
  CHECK(test::max_rel_error(g3.weights.out_proj_weight, g1.weights.out_proj_weight) < 1e-5);
}

TEST_CASE("multi_head_attention of an empty sequence is empty", "[kernels][attention]") {
  const Tensor x({0, 8});
  const AttentionWeights w = random_attention_weights(8, 718);
  CHECK(multi_head_attention(x, w, 2).shape == Shape{0, 8});
  const AttentionGradients g = multi_head_attention_backward(x, w, 2, x);
  CHECK(g.input.shape == Shape{0, 8});
  CHECK(tensor_sum(g.weights.in_proj_weight) == 0.0);
}

TEST_CASE("multi_head_attention rejects heads that do not divide the features", "[kernels][attention]") {
  const Tensor x = random_normal({3, 8}, 720);
  const AttentionWeights w = random_attention_weights(8, 721);
  CHECK_THROWS_WITH(multi_head_attention(x, w, 3), Catch::Contains("8 features do not split into 3 heads"));
  CHECK_THROWS_WITH(multi_head_attention(x, w, 0), Catch::Contains("heads must be at least 1"));
  CHECK_THROWS_AS(multi_head_attention_backward(x, w, 3, x), Error);
}

TEST_CASE("multi_head_attention rejects weights of the wrong shape", "[kernels][attention]") {
  const Tensor x = random_normal({3, 8}, 722);
  AttentionWeights w = random_attention_weights(8, 723);
  // in_proj_weight transposed: [F, 3F] instead of PyTorch's [3F, F].
  w.in_proj_weight = w.in_proj_weight.reshaped({8, 24});
  CHECK_THROWS_WITH(multi_head_attention(x, w, 2),
                    Catch::Contains("in_proj_weight must have shape [24,8], got [8,24]"));
  w = random_attention_weights(8, 723);
  w.out_proj_bias = Tensor({7});
  CHECK_THROWS_WITH(multi_head_attention(x, w, 2), Catch::Contains("out_proj_bias must have shape [8]"));
}

TEST_CASE("multi_head_attention rejects an input that is not (T, F) and a wrong grad_output",
          "[kernels][attention]") {
  const AttentionWeights w = random_attention_weights(8, 724);
  CHECK_THROWS_WITH(multi_head_attention(Tensor({8}), w, 2), Catch::Contains("expected a (T,F) input"));
  const Tensor x = random_normal({3, 8}, 725);
  CHECK_THROWS_WITH(multi_head_attention_backward(x, w, 2, Tensor({4, 8})),
                    Catch::Contains("grad_output [4,8] is not the output shape [3,8]"));
}

TEST_CASE("multi_head_attention times one ViT-B/16 encoder's attention", "[kernels][attention][.bench]") {
  // T = 197 tokens (196 patches and the class token), F = 768, 12 heads: run with
  // `test_kernels "[.bench]"`; the timings are printed as warnings. Weights of stddev 1 / sqrt(F), as
  // trained ones are, give O(1) scores; stddev 1 saturates every softmax row (scores ~1e4).
  const float stddev = GENERATE(0.036f, 1.0f);
  const Tensor x = random_normal({197, 768}, 730);
  const AttentionWeights w = random_attention_weights(768, 731, stddev);
  using Clock = std::chrono::steady_clock;
  auto milliseconds_of = [](auto&& body) {
    body();  // warm-up
    const auto start = Clock::now();
    constexpr int kRuns = 5;
    for (int i = 0; i < kRuns; ++i) body();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / kRuns;
  };
  Tensor y;
  const double forward_ms = milliseconds_of([&] { y = multi_head_attention(x, w, 12); });
  AttentionGradients g;
  const double backward_ms = milliseconds_of([&] { g = multi_head_attention_backward(x, w, 12, y); });
  WARN("weights stddev " << stddev << ": forward " << forward_ms << " ms, backward " << backward_ms << " ms");
  CHECK(y.shape == x.shape);
}
