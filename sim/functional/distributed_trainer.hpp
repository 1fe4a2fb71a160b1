#pragma once
/// Functional data-parallel training as AdaLearner runs it ([Mao-PhD
/// ch. 3]): a group owner (GO) and k worker nodes (WNs), each WN on a disjoint shard of the training set.
/// Every step each WN computes the gradient of its share of the total minibatch (sec. 3.5: the total
/// is fixed, e.g. 128, and split across the WNs; here evenly, the first B mod k WNs one sample more),
/// encodes it and sends it to the GO, which decodes and sums the contributions (weighted by the WN's
/// share of the step's samples), then:
/// - fp32 (Fig. 3.4, architecture for efficient computation): the GO applies the SGD step and sends the
///   updated weights back, so every WN holds the GO's weights;
/// - onebit (Fig. 3.5 and sec. 3.4.2, architecture for efficient communication): the WNs send 1-bit
///   codes with error feedback (eq. 3.9-3.10; levels per column of an fc weight, per filter of a conv);
///   the GO sums them unquantized, quantizes the sum a second time with its own error feedback and
///   sends the codes back; every WN decodes them and applies the same SGD step locally;
/// - onebit-noef: the same without error feedback (the ablation eq. 3.9's residual exists to fix);
/// - terngrad (sec. 3.1.3 eq. 3.6-3.7): ternary codes both ways (the GO re-quantizes the sum like the
///   1-bit scheme), each WN and the GO drawing from its own seeded generator.
/// All WNs apply the same decoded update to the same weights, so one model replica stands for all of
/// them. Everything is seeded: the same seed gives the same bits.
///
///     DistributedTrainer t(build_zoo_model("digits_mlp"), 1, {4, GradientCodec::OneBit, {128, sgd}});
///     t.train_epoch(data, split.train, 1);
///     Evaluation e = t.evaluate(data, split.test);
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/functional/trainer.hpp"
#include "sim/kernels/quantize.hpp"

namespace coinfer {

enum class GradientCodec { Fp32, OneBit, OneBitNoFeedback, TernGrad };

/// "fp32", "onebit", "onebit-noef", "terngrad".
std::string_view codec_name(GradientCodec codec);
/// Throws `InputError("", "quantizer", "unknown quantizer 'x'; known: fp32, onebit, ...")`.
GradientCodec parse_gradient_codec(std::string_view name);

/// Throws what DistributedTrainer's constructor throws for the model alone, before any weight is
/// made: `InputError("", "layers[i]", ...)` for a batch norm or an lstm layer, then check_trainable's
/// errors. Requires an inferred graph. For callers that reject a model before costlier work
/// (sim/scenario/partitioner.hpp `check_model`).
void check_distributable(const Graph& graph);

struct DistributedOptions {
  std::int64_t workers = 2;  ///< k >= 1 worker nodes
  GradientCodec codec = GradientCodec::Fp32;
  TrainOptions train;  ///< train.batch is the total minibatch of a step, split across the workers
};

class DistributedTrainer {
 public:
  /// Throws `InputError("", "workers", ...)` for k < 1, `InputError("", "batch", ...)` when the total
  /// minibatch leaves a worker without a sample (batch < k), and what Trainer throws for the model;
  /// `InputError("", "layers[i]", ...)` for a batch norm layer (its statistics are not exchanged) or an
  /// lstm layer (its cells are not exchanged), and `InputError("", "workers", ...)` when the k workers'
  /// codec states would not fit in this host's memory.
  DistributedTrainer(Graph graph, std::uint64_t seed, DistributedOptions options);

  const Trainer& trainer() const { return trainer_; }
  /// Throws like Trainer::check_dataset.
  void check_dataset(const Dataset& data) const { trainer_.check_dataset(data); }

  /// The shards: `train` shuffled once from the seed, then dealt round robin to the k workers.
  std::vector<std::vector<std::size_t>> shards(const std::vector<std::size_t>& train) const;

  /// The steps of one epoch, [step][worker] -> sample indices: every worker's shard shuffled from
  /// (seed, epoch, worker), cut into local minibatches of its share, the epoch's tail as
  /// `options.train.tail` says (epoch_tail.hpp, one stream per worker): `keep` runs on while any worker
  /// has samples, a step aggregating whatever the workers still have; `drop` runs only the steps in
  /// which every worker has its full share (each step holds `batch` samples) and `merge` adds every
  /// worker's rest to the last of them. Throws `InputError("", "tail", ...)` when `drop` leaves no step.
  std::vector<std::vector<std::vector<std::size_t>>> epoch_batches(const std::vector<std::size_t>& train,
                                                                   std::int64_t epoch) const;

  /// One epoch: one train_step per step of epoch_batches(train, epoch). Returns the mean training loss
  /// over the samples it trained on.
  double train_epoch(const Dataset& data, const std::vector<std::size_t>& train, std::int64_t epoch);

  /// One step: worker w contributes the gradient of `batches[w]` (an empty batch sends nothing).
  /// Returns the mean loss over all their samples. Throws `Error` if every batch is empty.
  double train_step(const std::vector<std::vector<const Tensor*>>& batches,
                    const std::vector<std::vector<std::int64_t>>& labels);

  Evaluation evaluate(const Dataset& data, const std::vector<std::size_t>& indices) const {
    return trainer_.evaluate(data, indices);
  }

  /// Samples of the total minibatch worker w computes: B / k, plus one for the first B mod k.
  std::int64_t local_batch(std::int64_t worker) const;

  /// Bytes of one message of the model's parameter gradients under a codec (one way, one worker):
  /// 4 per parameter for fp32 (the weights the GO sends back are as large); packed bits plus two fp32
  /// levels per group for 1-bit; 2 bits per value plus one fp32 scale per tensor for TernGrad.
  std::int64_t message_bytes(GradientCodec codec) const;

 private:
  using Grads = std::vector<kernels::LayerGradients>;
  // The encoder state of one sender (a worker, or the GO on the way back): the 1-bit error feedback
  // per layer's (weight, bias) and TernGrad's generator.
  struct Codec {
    std::vector<std::array<kernels::OneBitQuantizer, 2>> one_bit;
    Rng rng;
  };
  Codec make_codec(std::string_view who) const;
  // out += decode(encode(weight * in)) tensor by tensor, under the trainer's codec.
  void send(Codec& codec, const Grads& in, Grads& out, float weight) const;

  Trainer trainer_;
  std::uint64_t seed_;
  DistributedOptions options_;
  std::vector<Codec> workers_;
  Codec go_;
};

}  // namespace coinfer
