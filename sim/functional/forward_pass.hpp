#pragma once
/// Functional mode: a whole model run on the host with real kernels and seeded weights.
///
///     Graph g = build_zoo_model("vgg16");
///     ForwardPass fp(g, 42);                            // weights for every layer, from seed 42
///     std::vector<Tensor> acts = fp.run(fp.make_inputs(7));   // acts[i]: output of layer i
///     const Tensor& out = acts[g.output_layers().front()];
///
/// For timing a part of a model (the profiler), `run_range` executes positions [first, last) of the
/// topological order given the activations of everything before them.
#include <cstdint>
#include <vector>

#include "sim/graph/graph.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer {

/// Bytes a host forward pass of a graph holds at its peak, as `ForwardPass::run(keep_all = false)`
/// and the profiler hold them: every layer's fp32 weights (params x 4), the fp32 activations alive
/// at once (a tensor is freed after its last consumer), and the largest im2col scratch of a conv2d
/// (C/g kh kw x OH OW floats). Sums are overflow-checked: a total beyond int64 reads INT64_MAX.
struct ForwardMemory {
  std::int64_t weight_bytes = 0;
  std::int64_t activation_bytes = 0;  ///< peak of the live activations
  std::int64_t scratch_bytes = 0;
  std::size_t largest_layer = 0;  ///< the layer holding the most (weights + output)
  std::int64_t largest_layer_bytes = 0;
  std::int64_t total_bytes() const;
};
/// Requires an inferred graph.
ForwardMemory forward_pass_memory(const Graph& graph);

/// Physical memory of this host, sysconf(_SC_PHYS_PAGES) x sysconf(_SC_PAGE_SIZE) (INT64_MAX when
/// unknown): the limit a forward pass or a profile may need.
std::int64_t host_memory_bytes();

/// Throws `InputError("", "layers[i]", "model 'm' needs N bytes ... more than this host's memory
/// (M bytes) ...; the largest layer 'x' (fc) holds K bytes")` when the forward pass would need more
/// than `limit_bytes`, before anything is allocated (rather than std::bad_alloc midway).
///
///     check_forward_pass_memory(graph);   // the host's physical memory
void check_forward_pass_memory(const Graph& graph, std::int64_t limit_bytes = host_memory_bytes());

class ForwardPass {
 public:
  /// Infers the graph if needed and makes every layer's weights from
  /// `derive_seed(seed, layer.name)`, but for the layers whose weights the model file brought
  /// (`Graph::stored_weights`, an ONNX import): those run with the file's values. Throws `Error` /
  /// `InputError` for an invalid graph, and `InputError` when the forward pass would not fit the host's
  /// memory (check_forward_pass_memory).
  ForwardPass(Graph graph, std::uint64_t seed);

  const Graph& graph() const { return graph_; }
  const kernels::LayerWeights& weights(std::size_t layer) const { return weights_.at(layer); }
  /// The same weights, for training to update in place.
  kernels::LayerWeights& mutable_weights(std::size_t layer) { return weights_.at(layer); }
  /// Indices of the layers `layer` reads, in its `inputs` order.
  const std::vector<std::size_t>& producers(std::size_t layer) const { return producers_.at(layer); }
  /// Total parameter bytes held.
  std::int64_t weight_bytes() const;

  /// One N(0, 1) tensor per input layer, in `graph().input_layers()` order.
  std::vector<Tensor> make_inputs(std::uint64_t seed) const;

  /// Runs the whole model; `inputs` as from make_inputs. Returns every layer's output, indexed by layer
  /// index. With `keep_all` false, intermediate tensors are freed once their last consumer ran (only
  /// the model outputs stay non-empty). Throws `Error` if an input's shape is wrong.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, bool keep_all = true) const;

  /// Runs topological positions [first, last) into `activations` (indexed by layer index, size
  /// graph().size()); every input of those layers must already be present. Throws `Error` otherwise.
  void run_range(std::size_t first, std::size_t last, std::vector<Tensor>& activations) const;

  /// Runs one layer (by index) reading its inputs from `activations`.
  Tensor run_layer(std::size_t layer, const std::vector<Tensor>& activations) const;

 private:
  Graph graph_;
  std::vector<kernels::LayerWeights> weights_;
  std::vector<std::vector<std::size_t>> producers_;  // per layer: indices of its inputs
};

}  // namespace coinfer
