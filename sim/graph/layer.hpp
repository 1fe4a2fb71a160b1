#pragma once
/// One layer of the graph IR: what the user states (name, op, inputs, attributes) and
/// what shape inference derives (output shape, parameters, MACs, output bytes).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/graph/op.hpp"
#include "sim/graph/shape.hpp"

namespace coinfer {

/// Element type of a layer's output; fp32 unless stated.
enum class DType { Fp32, Fp16, Int8 };
std::string_view dtype_name(DType t);
std::int64_t dtype_bytes(DType t);

/// The features layer_norm normalizes over in an input of `shape`: C of (C,H,W) (at every pixel, as
/// ConvNeXt), F of (T,F) (at every step, as a transformer) or of (F); 0 for any other rank.
std::int64_t layer_norm_features(const Shape& shape);

/// Operator attributes. Only the fields an op uses are read or written
/// (see `attribute_keys(op)` in graph_json); the rest keep their defaults.
struct LayerAttrs {
  Shape shape;                               ///< input: the tensor shape
  std::int64_t out_channels = 0;             ///< conv2d, conv_transpose2d
  std::array<std::int64_t, 2> kernel{1, 1};  ///< (kh, kw): conv kinds and pools
  std::array<std::int64_t, 2> stride{1, 1};
  std::array<std::int64_t, 2> padding{0, 0};
  std::array<std::int64_t, 2> dilation{1, 1};
  std::array<std::int64_t, 2> output_padding{0, 0};  ///< conv_transpose2d
  std::int64_t groups = 1;                           ///< conv2d, conv_transpose2d, channel_shuffle
  std::int64_t multiplier = 1;                       ///< depthwise_conv2d: outputs per input channel
  bool bias = true;                                  ///< weighted ops
  bool ceil_mode = false;                            ///< pools: Caffe-style ceil rounding of the output size
  std::int64_t units = 0;                            ///< fc outputs, lstm hidden size
  double sparsity = 0.0;                             ///< fraction of zero weights, in [0, 1)
  double negative_slope = 0.01;                      ///< leaky_relu
  double slope = 0.2, offset = 0.5;                  ///< hard_sigmoid (ONNX's defaults; PyTorch: 1/6, 0.5)
  std::int64_t lrn_size = 5;                         ///< lrn window across channels
  double lrn_alpha = 1e-4, lrn_beta = 0.75, lrn_k = 1.0;
  double rate = 0.5;                        ///< dropout (identity at inference)
  double epsilon = 1e-5;                    ///< layer_norm: added to the variance
  std::int64_t heads = 1;                   ///< attention heads (they split the features)
  std::int64_t axis = 0;                    ///< concat, slice axis (0 = channels)
  std::int64_t start = 0, end = 0;          ///< slice: the range [start, end) of `axis`
  std::int64_t num_layers = 1;              ///< lstm stacked layers
  bool bidirectional = false;               ///< lstm
  bool return_sequences = true;             ///< lstm: (T, H) output, else last step (H)
  std::array<std::int64_t, 2> scale{2, 2};  ///< upsample factors (sh, sw)
  std::string mode = "nearest";             ///< upsample: nearest | bilinear
  DType dtype = DType::Fp32;                ///< output element type

  bool operator==(const LayerAttrs&) const = default;
};

struct Layer {
  std::string name;
  OpKind op = OpKind::Input;
  std::vector<std::string> inputs;
  LayerAttrs attrs;

  // Derived by shape inference (Graph::infer); never set by hand.
  Shape output_shape;
  std::int64_t params = 0;
  std::int64_t macs = 0;
  std::int64_t output_bytes = 0;

  bool operator==(const Layer&) const = default;
};

}  // namespace coinfer
