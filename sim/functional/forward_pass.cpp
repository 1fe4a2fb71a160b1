#include "sim/functional/forward_pass.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using C = CheckedInt;

std::int64_t saturate(C x) { return x.ok() ? x.value() : INT64_MAX; }

C float_bytes(const Shape& shape) {
  const auto n = checked_shape_elements(shape);
  return n ? C(*n) * 4 : C::overflow();
}

// im2col columns of a (non-pointwise) conv2d: (C/g kh kw) x (OH OW) floats (sim/kernels/conv2d.cpp).
C conv_scratch_bytes(const Layer& l, const Shape& in) {
  if (l.op != OpKind::Conv2d || in.size() != 3 || l.output_shape.size() != 3) return 0;
  const auto& a = l.attrs;
  return C(in[0] / a.groups) * a.kernel[0] * a.kernel[1] * l.output_shape[1] * l.output_shape[2] * 4;
}

}  // namespace

std::int64_t ForwardMemory::total_bytes() const {
  return saturate(C(weight_bytes) + activation_bytes + scratch_bytes);
}

ForwardMemory forward_pass_memory(const Graph& graph) {
  ForwardMemory m;
  const auto& order = graph.topological_order();
  std::vector<std::size_t> pending(graph.size(), 0);  // consumers still to run, per layer
  for (std::size_t i = 0; i < graph.size(); ++i) pending[i] = graph.consumers(i).size();
  C weights = 0, live = 0, peak = 0, scratch = 0;
  for (auto i : order) {
    const Layer& l = graph.layer(i);
    const C w = C(l.params) * 4, out = float_bytes(l.output_shape);
    weights += w;
    live += out;  // the output exists while its inputs are still held
    if (!peak.ok() || !live.ok() || live.value() > peak.value()) peak = live;
    if (!l.inputs.empty()) {
      const C s = conv_scratch_bytes(l, graph.layer_by_name(l.inputs.front()).output_shape);
      if (!s.ok() || !scratch.ok() || s.value() > scratch.value()) scratch = s;
    }
    const C held = w + out;
    if (!held.ok() || saturate(held) > m.largest_layer_bytes) {
      m.largest_layer = i;
      m.largest_layer_bytes = saturate(held);
    }
    for (const auto& name : l.inputs) {
      const auto p = static_cast<std::size_t>(graph.index_of(name));
      if (--pending[p] == 0) live = live - float_bytes(graph.layer(p).output_shape);
    }
  }
  m.weight_bytes = saturate(weights);
  m.activation_bytes = saturate(peak);
  m.scratch_bytes = saturate(scratch);
  return m;
}

std::int64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return INT64_MAX;
  return saturate(C(pages) * page);
}

void check_forward_pass_memory(const Graph& graph, std::int64_t limit_bytes) {
  const ForwardMemory m = forward_pass_memory(graph);
  if (m.total_bytes() <= limit_bytes) return;
  const Layer& big = graph.layer(m.largest_layer);
  throw InputError(
      "", index_path("layers", m.largest_layer),
      fmt::format("model '{}' needs {:.4g} bytes for a forward pass on the host (weights {:.4g}, "
                  "activations {:.4g}, scratch {:.4g}), more than this host's memory ({:.4g} "
                  "bytes); the largest layer '{}' ({}) holds {:.4g} bytes",
                  graph.name(), double(m.total_bytes()), double(m.weight_bytes), double(m.activation_bytes),
                  double(m.scratch_bytes), double(limit_bytes), big.name, op_name(big.op),
                  double(m.largest_layer_bytes)));
}

ForwardPass::ForwardPass(Graph graph, std::uint64_t seed) : graph_(std::move(graph)) {
  if (!graph_.inferred()) graph_.infer();
  check_forward_pass_memory(graph_);
  const std::size_t n = graph_.size();
  weights_.resize(n);
  producers_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Layer& l = graph_.layer(i);
    for (const auto& name : l.inputs)
      producers_[i].push_back(static_cast<std::size_t>(graph_.index_of(name)));
    if (producers_[i].empty()) continue;
    const Shape& in = graph_.layer(producers_[i][0]).output_shape;
    const StoredWeights* stored = graph_.stored_weights();
    const auto it = stored ? stored->find(l.name) : StoredWeights::const_iterator{};
    weights_[i] = stored && it != stored->end() ? kernels::weights_from_stored(l, in, it->second)
                                                : kernels::make_weights(l, in, derive_seed(seed, l.name));
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
