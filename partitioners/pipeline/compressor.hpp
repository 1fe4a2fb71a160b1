#pragma once
/// Autoencoder compressors of Hu & Krishnamachari ([HuK §IV-C],
/// Table I) as real graph layers. For ratio gamma, the encoder is a stack of inverted-residual
/// blocks with depthwise separable convolution (1x1 expansion when the ratio t != 1, ReLU6; 3x3
/// depthwise of stride s, ReLU6; 1x1 linear projection), appended after the split layer; the decoder
/// is a stack of the same blocks with a depthwise separable *transposed* convolution (3x3, stride s,
/// output padding s-1 so stride 2 doubles the size exactly), prepended to the layers after the
/// split. Channels are multiples of the split tensor's C (Table I's note: "2x" of 24 channels is 48).
///
///     gamma  encoder (channels, t, stride)      decoder (channels, t, stride)
///     2      (2C, 1, 2)                         (C, 0.5, 2)
///     4      (C, 1, 1) -> (C, 1, 2)             (C, 1, 2) -> (C, 1, 1)
///     8      (2C, 1, 2) -> (2C, 1, 2)           (C, 0.5, 2) -> (C, 1, 2)
///
/// so the code M has C*H*W / gamma elements and the decoder restores (C, H, W).
///
///     Graph fused = insert_compressor(graph, "features.3.add", 4);   // a new, inferred graph
#include <cstdint>
#include <string>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

/// One inverted-residual block of Table I.
struct CompressorBlock {
  std::int64_t channels_x = 1;  ///< output channels as a multiple of the split tensor's C
  double expansion = 1.0;       ///< t: hidden channels = input channels * t
  std::int64_t stride = 1;
};

struct CompressorSpec {
  std::int64_t gamma = 1;
  std::vector<CompressorBlock> encoder, decoder;
};

/// Table I's architecture for gamma in {2, 4, 8}; throws `InputError("", "", ...)` otherwise.
CompressorSpec compressor_spec(std::int64_t gamma);

/// Layers of a compressor inserted into a graph (names, in topological order).
struct InsertedCompressor {
  std::vector<std::string> encoder;  ///< the last one outputs the code M
  std::vector<std::string> decoder;  ///< the last one outputs the reconstruction
};

/// A copy of the inferred `graph` with the compressor of `gamma` after layer `split_layer`: its
/// consumers that come after it in topological order read the decoder's output instead. The
/// copy is named `<graph>+ae<gamma>@<split_layer>` and inferred. Throws `InputError("", "", ...)`
/// when the split tensor is not (C, H, W) or when H and W are not multiples of the encoder's
/// total stride (the code would not be exactly 1/gamma of the tensor).
Graph insert_compressor(const Graph& graph, const std::string& split_layer, std::int64_t gamma,
                        InsertedCompressor* layers = nullptr);

}  // namespace coinfer
