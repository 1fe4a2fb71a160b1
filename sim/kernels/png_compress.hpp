#pragma once
/// PNG compression of an activation tensor ([JointDNN
/// §4.2]): the tensor is quantized to 8 bits (affine over its [min, max]), its channels are tiled
/// side by side into one 2-D grey image (ceil(sqrt(C)) tiles per row, unused tiles zero), and the image
/// is PNG-encoded in memory with libpng; decoding reverses the three steps.
///
///     PngTensor p = png_compress(relu_output);
///     Tensor back = png_decompress(p);               // |back - x| <= p.step() / 2 per element
///     double cr = p.ratio_vs_8bit();                 // JointDNN's CR: 8-bit bytes / PNG bytes
#include <cstdint>
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct PngTensor {
  Shape shape;                   ///< of the original tensor
  float min = 0.0f, max = 0.0f;  ///< 8-bit level q decodes to min + q * step()
  std::int64_t tiles_per_row = 1, tile_h = 1, tile_w = 1;
  std::vector<std::uint8_t> png;  ///< the encoded image (a complete PNG file)

  /// Quantization step (max - min) / 255 (1 for a constant tensor).
  float step() const { return max > min ? (max - min) / 255.0f : 1.0f; }
  /// Bytes sent: the PNG plus min, max (fp32) and the shape (the receiver knows the layer).
  std::int64_t size_bytes() const { return static_cast<std::int64_t>(png.size()) + 8; }
  /// Raw fp32 bytes / PNG bytes.
  double ratio_vs_fp32() const;
  /// 8-bit bytes (one per element) / PNG bytes: the compression ratio CR as JointDNN defines it.
  double ratio_vs_8bit() const;
};

/// Rank 3 tensors are (C, H, W); rank 2 (T, F) is one H x W channel, rank 1 one row.
/// Throws `Error` for an empty tensor, a NaN/infinity, or a libpng failure.
PngTensor png_compress(const Tensor& x);
/// Throws `Error` if the PNG is corrupt or does not match the recorded geometry.
Tensor png_decompress(const PngTensor& p);

}  // namespace coinfer::kernels
