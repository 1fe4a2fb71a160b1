// A layer's kernel weights from the arrays a model file brought (an ONNX import).
#include "sim/kernels/dense.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer::kernels {
LayerWeights weights_from_stored(const Layer& l, const Shape& in, const StoredLayerWeights& stored) {
  const std::vector<Shape> want = stored_weight_shapes(l, in);
  check_stored_weights(l, in, stored);
  LayerWeights w;
  if (l.op == OpKind::BatchNorm) {
    w.batch_norm = {stored.arrays[2].values(), stored.arrays[3].values(), stored.arrays[0].values(),
                    stored.arrays[1].values(), static_cast<float>(stored.epsilon)};
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

}  // namespace coinfer::kernels
