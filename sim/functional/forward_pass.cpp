#include "sim/functional/forward_pass.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {

ForwardPass::ForwardPass(Graph graph, std::uint64_t seed) : graph_(std::move(graph)) {
  if (!graph_.inferred()) graph_.infer();
  const std::size_t n = graph_.size();
  weights_.resize(n);
  producers_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Layer& l = graph_.layer(i);
    for (const auto& name : l.inputs)
      producers_[i].push_back(static_cast<std::size_t>(graph_.index_of(name)));
    if (!producers_[i].empty())
      weights_[i] =
          kernels::make_weights(l, graph_.layer(producers_[i][0]).output_shape, derive_seed(seed, l.name));
  }
}

std::int64_t ForwardPass::weight_bytes() const {
  std::int64_t b = 0;
  for (const auto& w : weights_) b += w.size_bytes();
  return b;
}

std::vector<Tensor> ForwardPass::make_inputs(std::uint64_t seed) const {
  std::vector<Tensor> inputs;
  for (auto i : graph_.input_layers())
    inputs.push_back(random_normal(graph_.layer(i).output_shape, derive_seed(seed, graph_.layer(i).name)));
  return inputs;
}

Tensor ForwardPass::run_layer(std::size_t layer, const std::vector<Tensor>& activations) const {
  const Layer& l = graph_.layer(layer);
  std::vector<const Tensor*> ins;
  for (auto p : producers_.at(layer)) {
    if (activations.at(p).empty())
      throw Error(fmt::format("layer '{}': input '{}' has not been computed", l.name, graph_.layer(p).name));
    ins.push_back(&activations[p]);
  }
  Tensor out = kernels::run_layer(l, ins, weights_[layer]);
  if (out.shape != l.output_shape)
    throw Error(fmt::format("layer '{}': kernel produced {}, shape inference says {}", l.name,
                            shape_to_string(out.shape), shape_to_string(l.output_shape)));
  return out;
}

void ForwardPass::run_range(std::size_t first, std::size_t last, std::vector<Tensor>& activations) const {
  const auto& order = graph_.topological_order();
  if (first > last || last > order.size() || activations.size() != graph_.size())
    throw Error(fmt::format("run_range: bad range [{}, {}) for {} layers", first, last, order.size()));
  for (std::size_t pos = first; pos < last; ++pos) {
    const std::size_t i = order[pos];
    if (graph_.layer(i).op == OpKind::Input) {
      if (activations[i].empty()) throw Error(fmt::format("input '{}' was not given", graph_.layer(i).name));
      continue;
    }
    activations[i] = run_layer(i, activations);
  }
}

std::vector<Tensor> ForwardPass::run(const std::vector<Tensor>& inputs, bool keep_all) const {
  const auto input_layers = graph_.input_layers();
  if (inputs.size() != input_layers.size())
    throw Error(
        fmt::format("model '{}' has {} inputs, got {}", graph_.name(), input_layers.size(), inputs.size()));
  std::vector<Tensor> acts(graph_.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Layer& l = graph_.layer(input_layers[k]);
    if (inputs[k].shape != l.output_shape)
      throw Error(fmt::format("input '{}' must have shape {}, got {}", l.name,
                              shape_to_string(l.output_shape), shape_to_string(inputs[k].shape)));
    acts[input_layers[k]] = inputs[k];
  }
  // Remaining consumers per layer, to free tensors early when keep_all is false.
  std::vector<std::size_t> pending(graph_.size(), 0);
  for (const auto& ps : producers_)
    for (auto p : ps) ++pending[p];
  for (std::size_t i : graph_.topological_order()) {
    if (graph_.layer(i).op == OpKind::Input) continue;
    acts[i] = run_layer(i, acts);
    if (keep_all) continue;
    for (auto p : producers_[i])
      if (--pending[p] == 0) acts[p] = Tensor();
  }
  return acts;
}

}  // namespace coinfer
