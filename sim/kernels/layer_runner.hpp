#pragma once
/// Runs one layer of the graph IR (sim/graph/layer.hpp) on real tensors, and makes seeded weights for
/// it. This is the entry point the profiler and the functional-mode engine use:
///
///     const Layer& l = graph.layer(i);                          // after graph.infer()
///     LayerWeights w = make_weights(l, input.shape, seed);      // seeded, reproducible
///     Tensor y = run_layer(l, {&input}, w);                     // y.shape == l.output_shape
///
/// Weight conventions (PyTorch layouts, see conv.hpp, dense.hpp, lstm.hpp): weights are drawn from
/// N(0, 2 / fan_in) (He initialisation, so activations keep their scale through deep ReLU stacks),
/// biases from N(0, 0.01^2). A layer with `sparsity` s > 0 is magnitude-pruned per row to s (fc layers
/// then run as CSR SpMV; conv layers keep the dense kernel with zeroed weights). Batch norm gets
/// mean ~ N(0, 0.1^2), variance ~ U[0.5, 1.5), scale ~ U[0.5, 1.5), shift ~ N(0, 0.1^2).
#include <cstdint>
#include <vector>

#include "sim/graph/graph.hpp"
#include "sim/graph/layer.hpp"
#include "sim/graph/stored_weights.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/lstm.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// The parameters of one layer; only the fields its op uses are filled.
struct LayerWeights {
  Tensor weight;            ///< conv kinds and dense fc (layouts in conv.hpp / dense.hpp)
  Tensor bias;              ///< one value per output channel / unit; empty if bias = false
  CsrMatrix sparse_weight;  ///< fc with sparsity > 0 (then `weight` is empty)
  bool sparse = false;
  BatchNormParams batch_norm;         ///< batch_norm
  std::vector<LstmCellWeights> lstm;  ///< lstm: num_layers * directions cells, layer-major

  /// Bytes of parameters held (CSR counted as stored).
  std::int64_t size_bytes() const;
};

/// Seeded weights for `layer` given its (first) input shape. Layers without parameters get an empty
/// LayerWeights. Throws `Error` if the input shape does not fit the layer.
LayerWeights make_weights(const Layer& layer, const Shape& input, std::uint64_t seed);

/// `layer`'s weights from the values a model file brought (sim/graph/stored_weights.hpp). Throws
/// `InputError` naming the layer when they are not what it takes (check_stored_weights).
LayerWeights weights_from_stored(const Layer& layer, const Shape& input, const StoredLayerWeights& stored);

/// The inverse: `weights` as the arrays of sim/graph/stored_weights.hpp (a model file's layout), for
/// a layer that takes stored weights. Throws `InputError` for a sparse (pruned) fc layer.
StoredLayerWeights stored_from_weights(const Layer& layer, const Shape& input, const LayerWeights& weights);

/// The weights functional mode runs `layer` of `graph` with (ForwardPass), in the stored layout: those
/// the model file brought, else the seeded ones (`derive_seed(seed, layer.name)`). For writing a model
/// file that runs as `coinfer infer --seed seed` runs the graph.
StoredLayerWeights file_weights(const Graph& graph, const Layer& layer, const Shape& input,
                                std::uint64_t seed);

/// The convolution parameters of a conv layer's attributes (stride, padding, dilation, output padding,
/// groups).
ConvParams conv_params(const LayerAttrs& attrs);

/// Runs `layer` on `inputs` (one per entry of layer.inputs, in order). `input` layers return a copy of
/// their single given tensor; dropout is the identity (inference); flatten reshapes. Throws `Error`
/// on a wrong number of inputs or a shape mismatch.
Tensor run_layer(const Layer& layer, const std::vector<const Tensor*>& inputs, const LayerWeights& weights);

/// What `backward_layer` returns: dL/d(each input), in layer.inputs order, and dL/d(parameters) shaped
/// like them (conv and fc: `weight`, `bias`; batch_norm: `weight` = dL/dscale, `bias` = dL/dshift,
/// both (C); lstm: `lstm`, one entry per cell as LayerWeights::lstm). Layers without parameters leave
/// them empty.
struct LayerGradients {
  std::vector<Tensor> inputs;
  Tensor weight, bias;
  std::vector<LstmCellWeights> lstm;
};

/// Whether training can differentiate `layer`: every op (input has nothing to differentiate) but a
/// sparse fc (sparsity > 0, run as CSR SpMV).
bool has_backward(const Layer& layer);

/// The backward pass of `layer` given its forward `inputs` and `output` and dL/d(output): the
/// chain rule through the backward kernels. Two ops need forward state this function does not see:
/// batch_norm differentiates training mode, so `weights.batch_norm` must hold the statistics of x
/// (batch_norm_statistics, x channel-major over the minibatch); dropout needs the forward's mask
/// (call dropout_backward). Throws `Error` for dropout, for an op without `has_backward` and on
/// inconsistent shapes.
///
///     LayerGradients g = backward_layer(l, {&x}, y, w, dy);    // g.inputs[0] ~ x, g.weight ~ w.weight
LayerGradients backward_layer(const Layer& layer, const std::vector<const Tensor*>& inputs,
                              const Tensor& output, const LayerWeights& weights, const Tensor& grad_output);

}  // namespace coinfer::kernels
