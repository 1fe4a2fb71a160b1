#pragma once
/// Structural ops: element-wise sum, concatenation, upsampling, dropout, and their backward passes.
///
///     Tensor s = add({&a, &b});                 // same shapes
///     Tensor c = concat({&a, &b}, 0);           // [64,28,28] + [32,28,28] -> [96,28,28]
///     Tensor u = upsample(a, {2, 2}, "bilinear");
#include <array>
#include <string_view>
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// Sum of two or more tensors of one shape; throws `Error` otherwise.
Tensor add(const std::vector<const Tensor*>& inputs);

/// Element-wise product with NumPy broadcasting over equal ranks (each dimension equal, or 1 in one
/// of the two): a squeeze-and-excitation scale [C,1,1] times a feature map [C,H,W]. Throws `Error`
/// when the shapes do not broadcast.
Tensor mul(const Tensor& a, const Tensor& b);
/// Backward of mul: {dL/da, dL/db}, each summed over the dimensions its input was broadcast along.
std::array<Tensor, 2> mul_backward(const Tensor& a, const Tensor& b, const Tensor& grad_output);

/// The range [start, end) of `axis` (0 = the first dimension of the sample); throws `Error` when the
/// range is not inside the axis.
Tensor slice(const Tensor& input, std::int64_t axis, std::int64_t start, std::int64_t end);
/// Backward of slice: dL/dx of `input_shape`, dy where the slice read and 0 elsewhere.
Tensor slice_backward(const Tensor& grad_output, const Shape& input_shape, std::int64_t axis,
                      std::int64_t start);

/// ShuffleNet's channel shuffle of a (C, H, W) tensor in `groups` groups: output channel j g + i is
/// input channel i (C / g) + j (reshape to (g, C/g), transpose, flatten). Throws `Error` when `groups`
/// does not divide C.
Tensor channel_shuffle(const Tensor& input, std::int64_t groups);
/// Backward of channel_shuffle: the inverse permutation of dy's channels.
Tensor channel_shuffle_backward(const Tensor& grad_output, std::int64_t groups);

/// Concatenation along `axis`; every other dimension must match. Throws `Error` otherwise.
Tensor concat(const std::vector<const Tensor*>& inputs, std::int64_t axis);

/// Backward of add: every input receives dL/dy unchanged (one copy per input, `inputs` >= 1).
std::vector<Tensor> add_backward(const Tensor& grad_output, std::size_t inputs);

/// Backward of concat: dL/dy cut along `axis` into pieces of `input_shapes`. Throws `Error` unless
/// concatenating those shapes along `axis` gives grad_output's shape.
///
///     auto g = concat_backward(dy, {a.shape, b.shape}, 0);   // dy [96,28,28] -> [64,..] and [32,..]
std::vector<Tensor> concat_backward(const Tensor& grad_output, const std::vector<Shape>& input_shapes,
                                    std::int64_t axis);

/// Backward of flatten: dL/dy under the input's shape. Throws `Error` when the element counts differ.
Tensor flatten_backward(Tensor grad_output, const Shape& input_shape);

/// Inverted dropout's mask: each element 0 with probability `rate`, else 1 / (1 - rate), drawn from
/// `seed`, so that dropout(x, mask) keeps E[y] = x and inference is the identity. Throws `Error` unless
/// 0 <= rate < 1.
Tensor dropout_mask(const Shape& shape, float rate, std::uint64_t seed);
/// y = x * mask, element-wise; throws `Error` when the shapes differ.
Tensor dropout(Tensor x, const Tensor& mask);
/// dx = dy * mask with the forward's mask (dropout is linear in x).
Tensor dropout_backward(Tensor grad_output, const Tensor& mask);

/// (C, H, W) -> (C, H * sh, W * sw). "nearest": out[y, x] = in[y / sh, x / sw]. "bilinear": PyTorch's
/// align_corners=false rule, source coordinate (y + 0.5) / sh - 0.5 clamped at 0, linear interpolation
/// between the two nearest rows and columns (edge replicated). Throws `Error` for another mode.
Tensor upsample(const Tensor& input, std::array<std::int64_t, 2> scale, std::string_view mode);

/// Backward of upsample (linear in x, so dx is the adjoint applied to dy): "nearest" sums dy over each
/// sh x sw block, dx[y, x] = sum_{i < sh, j < sw} dy[y sh + i, x sw + j]; "bilinear" scatters each
/// dy[y, x] back to the (up to four) inputs it interpolated, with the same weights. Throws `Error`
/// unless grad_output is (C, H * sh, W * sw) for `input_shape` (C, H, W), or for another mode.
///
///     Tensor dx = upsample_backward(x.shape, dy, {2, 2}, "nearest");   // dy [C,2H,2W] -> dx [C,H,W]
Tensor upsample_backward(const Shape& input_shape, const Tensor& grad_output,
                         std::array<std::int64_t, 2> scale, std::string_view mode);

}  // namespace coinfer::kernels
