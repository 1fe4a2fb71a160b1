#include "sim/functional/distributed_trainer.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/named_values.hpp"

namespace coinfer {
namespace {

constexpr NamedValue<GradientCodec> kCodecs[] = {{GradientCodec::Fp32, "fp32"},
                                                 {GradientCodec::OneBit, "onebit"},
                                                 {GradientCodec::OneBitNoFeedback, "onebit-noef"},
                                                 {GradientCodec::TernGrad, "terngrad"}};

// Batch norm and lstm layers train, but not spread over workers.
void check_exchangeable(const Graph& graph) {
  for (std::size_t i = 0; i < graph.size(); ++i)
    if (graph.layer(i).op == OpKind::BatchNorm)
      throw InputError("", index_path("layers", i),
                       fmt::format("layer '{}' (batch_norm): distributed training does not exchange batch "
                                   "norm statistics, so model '{}' trains on one device only",
                                   graph.layer(i).name, graph.name()));
    else if (graph.layer(i).op == OpKind::Lstm)
      throw InputError("", index_path("layers", i),
                       fmt::format("layer '{}' (lstm): distributed training exchanges weight and bias "
                                   "gradients, not LSTM cells, so model '{}' trains on one device only",
                                   graph.layer(i).name, graph.name()));
}

Graph checked_for_distribution(Graph g, const DistributedOptions& o) {
  if (o.workers < 1)
    throw InputError("", "workers", fmt::format("expected at least 1 worker, got {}", o.workers));
  if (o.train.batch < o.workers)
    throw InputError("", "batch",
                     fmt::format("a minibatch of {} does not split across {} workers: each worker needs at "
                                 "least one sample",
                                 o.train.batch, o.workers));
  if (!g.inferred()) g.infer();
  check_exchangeable(g);  // the Trainer then checks the rest
  return g;
}

void accumulate(Tensor& into, const Tensor& x, float weight) {
  if (into.empty()) into = Tensor(x.shape);
  into.vector() += weight * x.vector();
}

std::int64_t tensor_bytes(const Shape& shape, GradientCodec codec) {
  switch (codec) {
    case GradientCodec::Fp32:
      break;
    case GradientCodec::OneBit:
    case GradientCodec::OneBitNoFeedback:
      return kernels::quantize_one_bit(Tensor(shape)).size_bytes();
    case GradientCodec::TernGrad:
      return kernels::TernaryTensor{
          shape, std::vector<std::int8_t>(static_cast<std::size_t>(shape_elements(shape))), 0.0f}
          .size_bytes();
  }
  return 4 * shape_elements(shape);
}

}  // namespace

void check_distributable(const Graph& graph) {
  check_exchangeable(graph);
  check_trainable(graph);
}

std::string_view codec_name(GradientCodec codec) { return name_of(kCodecs, codec); }

GradientCodec parse_gradient_codec(std::string_view name) {
  return parse_named(kCodecs, name, "quantizer", "quantizer");
}

DistributedTrainer::DistributedTrainer(Graph graph, std::uint64_t seed, DistributedOptions options)
    : trainer_(checked_for_distribution(std::move(graph), options), seed, options.train),
      seed_(seed),
      options_(options),
      go_(make_codec("go")) {
  // Each worker's codec: its quantizer states and generator, and with error feedback (onebit) a
  // residual as large as the weights; checked before any is made.
  const std::int64_t layers = static_cast<std::int64_t>(trainer_.model().graph().size());
  const double per_worker =
      double(sizeof(Codec)) + double(layers) * double(sizeof(std::array<kernels::OneBitQuantizer, 2>)) +
      (options_.codec == GradientCodec::OneBit ? double(trainer_.model().weight_bytes()) : 0.0);
  const double limit = double(host_memory_bytes());
  if (double(options_.workers) * per_worker > limit)
    throw InputError(
        "", "workers",
        fmt::format("expected at most {} (the workers whose gradient codecs, {:.4g} bytes each, "
                    "fit in this host's memory, {:.4g} bytes), got {}",
                    static_cast<std::int64_t>(limit / per_worker), per_worker, limit, options_.workers));
  for (std::int64_t w = 0; w < options_.workers; ++w)
    workers_.push_back(make_codec(fmt::format("worker{}", w)));
}

DistributedTrainer::Codec DistributedTrainer::make_codec(std::string_view who) const {
  return {std::vector<std::array<kernels::OneBitQuantizer, 2>>(trainer_.model().graph().size()),
          Rng(derive_seed(seed_, fmt::format("terngrad.{}", who)))};
}

std::int64_t DistributedTrainer::local_batch(std::int64_t worker) const {
  const std::int64_t b = options_.train.batch, k = options_.workers;
  return b / k + (worker < b % k ? 1 : 0);
}

std::int64_t DistributedTrainer::message_bytes(GradientCodec codec) const {
  std::int64_t bytes = 0;
  const ForwardPass& m = trainer_.model();
  for (std::size_t i = 0; i < m.graph().size(); ++i)
    for (const Tensor* t : {&m.weights(i).weight, &m.weights(i).bias})
      if (!t->empty()) bytes += tensor_bytes(t->shape, codec);
  return bytes;
}

void DistributedTrainer::send(Codec& codec, const Grads& in, Grads& out, float weight) const {
  out.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Tensor* parts[2] = {&in[i].weight, &in[i].bias};
    Tensor* sums[2] = {&out[i].weight, &out[i].bias};
    for (std::size_t k = 0; k < 2; ++k) {
      if (parts[k]->empty()) continue;
      Tensor x = *parts[k];
      x.vector() *= weight;
      switch (options_.codec) {
        case GradientCodec::Fp32:
          accumulate(*sums[k], x, 1.0f);
          break;
        case GradientCodec::OneBit:  // eq. 3.9-3.10, then the receiver's unquantized sum (sec. 3.4.2)
          if (sums[k]->empty()) *sums[k] = Tensor(x.shape);
          kernels::add_dequantized(*sums[k], codec.one_bit[i][k].quantize(x));
          break;
        case GradientCodec::OneBitNoFeedback:
          if (sums[k]->empty()) *sums[k] = Tensor(x.shape);
          kernels::add_dequantized(*sums[k], kernels::quantize_one_bit(x));
          break;
        case GradientCodec::TernGrad:  // eq. 3.6-3.7
          accumulate(*sums[k], kernels::dequantize(kernels::terngrad_quantize(x, codec.rng)), 1.0f);
          break;
      }
    }
  }
}

double DistributedTrainer::train_step(const std::vector<std::vector<const Tensor*>>& batches,
                                      const std::vector<std::vector<std::int64_t>>& labels) {
  std::size_t total = 0;
  for (const auto& b : batches) total += b.size();
  if (total == 0 || batches.size() != workers_.size() || labels.size() != batches.size())
    throw Error(fmt::format("distributed step: {} batches with {} samples for {} workers", batches.size(),
                            total, workers_.size()));
  Grads sum(trainer_.model().graph().size());
  double loss = 0.0;
  for (std::size_t w = 0; w < batches.size(); ++w) {
    if (batches[w].empty()) continue;
    Grads g;
    const double n = static_cast<double>(batches[w].size());
    loss += n * trainer_.gradients(batches[w], labels[w], g, fmt::format("#worker{}", w));
    // each worker's gradient is its own samples' mean; its share of the step's mean is n_w / N
    send(workers_[w], g, sum, static_cast<float>(n / static_cast<double>(total)));
  }
  if (options_.codec == GradientCodec::Fp32) {
    trainer_.apply_gradients(sum);  // the GO steps and sends the weights back (Fig. 3.4)
  } else {
    Grads back;  // the GO's second quantization; every worker decodes it and steps (sec. 3.4.2)
    send(go_, sum, back, 1.0f);
    trainer_.apply_gradients(back);
  }
  return loss / static_cast<double>(total);
}

std::vector<std::vector<std::size_t>> DistributedTrainer::shards(
    const std::vector<std::size_t>& train) const {
  std::vector<std::size_t> order = train;
  shuffle_indices(order, derive_seed(seed_, "shards"));
  std::vector<std::vector<std::size_t>> out(workers_.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i % out.size()].push_back(order[i]);
  return out;
}

std::vector<std::vector<std::vector<std::size_t>>> DistributedTrainer::epoch_batches(
    const std::vector<std::size_t>& train, std::int64_t epoch) const {
  auto parts = shards(train);
  std::vector<std::size_t> local;
  for (std::size_t w = 0; w < parts.size(); ++w) {
    shuffle_indices(parts[w], derive_seed(seed_, fmt::format("epoch{}.worker{}", epoch, w)));
    local.push_back(static_cast<std::size_t>(local_batch(static_cast<std::int64_t>(w))));
  }
  return cut_epoch(parts, local, options_.train.tail);
}

double DistributedTrainer::train_epoch(const Dataset& data, const std::vector<std::size_t>& train,
                                       std::int64_t epoch) {
  double sum = 0.0;
  std::size_t samples = 0;
  for (const auto& step : epoch_batches(train, epoch)) {
    std::vector<std::vector<const Tensor*>> batches(step.size());
    std::vector<std::vector<std::int64_t>> labels(step.size());
    std::size_t n = 0;
    for (std::size_t w = 0; w < step.size(); ++w)
      for (std::size_t k : step[w]) {
        batches[w].push_back(&data.samples.at(k));
        labels[w].push_back(data.labels.at(k));
        ++n;
      }
    sum += train_step(batches, labels) * static_cast<double>(n);
    samples += n;
  }
  return samples ? sum / static_cast<double>(samples) : 0.0;
}

}  // namespace coinfer
