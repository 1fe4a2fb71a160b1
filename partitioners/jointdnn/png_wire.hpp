#pragma once
/// JointDNN's lossless activation compression on the wire ([JointDNN §4.2, Fig. 14]): every
/// conv-shaped output (C, H, W) of a model, from a real forward pass, compressed by the real PNG
/// kernel (`sim/kernels/png_compress`: 8-bit quantization over [min, max], channels tiled into one
/// grey image, libpng), with its size, zero ratio and compression ratio, and the host time of the
/// compress and decompress kernels.
///
/// Weights: seeded random ones (`ForwardPass(graph, seed)`) unless a raw weights file is given.
/// Seeded random weights are NOT trained weights: their activations have other zero ratios and
/// other PNG ratios than the paper's trained AlexNet / VGG-16. The raw weights format (read by
/// `load_raw_weights`) lets a user with trained weights measure the true ratios:
///
///   little-endian IEEE float32 values, no header, concatenated over the model's layers in
///   topological order (`coinfer model show M` lists them); per layer, in this order: `weight`
///   (conv: (K, C/groups, kh, kw); fc: (out, in), as sim/kernels/conv.hpp and dense.hpp lay them
///   out), `bias`, then batch_norm `scale`, `shift`, `mean`, `variance` (one value per channel).
///   Layers without parameters contribute nothing. The file must hold exactly the model's dense
///   parameters (4 x count bytes); pruned (sparse) fc and lstm layers are not supported.
///
///     auto wire = measure_png_wire(build_zoo_model("alexnet"), {.seed = 1});
///     wire[3].zero_ratio, wire[3].ratio_vs_8bit   // ZR and CR of the layer at position 3
#include <cstdint>
#include <string>
#include <vector>

#include "sim/functional/forward_pass.hpp"

namespace coinfer::jointdnn {

struct PngWireOptions {
  std::uint64_t seed = 1;               ///< weights (unless `weights_file`) and input
  std::string weights_file;             ///< "" = seeded random weights; else the raw format above
  std::string weights_key = "weights";  ///< key path named in errors about the file
  int repeats = 3;                      ///< kernel timings: the median of this many runs
};

/// One layer's output on the wire (indexed by topological position).
struct PngWireLayer {
  std::string name;
  bool compressed = false;     ///< conv-shaped (rank 3) output: sent as PNG
  double raw_bytes = 0.0;      ///< fp32 bytes (what the uncompressed wire carries)
  double png_bytes = 0.0;      ///< PNG file + 8 bytes of range (compressed only)
  double zero_ratio = 0.0;     ///< ZR: fraction of exactly-zero fp32 values
  double ratio_vs_8bit = 0.0;  ///< CR: 8-bit bytes / PNG bytes (compressed only)
  double compress_host_s = 0.0;
  double decompress_host_s = 0.0;
};

/// Throws `InputError` (path `options.weights_key`, file named) when the weights file cannot be
/// read or has the wrong size, naming the expected byte count.
std::vector<PngWireLayer> measure_png_wire(const Graph& graph, const PngWireOptions& options);

/// Replaces `fp`'s weights with those of a raw weights file (format above). Throws `InputError`.
void load_raw_weights(ForwardPass& fp, const std::string& path, const std::string& key);

}  // namespace coinfer::jointdnn
