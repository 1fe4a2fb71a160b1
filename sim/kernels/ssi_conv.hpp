#pragma once
/// Spatially sparse inference (SSI) of MobiEye [Mao-PhD §4.5]: a convolution computed only at the
/// output positions a binary computation mask marks active.
///
/// The index layer [Mao-PhD §4.5.2] turns the mask into the ascending flat indices y * W + x of its
/// active positions; the SSI convolution [Mao-PhD §4.5.3, Fig. 4.10] builds the patch-to-column
/// matrix of those positions only (one column each), multiplies it with the same GEMM as `conv2d`
/// (fewer columns: 3 active of 9 positions cost a third), and scatters the results back. Masks are
/// drawn at one resolution and brought to each layer's output size by pooling plus a threshold
/// (`downsample_mask`).
///
/// Inactive outputs: [Mao-PhD §4.5] skips the positions whose content did not change since the key
/// frame, so their values are those the layer computed before (our reading: the key frame's, or
/// the last full pass's). `ssi_conv2d` therefore takes an optional `base`, the layer's previous output,
/// and copies it at inactive positions; without one they are 0.
///
///     SpatialMask m = downsample_mask(frame_mask, 40, 64);          // to the layer's output size
///     Tensor y = ssi_conv2d(x, w, b, p, m, previous_y);            // == conv2d(x, w, b, p) where m is set
#include <cstdint>
#include <vector>

#include "sim/kernels/conv.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// A binary computation mask over an H x W plane, row-major; a non-zero byte marks an active position.
struct SpatialMask {
  std::int64_t height = 0;
  std::int64_t width = 0;
  std::vector<std::uint8_t> active;  ///< height * width entries

  /// A mask of `height` x `width` with every position set to `value`.
  static SpatialMask filled(std::int64_t height, std::int64_t width, bool value);
  /// Active positions over all positions (0 for an empty plane).
  double density() const;
};

/// The SSI index layer: flat indices y * W + x of the active positions, ascending. The mask
/// {1, 0, 1, 0, 0, 1} gives {0, 2, 5} [Mao-PhD Fig. 4.9].
std::vector<std::int64_t> ssi_index(const SpatialMask& mask);

/// Pooling plus a threshold [Mao-PhD §4.5.3]: output position (y, x) pools the input window of rows
/// [floor(y H / out_h), ceil((y + 1) H / out_h)) and the same for columns (adaptive pooling, so any
/// size divides), and is active when the share of active positions in it exceeds `min_share`. The
/// default 0 is a max pool: a window with any active position stays active. Throws `Error` for an
/// output size that is not positive or larger than the mask, or `min_share` outside [0, 1).
SpatialMask downsample_mask(const SpatialMask& mask, std::int64_t out_h, std::int64_t out_w,
                            double min_share = 0.0);

/// `conv2d` at the active positions of `output_mask` (the output's H x W): per group, the (IC/g * KH *
/// KW) x N column matrix of the N active positions, the GEMM with the (OC/g) x (IC/g * KH * KW)
/// weights (with at most 8 active columns, one GEMV per output channel instead: the GEMM would pack
/// every weight for a handful of columns), and the scatter of the N columns back into the output
/// plane. Inactive positions hold `base` (a tensor of the output's shape, the layer's previous
/// output) or 0 when `base` is empty. At density 1 the result equals conv2d's bit for bit; elsewhere
/// active positions may differ from conv2d's in the last bits (a narrower product is blocked, or
/// summed, differently). Throws `Error` on the shape errors conv2d throws for, when the mask is not
/// the output's H x W, or `base` is neither empty nor the output's shape.
Tensor ssi_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& params,
                  const SpatialMask& output_mask, const Tensor& base = Tensor());

/// The same in place: `output` holds the layer's previous output (the output's shape) and only its
/// active positions are rewritten, as a frame-to-frame pipeline reuses its activation buffers (no
/// allocation and no copy of the inactive values). Throws as `ssi_conv2d` does when `output` does
/// not have the output's shape.
///
///     ssi_conv2d_into(x, w, b, p, mask, y);   // y: last frame's output, updated where mask is set
void ssi_conv2d_into(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& params,
                     const SpatialMask& output_mask, Tensor& output);

}  // namespace coinfer::kernels
