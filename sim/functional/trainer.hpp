#pragma once
/// Functional training: minibatch SGD of a model graph on real tensors, with the backward kernels.
///
///     Trainer t(build_zoo_model("digits_mlp"), 42, {32, {0.1f, 0.9f, 1e-4f}});
///     Dataset d = load_digits(default_digits_path());
///     DatasetSplit s = split_dataset(d.size(), 0.2, 42);
///     double loss = t.train_epoch(d, s.train, 1);          // mean training loss of epoch 1
///     Evaluation e = t.evaluate(d, s.test);                  // e.accuracy in [0, 1]
///
/// The loss is softmax cross-entropy, averaged over a minibatch. When the model's single output is a
/// softmax layer, its input is taken as the logits (the fused kernel replaces it); otherwise the
/// output itself is. Conv2d and dense fc layers, where the work is, run the minibatch batched
/// (sim/kernels/batched.hpp): forward as one GEMM over the N samples' columns, backward as one GEMM
/// for the input gradient and one for the weight gradient summed over the minibatch (each sample's
/// gradient already carries the loss's 1/N), so a step of a few samples costs little more than one
/// where the GEMM is not yet efficient (AdaLearner's Fig. 3.7, MLP). Every other op runs sample by
/// sample inside the step (its work is per sample), and `batched_layers = false` runs conv and fc
/// that way too: the reference the batched step is tested against (equal within float rounding) and
/// timed against (`coinfer step-times --per-sample`). Batch norm in training normalises with the minibatch's
/// statistics (the samples laid channel-major, see normalization.hpp) and keeps running averages (momentum
/// 0.1, unbiased variance, as PyTorch) for evaluation; it starts at scale 1, shift 0, mean 0, variance 1.
/// Dropout draws an inverted mask per sample and step. Everything is seeded: the same seed gives the same
/// bits.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/functional/dataset.hpp"
#include "sim/functional/epoch_tail.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/kernels/sgd.hpp"

namespace coinfer {

struct TrainOptions {
  std::int64_t batch = 32;  ///< samples per SGD step (the last step of an epoch: see `tail`)
  kernels::SgdParams sgd{0.05f, 0.9f, 1e-4f};
  bool batched_layers = true;  ///< conv2d and dense fc over the whole minibatch; false: sample by sample
  /// The epoch's last, short step (epoch_tail.hpp): keep it (fewer than `batch` samples), drop it (its
  /// samples wait for a later epoch's order) or merge it into the step before (more than `batch`).
  EpochTail tail = EpochTail::Keep;
};

struct Evaluation {
  double loss = 0.0;      ///< mean cross-entropy
  double accuracy = 0.0;  ///< fraction of samples whose largest logit is the label
  std::size_t correct = 0, samples = 0;
};

/// Throws `InputError("", "layers[i]", "layer 'x' (lstm) has no backward kernel; ...")` for the first
/// layer training cannot differentiate, and `InputError("", "model", ...)` unless the model has one
/// input and one output. Requires an inferred graph.
void check_trainable(const Graph& graph);

class Trainer {
 public:
  /// Checks the graph (check_trainable) before making any weight, then makes them from `seed` as
  /// ForwardPass does. Throws `InputError` for a non-trainable model or bad options.
  Trainer(Graph graph, std::uint64_t seed, TrainOptions options = {});

  const ForwardPass& model() const { return model_; }
  /// The weights of a layer, to read or (in tests) perturb.
  kernels::LayerWeights& weights(std::size_t layer) { return model_.mutable_weights(layer); }
  /// Index of the layer whose output the loss reads as logits.
  std::size_t logits_layer() const { return logits_; }

  /// Throws `InputError("", "model", ...)` unless the model's input takes the dataset's samples and
  /// its logits are one value per class.
  void check_dataset(const Dataset& data) const;

  /// The minibatches of one epoch, each a list of sample indices: `indices` in an order shuffled from
  /// (seed, epoch), cut into steps of `batch` with the tail as `options.tail` says. Throws
  /// `InputError("", "tail", ...)` when `drop` leaves no step (fewer than `batch` samples).
  std::vector<std::vector<std::size_t>> epoch_batches(std::vector<std::size_t> indices,
                                                      std::int64_t epoch) const;

  /// One epoch: one SGD step per minibatch of epoch_batches(indices, epoch). Returns the mean training
  /// loss over the samples it trained on (with `drop`, not the tail's).
  double train_epoch(const Dataset& data, std::vector<std::size_t> indices, std::int64_t epoch);

  /// One SGD step on a minibatch; returns its mean loss (before the update).
  double train_step(const std::vector<const Tensor*>& samples, const std::vector<std::int64_t>& labels);

  /// The mean loss of a minibatch in training mode and its gradient with respect to every layer's
  /// parameters (per layer index; `inputs` left empty), without updating anything. `stream` tells
  /// apart minibatches of the same step (a distributed worker's name): it seeds their dropout masks.
  double gradients(const std::vector<const Tensor*>& samples, const std::vector<std::int64_t>& labels,
                   std::vector<kernels::LayerGradients>& grads, std::string_view stream = {});

  /// One SGD step (momentum, weight decay) with gradients computed elsewhere (as `gradients` returns
  /// them, e.g. aggregated over workers); counts as a step for the dropout seeds. Batch norm's running
  /// averages are not touched (they need the minibatch's statistics).
  void apply_gradients(const std::vector<kernels::LayerGradients>& grads);

  /// Inference mode (batch norm's running averages, no dropout) over `indices`.
  Evaluation evaluate(const Dataset& data, const std::vector<std::size_t>& indices) const;

 private:
  struct Batch;  // activations and per-layer training state of one minibatch
  Batch make_batch(const std::vector<const Tensor*>& samples, std::string_view stream = {}) const;
  template <class Step>
  void for_each_batch(const Dataset& data, const std::vector<std::vector<std::size_t>>& batches,
                      Step step) const;
  bool batched(const Layer& layer) const;  // run by the batched kernels
  void forward(Batch& b, bool training) const;
  double backward(Batch& b, const std::vector<std::int64_t>& labels,
                  std::vector<kernels::LayerGradients>& grads) const;
  void update_running_statistics(const Batch& b);
  void apply(const std::vector<kernels::LayerGradients>& grads);

  ForwardPass model_;
  std::uint64_t seed_;
  TrainOptions options_;
  std::size_t logits_ = 0;
  std::uint64_t steps_ = 0;
  std::vector<kernels::LayerGradients> velocity_;  // SGD momentum per layer (weight, bias)
};

}  // namespace coinfer
