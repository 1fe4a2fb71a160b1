#pragma once
/// Image resizing to arbitrary sizes, for building frames at several resolutions (CBO traces,
/// schedulers/cbo/digits_trace.hpp). Both take and return (C, H, W) tensors.
/// - bilinear: half-pixel centres (align_corners = false, as OpenCV's INTER_LINEAR and PyTorch):
///   output pixel o reads source coordinate (o + 0.5) * in / out - 0.5, clamped to the edge.
/// - area: every output pixel is the mean of the input area it covers, partial pixels weighted by
///   their covered fraction (OpenCV's INTER_AREA); resizing to the same size is the identity.
///
///     Tensor big = resize_bilinear(digit, 224, 224);   // (1, 8, 8) -> (1, 224, 224)
///     Tensor small = resize_area(big, 8, 8);          // back to (1, 8, 8)
#include <cstdint>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// Throws `Error` unless x is (C, H, W) with H, W >= 1 and out_h, out_w >= 1.
Tensor resize_bilinear(const Tensor& x, std::int64_t out_h, std::int64_t out_w);
/// Throws `Error` unless x is (C, H, W) with H, W >= 1 and out_h, out_w >= 1.
Tensor resize_area(const Tensor& x, std::int64_t out_h, std::int64_t out_w);

}  // namespace coinfer::kernels
