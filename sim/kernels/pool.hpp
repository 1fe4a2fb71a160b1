#pragma once
/// Pooling on (C, H, W) tensors, with Caffe's rules (the zoo's models come from Caffe):
/// - output size floor((in + 2p - k) / s) + 1, or with `ceil_mode` rounded up, dropping a last window
///   that would start in the right padding (as sim/graph/shape_inference.cpp);
/// - max pooling ignores padding; average pooling divides by the window's size clipped to the padded
///   input, so padded zeros count but the ceil-mode overhang past the padding does not.
///
///     PoolParams p; p.kernel = {3, 3}; p.stride = {2, 2}; p.ceil_mode = true;
///     Tensor y = max_pool2d(x, p);     // x [96,55,55] -> y [96,27,27]
#include <array>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct PoolParams {
  std::array<std::int64_t, 2> kernel{2, 2};
  std::array<std::int64_t, 2> stride{2, 2};
  std::array<std::int64_t, 2> padding{0, 0};
  bool ceil_mode = false;
};

/// Output size along one axis (0 if the kernel does not fit).
std::int64_t pool_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                              bool ceil_mode);

/// Throw `Error` for a non-(C,H,W) input, non-positive kernel/stride, negative padding or an empty output.
Tensor max_pool2d(const Tensor& input, const PoolParams& params);
Tensor avg_pool2d(const Tensor& input, const PoolParams& params);
/// Mean over H and W: (C, H, W) -> (C, 1, 1).
Tensor global_avg_pool(const Tensor& input);

/// Gradients with respect to the input given dL/dy (`grad_output`, the forward's output shape); throw
/// `Error` as the forward does and when grad_output has another shape.
/// max: each window's dY goes to the window's first maximum in row-major order (ties: as the forward
/// picked; a window wholly in the padding passes nothing). avg: each input of a window gets dY / area.
///
///     Tensor dx = max_pool2d_backward(x, dy, p);            // dx has x's shape
Tensor max_pool2d_backward(const Tensor& input, const Tensor& grad_output, const PoolParams& params);
Tensor avg_pool2d_backward(const Shape& input_shape, const Tensor& grad_output, const PoolParams& params);
/// dX[c, h, w] = dY[c] / (H * W).
Tensor global_avg_pool_backward(const Shape& input_shape, const Tensor& grad_output);

}  // namespace coinfer::kernels
