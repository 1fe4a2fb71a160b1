// The Trainer's loss and backward pass over a minibatch: the gradient of every layer's parameters.
#include <fmt/format.h>

#include "sim/functional/trainer_internal.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/kernels/loss.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer {
namespace {

void accumulate(Tensor& into, Tensor g) {
  if (into.empty())
    into = std::move(g);
  else
    into.vector() += g.vector();
}

// Adds one sample's parameter gradients to the minibatch's.
void accumulate_parameters(kernels::LayerGradients& into, kernels::LayerGradients& g) {
  if (!g.weight.empty()) accumulate(into.weight, std::move(g.weight));
  if (!g.bias.empty()) accumulate(into.bias, std::move(g.bias));
  into.lstm.resize(g.lstm.size());
  for (std::size_t c = 0; c < g.lstm.size(); ++c)
    for (auto part :
         {&kernels::LstmCellWeights::w_ih, &kernels::LstmCellWeights::w_hh, &kernels::LstmCellWeights::bias})
      if (!(g.lstm[c].*part).empty()) accumulate(into.lstm[c].*part, std::move(g.lstm[c].*part));
}

// Row n of a (N, M) tensor, under `shape` (M elements).
Tensor row(const Tensor& t, std::size_t n, const Shape& shape) {
  return kernels::batch_sample(t, static_cast<std::int64_t>(n)).reshaped(shape);
}

}  // namespace

using namespace trainer_detail;

double Trainer::backward(Batch& b, const std::vector<std::int64_t>& labels,
                         std::vector<kernels::LayerGradients>& grads) const {
  const Graph& g = model_.graph();
  const std::size_t samples = b.size();
  const auto loss = kernels::softmax_cross_entropy(stack_rows(column(b.acts, logits_)), labels);
  // d[n][layer]: dL/d(output of layer) for sample n; a layer feeding several others sums their terms.
  std::vector<std::vector<Tensor>> d(samples, std::vector<Tensor>(g.size()));
  for (std::size_t n = 0; n < samples; ++n) d[n][logits_] = row(loss.grad, n, g.layer(logits_).output_shape);
  grads.assign(g.size(), {});
  const auto& order = g.topological_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::size_t i = *it;
    const Layer& l = g.layer(i);
    if (l.op == OpKind::Input || d.front()[i].empty()) continue;  // not upstream of the loss
    const auto& producers = model_.producers(i);
    if (!b.statistics[i].mean.empty()) {  // training-mode batch norm: the whole minibatch at once
      const Tensor x = stack_channel_major(column(b.acts, producers[0]));
      const Tensor dy = stack_channel_major(column(d, i));
      Gradients bn = kernels::batch_norm_backward(x, b.statistics[i], dy);
      for (std::size_t n = 0; n < samples; ++n)
        accumulate(d[n][producers[0]],
                   unstack_channel_major(bn.input, n, g.layer(producers[0]).output_shape));
      grads[i].weight = std::move(bn.weight);
      grads[i].bias = std::move(bn.bias);
    } else if (!b.masks[i].empty()) {
      for (std::size_t n = 0; n < samples; ++n)
        accumulate(d[n][producers[0]], kernels::dropout_backward(std::move(d[n][i]), b.masks[i][n]));
    } else if (batched(l)) {  // conv2d and dense fc: one GEMM per gradient over the minibatch
      const Tensor x = kernels::stack_batch(column(b.acts, producers[0]));
      const Tensor dy = kernels::stack_batch(column(d, i));
      auto lg =
          kernels::backward_layer_batch(l, x, model_.weights(i), dy, static_cast<std::int64_t>(samples));
      for (std::size_t n = 0; n < samples; ++n)
        accumulate(d[n][producers[0]], kernels::batch_sample(lg.inputs[0], static_cast<std::int64_t>(n)));
      grads[i].weight = std::move(lg.weight);
      grads[i].bias = std::move(lg.bias);
    } else {
      for (std::size_t n = 0; n < samples; ++n) {
        std::vector<const Tensor*> ins;
        for (auto p : producers) ins.push_back(&b.acts[n][p]);
        auto lg = kernels::backward_layer(l, ins, b.acts[n][i], model_.weights(i), d[n][i]);
        for (std::size_t k = 0; k < producers.size(); ++k)
          accumulate(d[n][producers[k]], std::move(lg.inputs[k]));
        accumulate_parameters(grads[i], lg);
      }
    }
    for (auto& dn : d) dn[i] = Tensor();
  }
  return loss.loss;
}

double Trainer::gradients(const std::vector<const Tensor*>& samples, const std::vector<std::int64_t>& labels,
                          std::vector<kernels::LayerGradients>& grads, std::string_view stream) {
  Batch b = make_batch(samples, stream);
  forward(b, true);
  return backward(b, labels, grads);
}

}  // namespace coinfer
