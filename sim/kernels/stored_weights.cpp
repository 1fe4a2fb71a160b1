// A layer's kernel weights from the arrays a model file brought (an ONNX import), and the other way:
// the arrays of a layer's kernel weights, for writing a model file (an ONNX export).
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer::kernels {
LayerWeights weights_from_stored(const Layer& l, const Shape& in, const StoredLayerWeights& stored) {
  const std::vector<Shape> want = check_stored_weights(l, in, stored);
  LayerWeights w;
  if (l.op == OpKind::BatchNorm) {
    w.batch_norm = {stored.arrays[2].values(), stored.arrays[3].values(), stored.arrays[0].values(),
                    stored.arrays[1].values(), static_cast<float>(stored.epsilon)};
    return w;
  }
  if (l.op == OpKind::Lstm) {
    const std::size_t per_cell = l.attrs.bias ? 3 : 2;
    for (std::size_t i = 0; i < want.size(); i += per_cell)
      w.lstm.push_back({Tensor(want[i], stored.arrays[i].values()),
                        Tensor(want[i + 1], stored.arrays[i + 1].values()),
                        l.attrs.bias ? Tensor(want[i + 2], stored.arrays[i + 2].values()) : Tensor()});
    return w;
  }
  Tensor weight(want[0], stored.arrays[0].values());
  if (want.size() > 1) w.bias = Tensor(want[1], stored.arrays[1].values());
  if (l.op == OpKind::FullyConnected && l.attrs.sparsity > 0.0) {
    w.sparse_weight = prune_to_csr(weight, l.attrs.sparsity);
    w.sparse = true;
  } else {
    w.weight = std::move(weight);
  }
  return w;
}

StoredLayerWeights stored_from_weights(const Layer& l, const Shape& in, const LayerWeights& w) {
  const std::vector<Shape> want = stored_weight_shapes(l, in);
  StoredLayerWeights out;
  if (l.op == OpKind::BatchNorm) {
    const auto& bn = w.batch_norm;
    for (const auto* v : {&bn.scale, &bn.shift, &bn.mean, &bn.variance})
      out.arrays.push_back(StoredArray::of(want[0], *v));
    out.epsilon = bn.epsilon;
  } else if (l.op == OpKind::Lstm) {
    std::size_t i = 0;
    for (const auto& cell : w.lstm) {
      out.arrays.push_back(StoredArray::of(want.at(i++), cell.w_ih.data));
      out.arrays.push_back(StoredArray::of(want.at(i++), cell.w_hh.data));
      if (l.attrs.bias) out.arrays.push_back(StoredArray::of(want.at(i++), cell.bias.data));
    }
  } else {
    if (w.sparse)
      throw InputError("", "",
                       fmt::format("layer '{}' ({}): a pruned (sparse) weight has no dense stored form",
                                   l.name, op_name(l.op)));
    out.arrays.push_back(StoredArray::of(want[0], w.weight.data));
    if (want.size() > 1) out.arrays.push_back(StoredArray::of(want[1], w.bias.data));
  }
  check_stored_weights(l, in, out);
  return out;
}

StoredLayerWeights file_weights(const Graph& graph, const Layer& l, const Shape& in, std::uint64_t seed) {
  if (const StoredWeights* stored = graph.stored_weights())
    if (auto it = stored->find(l.name); it != stored->end()) return it->second;
  return stored_from_weights(l, in, make_weights(l, in, derive_seed(seed, l.name)));
}

}  // namespace coinfer::kernels
