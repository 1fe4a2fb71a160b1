// A layer's kernel weights from the arrays a model file brought (an ONNX import).
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer::kernels {
namespace {

// The shapes `layer` takes, in StoredLayerWeights order: weight then (when the layer has one) bias,
// or batch norm's four per-channel vectors.
std::vector<Shape> expected_shapes(const Layer& l, const Shape& in) {
  const auto& a = l.attrs;
  const auto with_bias = [&](Shape weight, std::int64_t n) {
    std::vector<Shape> s{std::move(weight)};
    if (a.bias) s.push_back({n});
    return s;
  };
  switch (l.op) {
    case OpKind::Conv2d:
      return with_bias({a.out_channels, in.at(0) / a.groups, a.kernel[0], a.kernel[1]}, a.out_channels);
    case OpKind::DepthwiseConv2d: {
      const std::int64_t c = in.at(0) * a.multiplier;
      return with_bias({c, 1, a.kernel[0], a.kernel[1]}, c);
    }
    case OpKind::FullyConnected:
      return with_bias({a.units, in.size() == 2 ? in[1] : shape_elements(in)}, a.units);
    case OpKind::BatchNorm:
      return {{in.at(0)}, {in.at(0)}, {in.at(0)}, {in.at(0)}};
    default:
      throw InputError("", "", fmt::format("layer '{}' ({}) takes no stored weights", l.name, op_name(l.op)));
  }
}

Tensor to_tensor(const StoredArray& a) { return Tensor(a.shape, a.values()); }

}  // namespace

LayerWeights weights_from_stored(const Layer& l, const Shape& in, const StoredLayerWeights& stored) {
  const std::vector<Shape> want = expected_shapes(l, in);
  if (stored.arrays.size() != want.size())
    throw InputError("", "",
                     fmt::format("layer '{}' ({}) takes {} weight arrays, the file gives {}", l.name,
                                 op_name(l.op), want.size(), stored.arrays.size()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const StoredArray& a = stored.arrays[i];
    if (shape_elements(a.shape) != shape_elements(want[i]) || a.size() != shape_elements(want[i]))
      throw InputError("", "",
                       fmt::format("layer '{}' ({}): weight array {} is {}, the layer takes {}", l.name,
                                   op_name(l.op), i, shape_to_string(a.shape), shape_to_string(want[i])));
  }
  LayerWeights w;
  if (l.op == OpKind::BatchNorm) {
    w.batch_norm = {stored.arrays[2].values(), stored.arrays[3].values(), stored.arrays[0].values(),
                    stored.arrays[1].values(), static_cast<float>(stored.epsilon)};
    return w;
  }
  Tensor weight(want[0], stored.arrays[0].values());
  if (want.size() > 1) w.bias = to_tensor(stored.arrays[1]);
  if (l.op == OpKind::FullyConnected && l.attrs.sparsity > 0.0) {
    w.sparse_weight = prune_to_csr(weight, l.attrs.sparsity);
    w.sparse = true;
  } else {
    w.weight = std::move(weight);
  }
  return w;
}

}  // namespace coinfer::kernels
