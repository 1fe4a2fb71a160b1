// The attention layer's packed weights (packed_attention.hpp).
#include "sim/kernels/packed_attention.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

// Rows [from, from + rows) of a row-major tensor whose rows are `width` wide, as a tensor of `shape`.
Tensor rows(const Tensor& t, std::int64_t from, std::int64_t count, std::int64_t width, Shape shape) {
  Tensor out(std::move(shape));
  std::copy_n(t.ptr() + from * width, count * width, out.ptr());
  return out;
}

void put(Tensor& into, std::int64_t offset, const Tensor& part) {
  std::copy_n(part.ptr(), part.size(), into.ptr() + offset);
}

}  // namespace

AttentionWeights unpack_attention(const Tensor& weight, const Tensor& bias) {
  const std::int64_t f = weight.rank() == 2 ? weight.dim(1) : 0;
  if (f < 1 || weight.shape != Shape{4 * f, f} || bias.shape != Shape{4 * f})
    throw Error(fmt::format("attention: expected a packed weight [4F, F] and bias [4F], got {} and {}",
                            shape_to_string(weight.shape), shape_to_string(bias.shape)));
  return {rows(weight, 0, 3 * f, f, {3 * f, f}), rows(bias, 0, 3 * f, 1, {3 * f}),
          rows(weight, 3 * f, f, f, {f, f}), rows(bias, 3 * f, f, 1, {f})};
}

Tensor packed_attention(const Tensor& x, const Tensor& weight, const Tensor& bias, std::int64_t heads) {
  return multi_head_attention(x, unpack_attention(weight, bias), heads);
}

PackedAttentionGradients packed_attention_backward(const Tensor& x, const Tensor& weight, const Tensor& bias,
                                                   std::int64_t heads, const Tensor& dy) {
  AttentionGradients g = multi_head_attention_backward(x, unpack_attention(weight, bias), heads, dy);
  PackedAttentionGradients out{std::move(g.input), Tensor(weight.shape), Tensor(bias.shape)};
  put(out.weight, 0, g.weights.in_proj_weight);
  put(out.weight, g.weights.in_proj_weight.size(), g.weights.out_proj_weight);
  put(out.bias, 0, g.weights.in_proj_bias);
  put(out.bias, g.weights.in_proj_bias.size(), g.weights.out_proj_bias);
  return out;
}

}  // namespace coinfer::kernels
