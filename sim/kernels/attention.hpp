#pragma once
/// The pieces of a vision transformer that are not plain layers: multi-head self-attention (PyTorch's
/// nn.MultiheadAttention in eval mode), turning a (C, H, W) patch embedding into a token sequence, and
/// putting the learned class token in front. Tensors have no batch dimension: a sequence is (T, F).
///
///     AttentionWeights w{random_normal({3 * 768, 768}, 1), Tensor({3 * 768}), random_normal({768, 768}, 2),
///                        Tensor({768})};
///     Tensor seq = prepend_token(tokens(patches), cls);   // (768, 14, 14) -> (197, 768)
///     Tensor y = multi_head_attention(seq, w, 12);         // (197, 768)
#include <cstdint>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// nn.MultiheadAttention's weights (PyTorch layouts): in_proj packs q, k, v rows.
struct AttentionWeights {
  Tensor in_proj_weight;   ///< [3F, F]
  Tensor in_proj_bias;     ///< [3F]
  Tensor out_proj_weight;  ///< [F, F]
  Tensor out_proj_bias;    ///< [F]
};

/// Self-attention of a (T, F) sequence with `heads` heads (F % heads == 0, d = F / heads), exactly as
/// PyTorch's nn.MultiheadAttention(F, heads)(x, x, x, need_weights=False) in eval mode:
/// [q k v] = x in_proj_weight^T + in_proj_bias (q = columns 0..F, k = F..2F, v = 2F..3F);
/// per head h (columns h*d..(h+1)*d): A_h = softmax_rows((q_h / sqrt(d)) k_h^T); o_h = A_h v_h;
/// y = concat_h(o_h) out_proj_weight^T + out_proj_bias. Returns (T, F).
/// The projections are GEMMs (`kernel_threads()` threads); heads are split over the same threads.
/// Throws `Error` unless x is (T, F) with F >= 1, heads >= 1, F % heads == 0 and the weights have the
/// shapes above.
///
///     Tensor y = multi_head_attention(x, w, 12);   // x (197, 768) -> y (197, 768)
Tensor multi_head_attention(const Tensor& x, const AttentionWeights& w, std::int64_t heads);

/// What `multi_head_attention_backward` returns: dL/dx and dL/d(each weight), shaped as what they
/// differentiate.
struct AttentionGradients {
  Tensor input;
  AttentionWeights weights;
};

/// Gradients of multi_head_attention given dL/dy (`grad_output`, (T, F)). The forward is run again,
/// keeping [q k v], every head's A_h and the concatenated heads O; then with S_h = (q_h / sqrt(d)) k_h^T:
///   dW_out = dY^T O, db_out = sum_t dY, dO = dY W_out;
///   per head dv_h = A_h^T do_h, dA_h = do_h v_h^T, dS_h = A_h o (dA_h - rowsum(A_h o dA_h)),
///            dq_h = dS_h k_h / sqrt(d), dk_h = dS_h^T q_h / sqrt(d);
///   dW_in = d[q k v]^T x, db_in = sum_t d[q k v], dx = d[q k v] W_in.
/// Throws `Error` as multi_head_attention does, and when grad_output is not (T, F).
///
///     AttentionGradients g = multi_head_attention_backward(x, w, 12, dy);   // g.input (197, 768)
AttentionGradients multi_head_attention_backward(const Tensor& x, const AttentionWeights& w,
                                                 std::int64_t heads, const Tensor& grad_output);

/// (C, H, W) -> (H*W, C): the pixels as a sequence of C-feature tokens, pixel p = h*W + w (a vision
/// transformer's patch embedding: PyTorch's x.reshape(C, H*W).permute(1, 0)). Throws `Error` unless x
/// has rank 3.
///
///     Tensor seq = tokens(conv_out);   // (768, 14, 14) -> (196, 768)
Tensor tokens(const Tensor& x);

/// The gradient of `tokens`: (H*W, C) back to `input_shape` (C, H, W), the inverse permutation.
/// Throws `Error` unless input_shape has rank 3 and grad_output is (H*W, C).
Tensor tokens_backward(const Tensor& grad_output, const Shape& input_shape);

/// A learned token (F) put before a (T, F) sequence: (T+1, F) (ViT's class token), row 0 the token.
/// Throws `Error` unless x is (T, F) and token has shape [F].
///
///     Tensor seq = prepend_token(patch_tokens, cls);   // (196, 768), [768] -> (197, 768)
Tensor prepend_token(const Tensor& x, const Tensor& token);

/// What `prepend_token_backward` returns: dL/dx (T, F) and dL/dtoken [F].
struct PrependTokenGradients {
  Tensor input, token;
};

/// The gradient of `prepend_token`: row 0 of grad_output (T+1, F) is the token's, the rest the input's.
/// Throws `Error` unless grad_output has rank 2 and at least one row.
PrependTokenGradients prepend_token_backward(const Tensor& grad_output);

}  // namespace coinfer::kernels
