#include "sim/kernels/attention.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {
namespace {

// Everything below works on transposed sequences: Z^T = [q k v]^T is 3F x T, so head h's q_h^T, k_h^T
// and v_h^T are d contiguous rows of T each (rows h*d, F + h*d, 2F + h*d), and the big projections are
// W (rows x F) times x^T (F x T), one project GEMM with the weight in place (as fully_connected does).
// The heads are split over `kernel_threads()` threads; each head's GEMMs (T x d by d x T) are too small
// for gemm to split again up to T ~ 230 (ViT's 197), beyond which both levels split.
struct AttentionDims {
  std::int64_t steps = 0, features = 0, heads = 1, head_dim = 1;
};

void check_attention_weight(const Tensor& p, const Shape& expected, const char* name, const char* what) {
  if (p.shape != expected)
    throw Error(fmt::format("{}: {} must have shape {}, got {}", name, what, shape_to_string(expected),
                            shape_to_string(p.shape)));
}

AttentionDims attention_dims(const Tensor& x, const AttentionWeights& w, std::int64_t heads,
                             const char* name) {
  if (x.rank() != 2 || x.shape[1] < 1)
    throw Error(
        fmt::format("{}: expected a (T,F) input with F >= 1, got {}", name, shape_to_string(x.shape)));
  const std::int64_t f = x.shape[1];
  if (heads < 1) throw Error(fmt::format("{}: heads must be at least 1, got {}", name, heads));
  if (f % heads != 0)
    throw Error(
        fmt::format("{}: {} features do not split into {} heads (F % heads must be 0)", name, f, heads));
  check_attention_weight(w.in_proj_weight, {3 * f, f}, name, "in_proj_weight");
  check_attention_weight(w.in_proj_bias, {3 * f}, name, "in_proj_bias");
  check_attention_weight(w.out_proj_weight, {f, f}, name, "out_proj_weight");
  check_attention_weight(w.out_proj_bias, {f}, name, "out_proj_bias");
  return {x.shape[0], f, heads, f / heads};
}

// The rows x cols row-major matrix at `data`, transposed into a new (cols, rows) tensor.
Tensor attention_transposed(const float* data, std::int64_t rows, std::int64_t cols) {
  Tensor t({cols, rows});
  t.matrix(cols, rows) = ConstMatrixMap(data, rows, cols).transpose();
  return t;
}

// out (rows x T) = W (rows x F) x^T (F x T) + b (added to every column).
void attention_projection(const Tensor& weight, const Tensor& bias, const Tensor& xt, Tensor& out) {
  const std::int64_t rows = weight.dim(0), features = weight.dim(1), steps = xt.dim(1);
  out.matrix(rows, steps).colwise() = bias.vector();
  gemm(weight.ptr(), xt.ptr(), out.ptr(), rows, steps, features, true);
}

// Softmax of every row, the row's maximum subtracted first so exp never overflows. Terms below
// exp(-80) ~ 2e-35 of the row's largest are set to 0: they are far below fp32 rounding of the row sum
// (>= 1), and Eigen's vectorised exp would return subnormals for them (it clamps at -88.4, giving
// ~3e-39 where the true value underflows to 0); subnormals make the next GEMM ~30 times slower
// (measured on saturated (197, 768) inputs).
void attention_softmax_rows(MatrixMap s) {
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    auto row = s.row(i).array();
    row -= row.maxCoeff();
    row = (row < -80.0f).select(0.0f, row.max(-80.0f).exp());
    row /= row.sum();
  }
}

// What the backward pass needs of the forward: Z^T (3F x T), every head's A_h (heads x T x T) and the
// concatenated head outputs O^T (F x T).
struct AttentionTrace {
  Tensor zt, probs, ot;
};

// Each head's products are project GEMMs (row-major, contiguous operands): q_h^T, k_h^T, v_h^T are
// contiguous d x T blocks of Z^T, and the few operands needed the other way round are copied.
AttentionTrace attention_forward(const Tensor& x, const AttentionWeights& w, const AttentionDims& n) {
  const std::int64_t t = n.steps, f = n.features, d = n.head_dim;
  AttentionTrace tr{Tensor({3 * f, t}), Tensor({n.heads, t, t}), Tensor({f, t})};
  attention_projection(w.in_proj_weight, w.in_proj_bias, attention_transposed(x.ptr(), t, f), tr.zt);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  parallel_for(n.heads, 1, [&](std::int64_t h0, std::int64_t h1) {
    RowMatrix q(t, d), at(t, t);
    for (std::int64_t h = h0; h < h1; ++h) {
      const float* zt = tr.zt.ptr();
      float* a = tr.probs.ptr() + h * t * t;
      q.noalias() = scale * ConstMatrixMap(zt + h * d * t, d, t).transpose();  // q_h / sqrt(d), T x d
      gemm(q.data(), zt + (f + h * d) * t, a, t, t, d);                        // S_h = q_h k_h^T / sqrt(d)
      attention_softmax_rows(MatrixMap(a, t, t));                              // A_h
      at.noalias() = MatrixMap(a, t, t).transpose();
      gemm(zt + (2 * f + h * d) * t, at.data(), tr.ot.ptr() + h * d * t, d, t, t);  // o_h^T = v_h^T A_h^T
    }
  });
  return tr;
}

// The softmax's backward, row by row: with a = softmax(s) and g = dL/da, dL/ds = a o (g - <a, g>).
void attention_softmax_rows_backward(const ConstMatrixMap& a, RowMatrix& g) {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const float dot = a.row(i).dot(g.row(i));
    g.row(i).array() = a.row(i).array() * (g.row(i).array() - dot);
  }
}

// dZ^T (3F x T) from dO (T x F) and dO^T (F x T), head by head (the equations are in the doc comment of
// multi_head_attention_backward; here in transposed form, e.g. dq_h^T = k_h^T dS_h^T / sqrt(d)).
Tensor attention_heads_backward(const AttentionTrace& tr, const Tensor& d_o, const Tensor& d_ot,
                                const AttentionDims& n) {
  const std::int64_t t = n.steps, f = n.features, d = n.head_dim;
  Tensor dzt({3 * f, t});
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  parallel_for(n.heads, 1, [&](std::int64_t h0, std::int64_t h1) {
    RowMatrix doh(t, d), ds(t, t), dst(t, t);
    for (std::int64_t h = h0; h < h1; ++h) {
      const float *zt = tr.zt.ptr(), *a = tr.probs.ptr() + h * t * t;
      float* dz = dzt.ptr();
      gemm(d_ot.ptr() + h * d * t, a, dz + (2 * f + h * d) * t, d, t, t);  // dv_h^T = do_h^T A_h
      doh = d_o.matrix(t, f).middleCols(h * d, d);
      gemm(doh.data(), zt + (2 * f + h * d) * t, ds.data(), t, t, d);  // dA_h = do_h v_h^T
      attention_softmax_rows_backward(ConstMatrixMap(a, t, t), ds);
      ds *= scale;  // dS_h / sqrt(d): the factor both dq_h and dk_h carry
      dst.noalias() = ds.transpose();
      gemm(zt + (f + h * d) * t, dst.data(), dz + h * d * t, d, t, t);  // dq_h^T = k_h^T dS_h^T / sqrt(d)
      gemm(zt + h * d * t, ds.data(), dz + (f + h * d) * t, d, t, t);   // dk_h^T = q_h^T dS_h / sqrt(d)
    }
  });
  return dzt;
}

}  // namespace

Tensor multi_head_attention(const Tensor& x, const AttentionWeights& w, std::int64_t heads) {
  const AttentionDims n = attention_dims(x, w, heads, "multi_head_attention");
  const std::int64_t t = n.steps, f = n.features;
  if (t == 0) return Tensor({0, f});
  const AttentionTrace tr = attention_forward(x, w, n);
  Tensor yt({f, t});  // y^T = W_out O^T + b_out
  attention_projection(w.out_proj_weight, w.out_proj_bias, tr.ot, yt);
  return attention_transposed(yt.ptr(), f, t);
}

AttentionGradients multi_head_attention_backward(const Tensor& x, const AttentionWeights& w,
                                                 std::int64_t heads, const Tensor& grad_output) {
  const char* name = "multi_head_attention_backward";
  const AttentionDims n = attention_dims(x, w, heads, name);
  if (grad_output.shape != x.shape)
    throw Error(fmt::format("{}: grad_output {} is not the output shape {}", name,
                            shape_to_string(grad_output.shape), shape_to_string(x.shape)));
  const std::int64_t t = n.steps, f = n.features;
  AttentionGradients g{Tensor(x.shape),
                       {Tensor(w.in_proj_weight.shape), Tensor(w.in_proj_bias.shape),
                        Tensor(w.out_proj_weight.shape), Tensor(w.out_proj_bias.shape)}};
  if (t == 0) return g;
  const AttentionTrace tr = attention_forward(x, w, n);
  AttentionWeights& dw = g.weights;
  // Output projection: dW_out (F x F) = dY^T O, db_out = column sums of dY, dO (T x F) = dY W_out.
  const Tensor dyt = attention_transposed(grad_output.ptr(), t, f);
  gemm(dyt.ptr(), attention_transposed(tr.ot.ptr(), f, t).ptr(), dw.out_proj_weight.ptr(), f, f, t);
  dw.out_proj_bias.vector() = dyt.matrix(f, t).rowwise().sum();
  Tensor d_o({t, f});
  gemm(grad_output.ptr(), w.out_proj_weight.ptr(), d_o.ptr(), t, f, f);
  // The heads, then the input projection: dW_in (3F x F) = dZ^T x, db_in = column sums of dZ,
  // dx (T x F) = dZ W_in.
  const Tensor dzt = attention_heads_backward(tr, d_o, attention_transposed(d_o.ptr(), t, f), n);
  gemm(dzt.ptr(), x.ptr(), dw.in_proj_weight.ptr(), 3 * f, f, t);
  dw.in_proj_bias.vector() = dzt.matrix(3 * f, t).rowwise().sum();
  gemm(attention_transposed(dzt.ptr(), 3 * f, t).ptr(), w.in_proj_weight.ptr(), g.input.ptr(), t, f, 3 * f);
  return g;
}

}  // namespace coinfer::kernels
