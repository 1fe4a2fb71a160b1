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
/// Sparser activations (`relu_zero_ratio`): trained CNNs zero 50% to 90% of their values after a
/// relu ([JointDNN §4.2]); seeded random weights about 50%. With `relu_zero_ratio` z, before the
/// measurement every relu on a conv-shaped (C, H, W) tensor gets z of each channel's values zeroed:
/// its producer's bias (conv2d) or shift (batch_norm) is lowered, channel by channel, by the
/// z-quantile of that channel's output, relus in topological order, each on the activations the
/// shifts before it produced. The weights stay random; only the zero ratio is set, the quantity
/// the paper ties the compression ratio to. A relu whose producer has no bias or shift is an error.
///
///     auto wire = measure_png_wire(build_zoo_model("alexnet"), {.seed = 1});
///     wire[3].zero_ratio, wire[3].ratio_vs_8bit   // ZR and CR of the layer at position 3
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/functional/forward_pass.hpp"

namespace coinfer::jointdnn {

struct PngWireOptions {
  std::uint64_t seed = 1;                 ///< weights (unless `weights_file`) and input
  std::string weights_file;               ///< "" = seeded random weights; else the raw format above
  std::string weights_key = "weights";    ///< key path named in errors about the file
  int repeats = 3;                        ///< kernel timings: the median of this many runs
  std::optional<double> relu_zero_ratio;  ///< in (0, 1): zero ratio set after every conv relu (above)
  std::string zero_ratio_key = "relu_zero_ratio";  ///< key path named in errors about it
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

/// Lowers the bias or shift before every relu on a conv-shaped tensor so that `ratio` of each of
/// its channels is zero (above); `activations` (every layer's, from `fp.run`) are brought up to
/// date. Throws `InputError` (path `key`) for a ratio outside (0, 1) or a relu whose producer is not
/// a conv2d with a bias or a batch_norm.
void set_relu_zero_ratio(ForwardPass& fp, std::vector<Tensor>& activations, double ratio,
                         const std::string& key);

/// Replaces `fp`'s weights with those of a raw weights file (format above). Throws `InputError`.
void load_raw_weights(ForwardPass& fp, const std::string& path, const std::string& key);

}  // namespace coinfer::jointdnn
