#pragma once
/// A model as a DAG of layers. Layers are kept in insertion order; `infer()` checks the
/// graph (unique names, known inputs, no cycle, valid attributes, matching shapes) and
/// derives every layer's output shape, parameters, MACs and output bytes.
///
///     Graph g("tiny");
///     g.add(make_input("data", {3, 32, 32}));
///     g.add(...);
///     g.infer();                     // throws InputError("", "layers[3]", "layer 'x': ...")
///     g.total_params();
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/graph/layer.hpp"
#include "sim/graph/stored_weights.hpp"

namespace coinfer {

/// Largest tensor one layer may produce, and largest fp32 weight set one layer may hold: 2^40 bytes
/// (1 TiB), beyond the memory of any device coinfer models (the largest GPU holds 141 GiB). Shape
/// inference rejects a layer over it with an `InputError` naming the layer, so every derived count
/// (elements, params, MACs, bytes) of an inferred graph fits in int64 with room to spare.
inline constexpr std::int64_t kMaxTensorBytes = std::int64_t{1} << 40;

class Graph {
 public:
  Graph() = default;
  explicit Graph(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  /// Appends a layer; returns its index. Names are checked by `infer()`.
  std::size_t add(Layer layer);

  const std::vector<Layer>& layers() const { return layers_; }
  std::size_t size() const { return layers_.size(); }
  const Layer& layer(std::size_t index) const { return layers_.at(index); }

  /// Throws `Error` naming the layer when absent.
  const Layer& layer_by_name(const std::string& name) const;
  const Layer* layer_by_name_or_null(const std::string& name) const;
  /// Index of a layer; -1 when absent.
  long index_of(const std::string& name) const;

  /// Validates and derives shapes, params, MACs and bytes. Errors name the layer
  /// and carry the path `layers[i]` (or `layers[i].inputs[j]`). Sizes are overflow-checked and
  /// capped (`kMaxTensorBytes`); so are the model totals (`total_params`, `total_macs`).
  void infer();
  bool inferred() const { return inferred_; }

  /// Layer indices in a topological order (stable: ties keep insertion order). Requires infer().
  const std::vector<std::size_t>& topological_order() const { return order_; }
  /// Indices of the layers consuming `index`'s output, in insertion order. Requires infer().
  const std::vector<std::size_t>& consumers(std::size_t index) const { return consumers_.at(index); }
  /// Indices of input layers, in insertion order.
  std::vector<std::size_t> input_layers() const;
  /// Indices of layers nobody consumes (the model outputs).
  std::vector<std::size_t> output_layers() const;

  std::int64_t total_params() const;
  std::int64_t total_macs() const;

  /// Weights the model file brought (an ONNX import), or null: then functional mode seeds every layer.
  /// Shared, not copied, between copies of the graph; not part of `==` or of the JSON model format.
  const StoredWeights* stored_weights() const { return stored_weights_.get(); }
  void set_stored_weights(StoredWeightsPtr weights) { stored_weights_ = std::move(weights); }

  bool operator==(const Graph& other) const { return name_ == other.name_ && layers_ == other.layers_; }

 private:
  void index_names();
  void resolve_inputs();
  void sort_topologically();

  std::string name_;
  std::vector<Layer> layers_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::vector<std::vector<std::size_t>> producers_;
  std::vector<std::vector<std::size_t>> consumers_;
  std::vector<std::size_t> order_;
  StoredWeightsPtr stored_weights_;
  bool inferred_ = false;
};

/// Derives `layer`'s output shape, params, MACs and bytes from its attributes and input
/// shapes; throws `InputError("", "", "...")` describing the problem (the graph adds the path).
void infer_layer(Layer& layer, const std::vector<const Shape*>& input_shapes);

}  // namespace coinfer
