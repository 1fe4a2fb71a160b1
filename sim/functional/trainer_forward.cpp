// The Trainer's forward pass over a minibatch (training or inference mode), the minibatch's state,
// and the layouts the forward and backward share (trainer_internal.hpp).
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/trainer_internal.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer {
namespace trainer_detail {

std::vector<const Tensor*> column(const std::vector<std::vector<Tensor>>& per_sample, std::size_t layer) {
  std::vector<const Tensor*> out;
  for (const auto& s : per_sample) out.push_back(&s[layer]);
  return out;
}

Tensor stack_channel_major(const std::vector<const Tensor*>& xs) {
  const std::int64_t c = xs.front()->shape.at(0), m = xs.front()->size() / c;
  const auto n = static_cast<std::int64_t>(xs.size());
  Tensor out({c, n * m});
  auto dst = out.matrix(c, n * m);
  for (std::int64_t k = 0; k < n; ++k)
    dst.middleCols(k * m, m) = xs[static_cast<std::size_t>(k)]->matrix(c, m);
  return out;
}

Tensor unstack_channel_major(const Tensor& t, std::size_t k, const Shape& shape) {
  Tensor out(shape);
  const std::int64_t c = t.shape[0], m = out.size() / c;
  out.matrix(c, m) = t.matrix(c, t.shape[1]).middleCols(static_cast<std::int64_t>(k) * m, m);
  return out;
}

Tensor stack_rows(const std::vector<const Tensor*>& rows) {
  return kernels::stack_batch(rows).reshaped({static_cast<std::int64_t>(rows.size()), rows.front()->size()});
}

}  // namespace trainer_detail

using namespace trainer_detail;

bool Trainer::batched(const Layer& l) const {
  return options_.batched_layers && kernels::has_batched_backward(l);
}

void Trainer::forward(Batch& b, bool training) const {
  const Graph& g = model_.graph();
  b.statistics.assign(g.size(), {});
  b.masks.assign(g.size(), {});
  for (std::size_t i : g.topological_order()) {
    const Layer& l = g.layer(i);
    if (l.op == OpKind::Input) continue;
    const std::size_t p = model_.producers(i).front();
    if (training && l.op == OpKind::BatchNorm) {
      const Tensor x = stack_channel_major(column(b.acts, p));
      b.statistics[i] = kernels::batch_norm_statistics(x, model_.weights(i).batch_norm);
      const Tensor y = kernels::batch_norm(x, b.statistics[i]);
      for (std::size_t n = 0; n < b.size(); ++n) b.acts[n][i] = unstack_channel_major(y, n, l.output_shape);
    } else if (training && l.op == OpKind::Dropout) {
      for (std::size_t n = 0; n < b.size(); ++n) {
        const auto seed = derive_seed(b.seed, fmt::format("{}#{}", l.name, n));
        b.masks[i].push_back(kernels::dropout_mask(l.output_shape, static_cast<float>(l.attrs.rate), seed));
        b.acts[n][i] = kernels::dropout(b.acts[n][p], b.masks[i].back());
      }
    } else if (batched(l)) {  // conv2d and dense fc: one GEMM over the minibatch
      const Tensor x = kernels::stack_batch(column(b.acts, p));
      const Tensor y =
          kernels::forward_layer_batch(l, x, model_.weights(i), static_cast<std::int64_t>(b.size()));
      for (std::size_t n = 0; n < b.size(); ++n)
        b.acts[n][i] = kernels::batch_sample(y, static_cast<std::int64_t>(n));
    } else {
      for (auto& acts : b.acts) acts[i] = model_.run_layer(i, acts);
    }
  }
}

Trainer::Batch Trainer::make_batch(const std::vector<const Tensor*>& samples, std::string_view stream) const {
  const Graph& g = model_.graph();
  const std::size_t input = g.input_layers().front();
  if (samples.empty()) throw Error("training: an empty minibatch");
  Batch b;
  b.seed = derive_seed(seed_, fmt::format("step{}{}", steps_, stream));
  b.acts.assign(samples.size(), std::vector<Tensor>(g.size()));
  for (std::size_t n = 0; n < samples.size(); ++n) {
    if (samples[n]->shape != g.layer(input).output_shape)
      throw Error(fmt::format("training: sample of shape {}, model '{}' takes {}",
                              shape_to_string(samples[n]->shape), g.name(),
                              shape_to_string(g.layer(input).output_shape)));
    b.acts[n][input] = *samples[n];
  }
  return b;
}

}  // namespace coinfer
