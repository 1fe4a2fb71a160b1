#pragma once
/// The operator kinds of the graph IR and their JSON names.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coinfer {

enum class OpKind {
  Input,
  Conv2d,
  DepthwiseConv2d,
  ConvTranspose2d,
  FullyConnected,
  MaxPool,
  AvgPool,
  GlobalAvgPool,
  Relu,
  Relu6,
  Sigmoid,
  Tanh,
  LeakyRelu,
  BatchNorm,
  Lrn,
  Dropout,
  Softmax,
  Flatten,
  Add,
  Concat,
  Lstm,
  Upsample,
  Mul,          ///< element-wise product, NumPy broadcasting over equal ranks (squeeze-and-excitation, swish)
  HardSigmoid,  ///< max(0, min(1, slope x + offset))
  Slice,        ///< the range [start, end) of one axis (ShuffleNet's channel split)
  ChannelShuffle,  ///< channel c = i (C / g) + j moves to j g + i (ShuffleNet)
  LayerNorm,   ///< normalizes over the feature axis (C of (C,H,W) per pixel, F of (T,F) or (F)); scale, shift
  Gelu,        ///< x Phi(x), with the exact erf (PyTorch's default)
  Tokens,      ///< (C,H,W) -> (H*W, C): the pixels as a sequence of C-feature tokens (ViT)
  ClassToken,  ///< (T,F) -> (T+1, F): a learned token put first (ViT's class token)
  PositionEmbedding,  ///< adds a learned tensor of the input's shape (a transformer's position embedding)
  Attention,          ///< multi-head self-attention of a (T,F) sequence (nn.MultiheadAttention), `heads`
};

/// JSON / CLI name of an op: `conv2d`, `depthwise_conv2d`, `fc`, `max_pool`, ...
std::string_view op_name(OpKind op);
/// Inverse of `op_name`; nullopt for an unknown name.
std::optional<OpKind> op_from_name(std::string_view name);
/// Every op name, in declaration order (for error messages).
std::vector<std::string> op_names();

/// True for ops that carry weights (conv, depthwise, transposed conv, fc, lstm).
bool op_has_weights(OpKind op);
/// True for element-wise ops whose output shape equals their input shape.
bool op_is_shape_preserving(OpKind op);

}  // namespace coinfer
