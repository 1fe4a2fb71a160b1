#include "sim/calibration/op_class.hpp"

#include <array>
#include <utility>

namespace coinfer {
namespace {

constexpr std::array<std::pair<OpClass, std::string_view>, kOpClassCount> kClasses{{
    {OpClass::Conv, "conv"},
    {OpClass::Depthwise, "depthwise"},
    {OpClass::Deconv, "deconv"},
    {OpClass::Fc, "fc"},
    {OpClass::SparseFc, "sparse_fc"},
    {OpClass::Pool, "pool"},
    {OpClass::Elementwise, "elementwise"},
    {OpClass::Norm, "norm"},
    {OpClass::Lstm, "lstm"},
    {OpClass::Other, "other"},
}};

}  // namespace

OpClass op_class_of(OpKind op) {
  switch (op) {
    case OpKind::Conv2d:
      return OpClass::Conv;
    case OpKind::DepthwiseConv2d:
      return OpClass::Depthwise;
    case OpKind::ConvTranspose2d:
      return OpClass::Deconv;
    case OpKind::FullyConnected:
    case OpKind::Attention:  // matrix products, as an fc's
      return OpClass::Fc;
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return OpClass::Pool;
    case OpKind::Relu:
    case OpKind::Relu6:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::LeakyRelu:
    case OpKind::Dropout:
    case OpKind::Add:
    case OpKind::Mul:
    case OpKind::HardSigmoid:
    case OpKind::Gelu:
    case OpKind::PositionEmbedding:
    case OpKind::Softmax:
      return OpClass::Elementwise;
    case OpKind::BatchNorm:
    case OpKind::LayerNorm:
    case OpKind::Lrn:
      return OpClass::Norm;
    case OpKind::Lstm:
      return OpClass::Lstm;
    case OpKind::Input:
    case OpKind::Flatten:
    case OpKind::Concat:
    case OpKind::Upsample:
    case OpKind::Slice:
    case OpKind::ChannelShuffle:
    case OpKind::Tokens:
    case OpKind::ClassToken:
      return OpClass::Other;
  }
  return OpClass::Other;
}

OpClass op_class_of(const Layer& layer) {
  if (layer.op == OpKind::FullyConnected && layer.attrs.sparsity > 0.0) return OpClass::SparseFc;
  return op_class_of(layer.op);
}

std::string_view op_class_name(OpClass c) {
  for (const auto& [cls, name] : kClasses)
    if (cls == c) return name;
  return "?";
}

std::optional<OpClass> op_class_from_name(std::string_view name) {
  for (const auto& [cls, n] : kClasses)
    if (n == name) return cls;
  return std::nullopt;
}

const std::vector<OpClass>& all_op_classes() {
  static const std::vector<OpClass> classes = [] {
    std::vector<OpClass> out;
    for (const auto& [cls, name] : kClasses) out.push_back(cls);
    return out;
  }();
  return classes;
}

std::vector<std::string> op_class_names() {
  std::vector<std::string> out;
  for (const auto& [cls, name] : kClasses) out.emplace_back(name);
  return out;
}

}  // namespace coinfer
