#pragma once
/// Structural ops: element-wise sum, concatenation, upsampling.
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

/// Concatenation along `axis`; every other dimension must match. Throws `Error` otherwise.
Tensor concat(const std::vector<const Tensor*>& inputs, std::int64_t axis);

/// (C, H, W) -> (C, H * sh, W * sw). "nearest": out[y, x] = in[y / sh, x / sw]. "bilinear": PyTorch's
/// align_corners=false rule, source coordinate (y + 0.5) / sh - 0.5 clamped at 0, linear interpolation
/// between the two nearest rows and columns (edge replicated). Throws `Error` for another mode.
Tensor upsample(const Tensor& input, std::array<std::int64_t, 2> scale, std::string_view mode);

}  // namespace coinfer::kernels
