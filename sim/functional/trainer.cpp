#include "sim/functional/trainer.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/kernels/loss.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer {

struct Trainer::Batch {
  std::vector<std::vector<Tensor>> acts;             // [sample][layer]: forward outputs
  std::vector<kernels::BatchNormParams> statistics;  // [layer]: batch norm's batch statistics
  std::vector<std::vector<Tensor>> masks;            // [layer][sample]: dropout masks
  std::uint64_t seed = 0;                            // of this step's dropout masks
  std::size_t size() const { return acts.size(); }
};

namespace {

constexpr float kRunningMomentum = 0.1f;  // PyTorch's batch norm default

std::vector<const Tensor*> column(const std::vector<std::vector<Tensor>>& per_sample, std::size_t layer) {
  std::vector<const Tensor*> out;
  for (const auto& s : per_sample) out.push_back(&s[layer]);
  return out;
}

// N samples of shape (C, ...) laid channel-major as one (C, N * M) tensor, M elements per channel:
// the layout in which batch norm takes a channel's statistics over the whole minibatch.
Tensor stack_channel_major(const std::vector<const Tensor*>& xs) {
  const std::int64_t c = xs.front()->shape.at(0), m = xs.front()->size() / c;
  const auto n = static_cast<std::int64_t>(xs.size());
  Tensor out({c, n * m});
  auto dst = out.matrix(c, n * m);
  for (std::int64_t k = 0; k < n; ++k)
    dst.middleCols(k * m, m) = xs[static_cast<std::size_t>(k)]->matrix(c, m);
  return out;
}

// Sample k of a channel-major stack, under `shape`.
Tensor unstack_channel_major(const Tensor& t, std::size_t k, const Shape& shape) {
  Tensor out(shape);
  const std::int64_t c = t.shape[0], m = out.size() / c;
  out.matrix(c, m) = t.matrix(c, t.shape[1]).middleCols(static_cast<std::int64_t>(k) * m, m);
  return out;
}

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

// An SGD step of every LSTM cell tensor that has a gradient (velocity cells made on the first step).
void sgd_step_lstm(std::vector<kernels::LstmCellWeights>& cells,
                   const std::vector<kernels::LstmCellWeights>& grads,
                   std::vector<kernels::LstmCellWeights>& velocity, const kernels::SgdParams& p) {
  velocity.resize(grads.size());
  for (std::size_t c = 0; c < grads.size(); ++c)
    for (auto part :
         {&kernels::LstmCellWeights::w_ih, &kernels::LstmCellWeights::w_hh, &kernels::LstmCellWeights::bias})
      if (!(grads[c].*part).empty())
        kernels::sgd_step(cells.at(c).*part, grads[c].*part, velocity[c].*part, p);
}

// The logits of a batch as one (N, classes) tensor.
Tensor stack_rows(const std::vector<const Tensor*>& rows) {
  return kernels::stack_batch(rows).reshaped({static_cast<std::int64_t>(rows.size()), rows.front()->size()});
}

// Row n of a (N, M) tensor, under `shape` (M elements).
Tensor row(const Tensor& t, std::size_t n, const Shape& shape) {
  return kernels::batch_sample(t, static_cast<std::int64_t>(n)).reshaped(shape);
}

// A batch norm parameter vector stepped by SGD (sgd_step works on tensors).
void sgd_step_vector(std::vector<float>& values, const Tensor& grad, Tensor& velocity,
                     const kernels::SgdParams& p) {
  const auto n = static_cast<std::int64_t>(values.size());  // before `values` is moved from
  Tensor t({n}, std::move(values));
  kernels::sgd_step(t, grad, velocity, p);
  values = std::move(t.data);
}

Graph checked_for_training(Graph g) {
  if (!g.inferred()) g.infer();
  check_trainable(g);
  return g;
}

void check_options(const TrainOptions& o) {
  if (o.batch < 1) throw InputError("", "batch", fmt::format("expected an integer >= 1, got {}", o.batch));
  const auto nonnegative = [](const char* key, float v) {
    if (!(v >= 0.0f)) throw InputError("", key, fmt::format("expected a number >= 0, got {}", v));
  };
  nonnegative("learning_rate", o.sgd.learning_rate);
  nonnegative("momentum", o.sgd.momentum);
  nonnegative("weight_decay", o.sgd.weight_decay);
}

}  // namespace

void check_trainable(const Graph& g) {
  for (std::size_t i = 0; i < g.size(); ++i) {
    const Layer& l = g.layer(i);
    if (kernels::has_backward(l)) continue;
    const std::string what = l.op == OpKind::FullyConnected
                                 ? fmt::format("fc with sparsity {}", l.attrs.sparsity)
                                 : std::string(op_name(l.op));
    throw InputError("", index_path("layers", i),
                     fmt::format("layer '{}' ({}) has no backward kernel, so model '{}' cannot be trained",
                                 l.name, what, g.name()));
  }
  if (g.input_layers().size() != 1 || g.output_layers().size() != 1)
    throw InputError("", "model",
                     fmt::format("training needs a model with one input and one output; '{}' has {} and {}",
                                 g.name(), g.input_layers().size(), g.output_layers().size()));
}

Trainer::Trainer(Graph graph, std::uint64_t seed, TrainOptions options)
    : model_(checked_for_training(std::move(graph)), seed), seed_(seed), options_(options) {
  check_options(options_);
  const Graph& g = model_.graph();
  const std::size_t out = g.output_layers().front();
  logits_ = g.layer(out).op == OpKind::Softmax ? model_.producers(out).front() : out;
  for (std::size_t i = 0; i < g.size(); ++i) {
    auto& bn = model_.mutable_weights(i).batch_norm;
    std::fill(bn.mean.begin(), bn.mean.end(), 0.0f);
    std::fill(bn.variance.begin(), bn.variance.end(), 1.0f);
    std::fill(bn.scale.begin(), bn.scale.end(), 1.0f);
    std::fill(bn.shift.begin(), bn.shift.end(), 0.0f);
  }
  velocity_.resize(g.size());
}

void Trainer::check_dataset(const Dataset& data) const {
  const Graph& g = model_.graph();
  const Layer& in = g.layer(g.input_layers().front());
  if (in.output_shape != data.sample_shape)
    throw InputError("", "model",
                     fmt::format("model '{}' takes input '{}' of shape {}, but the samples of {} are {}",
                                 g.name(), in.name, shape_to_string(in.output_shape), data.source,
                                 shape_to_string(data.sample_shape)));
  const Layer& logits = g.layer(logits_);
  if (logits.output_shape != Shape{data.classes})
    throw InputError(
        "", "model",
        fmt::format("model '{}' gives logits {} (layer '{}'), but {} has {} classes", g.name(),
                    shape_to_string(logits.output_shape), logits.name, data.source, data.classes));
}

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

void Trainer::update_running_statistics(const Batch& b) {
  for (std::size_t i = 0; i < b.statistics.size(); ++i) {
    const auto& batch = b.statistics[i];
    if (batch.mean.empty()) continue;
    auto& running = model_.mutable_weights(i).batch_norm;
    // Elements per channel over the minibatch; the running variance is the unbiased one (x M / (M - 1)).
    const auto m =
        static_cast<float>(b.size() * static_cast<std::size_t>(b.acts[0][i].size()) / batch.mean.size());
    const float unbias = m > 1.0f ? m / (m - 1.0f) : 1.0f;
    for (std::size_t c = 0; c < batch.mean.size(); ++c) {
      running.mean[c] += kRunningMomentum * (batch.mean[c] - running.mean[c]);
      running.variance[c] += kRunningMomentum * (batch.variance[c] * unbias - running.variance[c]);
    }
  }
}

void Trainer::apply(const std::vector<kernels::LayerGradients>& grads) {
  for (std::size_t i = 0; i < grads.size(); ++i) {
    const auto& g = grads[i];
    if (g.weight.empty() && g.bias.empty() && g.lstm.empty()) continue;
    auto& w = model_.mutable_weights(i);
    auto& v = velocity_[i];
    sgd_step_lstm(w.lstm, g.lstm, v.lstm, options_.sgd);
    if (model_.graph().layer(i).op == OpKind::BatchNorm) {
      sgd_step_vector(w.batch_norm.scale, g.weight, v.weight, options_.sgd);
      sgd_step_vector(w.batch_norm.shift, g.bias, v.bias, options_.sgd);
      continue;
    }
    if (!g.weight.empty()) kernels::sgd_step(w.weight, g.weight, v.weight, options_.sgd);
    if (!g.bias.empty()) kernels::sgd_step(w.bias, g.bias, v.bias, options_.sgd);
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

double Trainer::gradients(const std::vector<const Tensor*>& samples, const std::vector<std::int64_t>& labels,
                          std::vector<kernels::LayerGradients>& grads, std::string_view stream) {
  Batch b = make_batch(samples, stream);
  forward(b, true);
  return backward(b, labels, grads);
}

void Trainer::apply_gradients(const std::vector<kernels::LayerGradients>& grads) {
  if (grads.size() != model_.graph().size())
    throw Error(fmt::format("training: {} layer gradients for a model of {} layers", grads.size(),
                            model_.graph().size()));
  apply(grads);
  ++steps_;
}

double Trainer::train_step(const std::vector<const Tensor*>& samples,
                           const std::vector<std::int64_t>& labels) {
  Batch b = make_batch(samples);
  forward(b, true);
  std::vector<kernels::LayerGradients> grads;
  const double loss = backward(b, labels, grads);
  update_running_statistics(b);
  apply(grads);
  ++steps_;
  return loss;
}

template <class Step>
void Trainer::for_each_batch(const Dataset& data, const std::vector<std::size_t>& indices, Step step) const {
  const auto batch = static_cast<std::size_t>(options_.batch);
  for (std::size_t first = 0; first < indices.size(); first += batch) {
    std::vector<const Tensor*> samples;
    std::vector<std::int64_t> labels;
    for (std::size_t k = first; k < std::min(first + batch, indices.size()); ++k) {
      samples.push_back(&data.samples.at(indices[k]));
      labels.push_back(data.labels.at(indices[k]));
    }
    step(samples, labels);
  }
}

double Trainer::train_epoch(const Dataset& data, std::vector<std::size_t> indices, std::int64_t epoch) {
  shuffle_indices(indices, derive_seed(seed_, fmt::format("epoch{}", epoch)));
  double sum = 0.0;
  for_each_batch(data, indices, [&](const auto& samples, const auto& labels) {
    sum += train_step(samples, labels) * static_cast<double>(samples.size());
  });
  return indices.empty() ? 0.0 : sum / static_cast<double>(indices.size());
}

Evaluation Trainer::evaluate(const Dataset& data, const std::vector<std::size_t>& indices) const {
  Evaluation e;
  double sum = 0.0;
  for_each_batch(data, indices, [&](const auto& samples, const auto& labels) {
    Batch b = make_batch(samples);
    forward(b, false);
    const Tensor logits = stack_rows(column(b.acts, logits_));
    sum += kernels::softmax_cross_entropy(logits, labels).loss * static_cast<double>(samples.size());
    const std::int64_t classes = logits.shape[1];
    const auto z = logits.matrix(logits.shape[0], classes);
    for (std::size_t n = 0; n < labels.size(); ++n) {
      Eigen::Index best = 0;
      z.row(static_cast<Eigen::Index>(n)).maxCoeff(&best);  // the first largest
      if (best == labels[n]) ++e.correct;
    }
  });
  e.samples = indices.size();
  if (e.samples > 0) {
    e.loss = sum / static_cast<double>(e.samples);
    e.accuracy = static_cast<double>(e.correct) / static_cast<double>(e.samples);
  }
  return e;
}

}  // namespace coinfer
