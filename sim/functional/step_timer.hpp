#pragma once
/// The time of a real training step (forward, backward and SGD update through the Trainer's kernels)
/// at several minibatch sizes on this host: the measurement behind AdaLearner's lookup table
/// ([Mao-PhD §3.3, Fig. 3.7-3.8]), which
/// partitioners/adalearner/time_model.hpp turns into minibatch splits and iteration times.
///
///     auto t = time_training_steps(build_zoo_model("mxnet_lenet"), {1, 16, 128}, 3, 1);
///     // t[2].seconds: one step of 128 samples, the fastest of 3 after a warm-up
#include <cstdint>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

struct StepTime {
  std::int64_t batch = 0;
  double seconds = 0.0;  ///< host wall time of one step
};

/// Times `Trainer::train_step` on seeded N(0, 1) inputs with labels k mod classes, for every size in
/// `batches` (each >= 1), keeping the fastest of `repeats` (>= 1) timed steps after one untimed step.
/// The steps run the SGD update with a learning rate of 0, so that every step sees the seeded weights
/// (see step_timer.cpp for why).
/// `batched_layers` is TrainOptions' (false: conv2d and fc sample by sample, the step then linear in
/// the minibatch from its first sample).
/// Throws what Trainer throws for a model that cannot train, and `InputError("", "batches", ...)` /
/// `InputError("", "repeats", ...)` for bad sizes or counts, and `InputError("", "batches[i]", ...)`
/// when the largest minibatch's step (every layer's output and gradient per sample) would not fit
/// in this host's memory, checked before any sample is made.
std::vector<StepTime> time_training_steps(const Graph& graph, const std::vector<std::int64_t>& batches,
                                          int repeats, std::uint64_t seed, bool batched_layers = true);

}  // namespace coinfer
