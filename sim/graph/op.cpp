#include "sim/graph/op.hpp"

#include <array>
#include <utility>

namespace coinfer {
namespace {

constexpr std::array<std::pair<OpKind, std::string_view>, 32> kOps{{
    {OpKind::Input, "input"},
    {OpKind::Conv2d, "conv2d"},
    {OpKind::DepthwiseConv2d, "depthwise_conv2d"},
    {OpKind::ConvTranspose2d, "conv_transpose2d"},
    {OpKind::FullyConnected, "fc"},
    {OpKind::MaxPool, "max_pool"},
    {OpKind::AvgPool, "avg_pool"},
    {OpKind::GlobalAvgPool, "global_avg_pool"},
    {OpKind::Relu, "relu"},
    {OpKind::Relu6, "relu6"},
    {OpKind::Sigmoid, "sigmoid"},
    {OpKind::Tanh, "tanh"},
    {OpKind::LeakyRelu, "leaky_relu"},
    {OpKind::BatchNorm, "batch_norm"},
    {OpKind::Lrn, "lrn"},
    {OpKind::Dropout, "dropout"},
    {OpKind::Softmax, "softmax"},
    {OpKind::Flatten, "flatten"},
    {OpKind::Add, "add"},
    {OpKind::Concat, "concat"},
    {OpKind::Lstm, "lstm"},
    {OpKind::Upsample, "upsample"},
    {OpKind::Mul, "mul"},
    {OpKind::HardSigmoid, "hard_sigmoid"},
    {OpKind::Slice, "slice"},
    {OpKind::ChannelShuffle, "channel_shuffle"},
    {OpKind::LayerNorm, "layer_norm"},
    {OpKind::Gelu, "gelu"},
    {OpKind::Tokens, "tokens"},
    {OpKind::ClassToken, "class_token"},
    {OpKind::PositionEmbedding, "position_embedding"},
    {OpKind::Attention, "attention"},
}};

}  // namespace

std::string_view op_name(OpKind op) {
  for (const auto& [kind, name] : kOps)
    if (kind == op) return name;
  return "?";
}

std::optional<OpKind> op_from_name(std::string_view name) {
  for (const auto& [kind, n] : kOps)
    if (n == name) return kind;
  return std::nullopt;
}

std::vector<std::string> op_names() {
  std::vector<std::string> out;
  for (const auto& [kind, name] : kOps) out.emplace_back(name);
  return out;
}

bool op_has_weights(OpKind op) {
  switch (op) {
    case OpKind::Conv2d:
    case OpKind::DepthwiseConv2d:
    case OpKind::ConvTranspose2d:
    case OpKind::FullyConnected:
    case OpKind::Lstm:
      return true;
    default:
      return false;
  }
}

bool op_is_shape_preserving(OpKind op) {
  switch (op) {
    case OpKind::Relu:
    case OpKind::Relu6:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::LeakyRelu:
    case OpKind::BatchNorm:
    case OpKind::Lrn:
    case OpKind::Dropout:
    case OpKind::Softmax:
    case OpKind::HardSigmoid:
    case OpKind::ChannelShuffle:
    case OpKind::LayerNorm:
    case OpKind::Gelu:
    case OpKind::PositionEmbedding:
    case OpKind::Attention:
      return true;
    default:
      return false;
  }
}

}  // namespace coinfer
