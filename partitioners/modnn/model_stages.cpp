#include "partitioners/modnn/model_stages.hpp"

#include <algorithm>
#include <initializer_list>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

bool one_of(OpKind op, std::initializer_list<OpKind> ops) {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

// Element-wise layers, which follow either kind of stage.
bool elementwise(OpKind op) {
  return one_of(
      op, {OpKind::Relu, OpKind::Relu6, OpKind::LeakyRelu, OpKind::Sigmoid, OpKind::Tanh, OpKind::Dropout});
}

// Layers that keep the spatial layout, so they run on a conv stage's stripe.
bool continues_conv(OpKind op) {
  return elementwise(op) || one_of(op, {OpKind::BatchNorm, OpKind::Lrn, OpKind::MaxPool, OpKind::AvgPool});
}

// Vector layers the GO runs after an fc stage's reduce.
bool continues_fc(OpKind op) { return elementwise(op) || one_of(op, {OpKind::Softmax, OpKind::Flatten}); }

void check_chain(const Graph& g) {
  const auto& order = g.topological_order();
  if (g.input_layers().size() != 1 || g.layer(order.front()).op != OpKind::Input)
    throw InputError("", "model", "MoDNN partitions single-input chain models; this one has several inputs");
  for (std::size_t p = 0; p + 1 < order.size(); ++p) {
    const auto& next = g.consumers(order[p]);
    if (next.size() != 1 || next.front() != order[p + 1])
      throw InputError("", "model",
                       fmt::format("MoDNN partitions chain models; layer '{}' does not feed exactly the next "
                                   "layer (branches and residual adds are not supported)",
                                   g.layer(order[p]).name));
  }
}

}  // namespace

const Layer& layer_at_position(const Graph& graph, std::size_t position) {
  return graph.layer(graph.topological_order().at(position));
}

std::vector<Stage> model_stages(const Graph& graph) {
  check_chain(graph);
  std::vector<Stage> stages;
  const auto n = graph.topological_order().size();
  for (std::size_t p = 1; p < n; ++p) {
    const Layer& l = layer_at_position(graph, p);
    if (l.op == OpKind::FullyConnected && graph.layer_by_name(l.inputs.at(0)).output_shape.size() == 2)
      throw InputError("", "model",
                       fmt::format("MoDNN cannot place layer '{}': an fc over a sequence (T,F) input is not "
                                   "one weight matrix times one vector",
                                   l.name));
    if (l.op == OpKind::FullyConnected && !stages.empty() && stages.back().kind == StageKind::Fc &&
        stages.back().head == p) {  // opened by the flatten before it
      stages.back().last = p;
      continue;
    }
    if (l.op == OpKind::Conv2d || l.op == OpKind::FullyConnected) {
      stages.push_back({l.op == OpKind::Conv2d ? StageKind::Conv : StageKind::Fc, p, p, p, l.name});
      continue;
    }
    if (l.op == OpKind::Flatten && !stages.empty() && stages.back().kind == StageKind::Conv && p + 1 < n &&
        layer_at_position(graph, p + 1).op == OpKind::FullyConnected) {
      stages.push_back({StageKind::Fc, p, p, p + 1, layer_at_position(graph, p + 1).name});
      continue;
    }
    const bool joins = !stages.empty() &&
                       (stages.back().kind == StageKind::Conv ? continues_conv(l.op) : continues_fc(l.op));
    if (!joins)
      throw InputError("", "model",
                       fmt::format("MoDNN cannot place layer '{}' (op {}): only convolution stages (conv + "
                                   "activation / norm / pooling) and fully connected stages are supported",
                                   l.name, op_name(l.op)));
    stages.back().last = p;
  }
  if (stages.empty()) throw InputError("", "model", "MoDNN needs at least one conv or fc layer");
  return stages;
}

}  // namespace coinfer::modnn
