#pragma once
/// Convolutions on (C, H, W) tensors. Weights use PyTorch's layouts:
///   conv2d            weight [OC, IC / groups, KH, KW]
///   depthwise_conv2d  weight [C * multiplier, 1, KH, KW] (output channel c * multiplier + j reads input c)
///   conv_transpose2d  weight [IC, OC / groups, KH, KW]
/// `bias` is empty (no bias) or has one value per output channel. Output sizes follow
/// sim/graph/shape_inference.cpp. Every function throws `Error` on inconsistent shapes.
///
///     ConvParams p; p.stride = {2, 2}; p.padding = {1, 1};
///     Tensor y = conv2d(x, w, b, p);   // x [3,32,32], w [16,3,3,3] -> y [16,16,16]
#include <array>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct ConvParams {
  std::array<std::int64_t, 2> stride{1, 1};
  std::array<std::int64_t, 2> padding{0, 0};
  std::array<std::int64_t, 2> dilation{1, 1};
  std::array<std::int64_t, 2> output_padding{0, 0};  ///< conv_transpose2d only
  std::int64_t groups = 1;                           ///< conv2d and conv_transpose2d
};

/// Convolution by patch-to-column + GEMM: per group, the (IC/g * KH * KW) x (OH * OW) column matrix of
/// input patches is multiplied by the (OC/g) x (IC/g * KH * KW) weight matrix. A 1x1 stride-1 unpadded
/// convolution multiplies the input directly (no column matrix).
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& params);

/// Depthwise convolution (direct loops; one filter per output channel).
Tensor depthwise_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const ConvParams& params);

/// Gradients of conv2d given dL/dy (`grad_output`, the shape conv2d returns), by the forward's GEMM and
/// patch-to-column machinery, per group g:
///   dX = conv_transpose2d(dY, W)        (the column matrix W[g]^T dY[g] scattered back, column-to-patch)
///   dW[g] = dY[g] columns[g]^T          (computed as (columns[g] dY[g]^T)^T: the small side is transposed)
///   db[o] = sum over the plane of dY[o] (left empty when `has_bias` is false).
/// Throws `Error` on inconsistent shapes (as conv2d, and when grad_output is not conv2d's output shape).
///
///     Gradients g = conv2d_backward(x, w, true, dy, p);   // g.input ~ x, g.weight ~ w, g.bias [OC]
Gradients conv2d_backward(const Tensor& input, const Tensor& weight, bool has_bias, const Tensor& grad_output,
                          const ConvParams& params);

/// Gradients of depthwise_conv2d (direct loops, one input channel and its `multiplier` filters per
/// task): dX[c] += w[o] (*) dY[o] scattered back, dW[o] = correlation of dY[o] with X[o / m], db[o] = sum
/// dY[o].
Gradients depthwise_conv2d_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                    const Tensor& grad_output, const ConvParams& params);

/// Transposed convolution (the gradient of conv2d with respect to its input): per group, the
/// (OC/g * KH * KW) x (IH * IW) column matrix W^T X is scattered back into the output (column-to-patch).
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const ConvParams& params);

/// Gradients of conv_transpose2d given dL/dy (`grad_output`, the shape conv_transpose2d returns). The
/// transposed convolution is the adjoint of conv2d with the same weight read as [OC_conv = IC,
/// IC_conv / g = OC / g, KH, KW], so per group g, with C[g] the (OC/g * KH * KW) x (IH * IW) patch-to-column
/// matrix of dY[g] (one column per *input* position):
///   dX[g] = W[g] C[g]                   (conv2d of dY with W: the input gradient)
///   dW[g] = X[g] C[g]^T                 (computed as (C[g] X[g]^T)^T: the small side is transposed)
///   db[o] = sum over the plane of dY[o] (left empty when `has_bias` is false).
/// Throws `Error` on inconsistent shapes (as conv_transpose2d, and when grad_output is not its output).
///
///     Gradients g = conv_transpose2d_backward(x, w, true, dy, p);   // g.input ~ x, g.weight ~ w
Gradients conv_transpose2d_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                    const Tensor& grad_output, const ConvParams& params);

/// Output spatial size of a convolution: floor((in + 2p - d(k - 1) - 1) / s) + 1, or 0 where the kernel
/// does not fit the padded input.
std::int64_t conv_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                              std::int64_t dilation);

/// Patch-to-column of channels [c0, c0 + channels) of a (C, H, W) input: writes the
/// (channels * KH * KW) x (OH * OW) row-major matrix to `columns`.
void im2col(const Tensor& input, std::int64_t c0, std::int64_t channels, std::array<std::int64_t, 2> kernel,
            const ConvParams& params, std::int64_t out_h, std::int64_t out_w, float* columns);

/// Patch-to-column of a raw (channels, h, w) block into a column matrix whose rows start
/// `row_stride` floats apart (row_stride >= OH * OW): the batched convolution (batched.hpp) places
/// the columns of B samples side by side this way. `im2col` is the case row_stride = OH * OW.
void im2col_strided(const float* input, std::int64_t h, std::int64_t w, std::int64_t channels,
                    std::array<std::int64_t, 2> kernel, const ConvParams& params, std::int64_t out_h,
                    std::int64_t out_w, float* columns, std::int64_t row_stride);

/// Column-to-patch, the adjoint of `im2col_strided`: adds row (c, kh, kw), column (y, x) of a
/// (channels * KH * KW) x (in_h * in_w) column matrix (rows `row_stride` floats apart) to
/// output[c, y*s - p + kh*d, x*s - p + kw*d] of a (channels, out_h, out_w) block, skipping positions
/// outside it. The scatter of conv_transpose2d (in = its input plane) and of conv2d's input gradient
/// (in = the conv's output plane, out = its input plane).
void col2im_strided(const float* columns, std::int64_t row_stride, std::int64_t channels,
                    std::array<std::int64_t, 2> kernel, const ConvParams& params, std::int64_t in_h,
                    std::int64_t in_w, std::int64_t out_h, std::int64_t out_w, float* output);

/// Throws `Error` naming `kernel` when a backward pass's `grad_output` is not the (c, h, w) output shape.
void check_grad_output(const char* kernel, const Tensor& grad_output, std::int64_t c, std::int64_t h,
                       std::int64_t w);

/// A per-thread scratch area of at least `floats` floats, reused across calls (contents undefined; valid
/// until the next call on the same thread). Holds the column matrices of conv2d and conv_transpose2d.
float* scratch_buffer(std::int64_t floats);

}  // namespace coinfer::kernels
