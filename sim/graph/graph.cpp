#include "sim/graph/graph.hpp"

#include <algorithm>
#include <queue>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

std::string layer_path(std::size_t i) { return index_path("layers", i); }

}  // namespace

std::size_t Graph::add(Layer layer) {
  inferred_ = false;
  layers_.push_back(std::move(layer));
  return layers_.size() - 1;
}

const Layer& Graph::layer_by_name(const std::string& name) const {
  if (const Layer* l = layer_by_name_or_null(name)) return *l;
  throw Error(fmt::format("model '{}' has no layer '{}'", name_, name));
}

const Layer* Graph::layer_by_name_or_null(const std::string& name) const {
  const long i = index_of(name);
  return i < 0 ? nullptr : &layers_[static_cast<std::size_t>(i)];
}

long Graph::index_of(const std::string& name) const {
  if (by_name_.size() == layers_.size()) {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? -1 : static_cast<long>(it->second);
  }
  for (std::size_t i = 0; i < layers_.size(); ++i)
    if (layers_[i].name == name) return static_cast<long>(i);
  return -1;
}

void Graph::index_names() {
  by_name_.clear();
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const auto& name = layers_[i].name;
    if (name.empty()) throw InputError("", join_path(layer_path(i), "name"), "layer name must not be empty");
    auto [it, fresh] = by_name_.emplace(name, i);
    if (!fresh)
      throw InputError("", join_path(layer_path(i), "name"),
                       fmt::format("duplicate layer name '{}' (also layers[{}])", name, it->second));
  }
}

void Graph::resolve_inputs() {
  producers_.assign(layers_.size(), {});
  consumers_.assign(layers_.size(), {});
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const auto& l = layers_[i];
    for (std::size_t j = 0; j < l.inputs.size(); ++j) {
      auto it = by_name_.find(l.inputs[j]);
      if (it == by_name_.end())
        throw InputError("", index_path(join_path(layer_path(i), "inputs"), j),
                         fmt::format("layer '{}': unknown input '{}'", l.name, l.inputs[j]));
      if (it->second == i)
        throw InputError("", index_path(join_path(layer_path(i), "inputs"), j),
                         fmt::format("layer '{}' takes its own output as input", l.name));
      producers_[i].push_back(it->second);
      consumers_[it->second].push_back(i);
    }
  }
}

// Kahn's algorithm with a min-heap on the insertion index, so the order is stable:
// a graph listed in a valid order comes back unchanged.
void Graph::sort_topologically() {
  std::vector<std::size_t> pending(layers_.size());
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    pending[i] = producers_[i].size();
    if (pending[i] == 0) ready.push(i);
  }
  order_.clear();
  while (!ready.empty()) {
    const auto i = ready.top();
    ready.pop();
    order_.push_back(i);
    for (auto c : consumers_[i])
      if (--pending[c] == 0) ready.push(c);
  }
  if (order_.size() != layers_.size()) {
    std::vector<std::string> stuck;
    std::size_t first = layers_.size();
    for (std::size_t i = 0; i < layers_.size(); ++i)
      if (pending[i] > 0) {
        stuck.push_back("'" + layers_[i].name + "'");
        first = std::min(first, i);
      }
    throw InputError("", layer_path(first), fmt::format("cycle through layers {}", fmt::join(stuck, ", ")));
  }
}

void Graph::infer() {
  if (layers_.empty()) throw InputError("", "layers", "a model needs at least one layer");
  index_names();
  resolve_inputs();
  sort_topologically();
  CheckedInt params = 0, macs = 0;  // the totals must fit too, so total_params() / total_macs() cannot wrap
  for (auto i : order_) {
    std::vector<const Shape*> in;
    for (auto p : producers_[i]) in.push_back(&layers_[p].output_shape);
    try {
      infer_layer(layers_[i], in);
      params += layers_[i].params;
      macs += layers_[i].macs;
      if (!params.ok() || !macs.ok())
        throw InputError("", "", "the model's total parameters or MACs are out of range (over 2^63)");
    } catch (const InputError& e) {
      throw InputError(
          "", join_path(layer_path(i), e.path()),
          fmt::format("layer '{}' ({}): {}", layers_[i].name, op_name(layers_[i].op), e.message()));
    }
  }
  inferred_ = true;
}

std::vector<std::size_t> Graph::input_layers() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < layers_.size(); ++i)
    if (layers_[i].op == OpKind::Input) out.push_back(i);
  return out;
}

std::vector<std::size_t> Graph::output_layers() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < layers_.size(); ++i)
    if (consumers_.size() == layers_.size() && consumers_[i].empty()) out.push_back(i);
  return out;
}

std::int64_t Graph::total_params() const {
  std::int64_t n = 0;
  for (const auto& l : layers_) n += l.params;
  return n;
}

std::int64_t Graph::total_macs() const {
  std::int64_t n = 0;
  for (const auto& l : layers_) n += l.macs;
  return n;
}

}  // namespace coinfer
