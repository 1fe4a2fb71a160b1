#pragma once
/// The graph IR's `attention` layer holds nn.MultiheadAttention's four weights packed in two tensors,
/// so that training, SGD and gradient exchange treat it as any layer with a weight and a bias:
///
///     weight [4F, F]: rows 0..3F in_proj_weight (q, k, v), rows 3F..4F out_proj_weight
///     bias   [4F]:    in_proj_bias, then out_proj_bias
///
///     Tensor y = packed_attention(x, w.weight, w.bias, heads);   // attention.hpp's kernel
#include <cstdint>

#include "sim/kernels/attention.hpp"

namespace coinfer::kernels {

/// The four weights of the packed pair; throws `Error` unless weight is [4F, F] and bias [4F].
AttentionWeights unpack_attention(const Tensor& weight, const Tensor& bias);

/// multi_head_attention with the packed weights.
Tensor packed_attention(const Tensor& x, const Tensor& weight, const Tensor& bias, std::int64_t heads);

/// Its backward: dL/dx, and dL/d(weight), dL/d(bias) packed as the weights are.
struct PackedAttentionGradients {
  Tensor input, weight, bias;
};
PackedAttentionGradients packed_attention_backward(const Tensor& x, const Tensor& weight, const Tensor& bias,
                                                   std::int64_t heads, const Tensor& grad_output);

}  // namespace coinfer::kernels
