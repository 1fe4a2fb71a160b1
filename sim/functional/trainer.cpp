// The Trainer's construction and checks, the SGD update, epochs and evaluation; the forward and
// backward passes are in trainer_forward.cpp and trainer_backward.cpp.
#include "sim/functional/trainer.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/trainer_internal.hpp"
#include "sim/kernels/loss.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer {

namespace {

constexpr float kRunningMomentum = 0.1f;  // PyTorch's batch norm default

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

// `order` cut into minibatches of `batch` samples, the tail as `tail` says (a single stream of cut_epoch).
std::vector<std::vector<std::size_t>> minibatches(const std::vector<std::size_t>& order, std::int64_t batch,
                                                  EpochTail tail) {
  std::vector<std::vector<std::size_t>> out;
  for (auto& step : cut_epoch({order}, {static_cast<std::size_t>(batch)}, tail))
    out.push_back(std::move(step[0]));
  return out;
}

}  // namespace

using namespace trainer_detail;

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
void Trainer::for_each_batch(const Dataset& data, const std::vector<std::vector<std::size_t>>& batches,
                             Step step) const {
  for (const auto& batch : batches) {
    std::vector<const Tensor*> samples;
    std::vector<std::int64_t> labels;
    for (std::size_t k : batch) {
      samples.push_back(&data.samples.at(k));
      labels.push_back(data.labels.at(k));
    }
    step(samples, labels);
  }
}

std::vector<std::vector<std::size_t>> Trainer::epoch_batches(std::vector<std::size_t> indices,
                                                             std::int64_t epoch) const {
  shuffle_indices(indices, derive_seed(seed_, fmt::format("epoch{}", epoch)));
  return minibatches(indices, options_.batch, options_.tail);
}

double Trainer::train_epoch(const Dataset& data, std::vector<std::size_t> indices, std::int64_t epoch) {
  double sum = 0.0;
  std::size_t trained = 0;
  for_each_batch(data, epoch_batches(std::move(indices), epoch),
                 [&](const auto& samples, const auto& labels) {
                   sum += train_step(samples, labels) * static_cast<double>(samples.size());
                   trained += samples.size();
                 });
  return trained == 0 ? 0.0 : sum / static_cast<double>(trained);
}

Evaluation Trainer::evaluate(const Dataset& data, const std::vector<std::size_t>& indices) const {
  Evaluation e;
  double sum = 0.0;
  // every sample, in minibatches of `batch` whatever the tail of a training epoch
  for_each_batch(data, minibatches(indices, options_.batch, EpochTail::Keep),
                 [&](const auto& samples, const auto& labels) {
                   Batch b = make_batch(samples);
                   forward(b, false);
                   const Tensor logits = stack_rows(column(b.acts, logits_));
                   sum += kernels::softmax_cross_entropy(logits, labels).loss *
                          static_cast<double>(samples.size());
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
