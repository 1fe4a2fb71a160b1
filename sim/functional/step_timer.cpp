#include "sim/functional/step_timer.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/trainer.hpp"

namespace coinfer {

std::vector<StepTime> time_training_steps(const Graph& graph, const std::vector<std::int64_t>& batches,
                                          int repeats, std::uint64_t seed, bool batched_layers) {
  if (repeats < 1) throw InputError("", "repeats", fmt::format("expected an integer >= 1, got {}", repeats));
  if (batches.empty()) throw InputError("", "batches", "expected at least one minibatch size");
  for (std::size_t i = 0; i < batches.size(); ++i)
    if (batches[i] < 1)
      throw InputError("", index_path("batches", i), fmt::format("expected a size >= 1, got {}", batches[i]));
  // The timed steps do not learn (learning rate and weight decay 0, the same arithmetic): every step
  // runs on the seeded weights. Steps that learnt would memorise their few samples (at batch 1, one
  // sample 20 times) until the gradients underflow to subnormal floats, which x86 computes many times
  // slower: ConvNet at batch 1 took 39 ms a step instead of 1.9 ms that way.
  TrainOptions options;
  options.sgd.learning_rate = 0.0f;
  options.sgd.weight_decay = 0.0f;
  options.batched_layers = batched_layers;
  Trainer trainer(graph, seed, options);
  const Graph& g = trainer.model().graph();
  const Shape input = g.layer(g.input_layers().front()).output_shape;
  const std::int64_t classes = g.layer(trainer.logits_layer()).output_shape.empty()
                                   ? 1
                                   : shape_elements(g.layer(trainer.logits_layer()).output_shape);
  const auto largest_at = std::max_element(batches.begin(), batches.end());
  const std::int64_t largest = *largest_at;
  // A step over B samples holds, for its backward pass, every layer's output and gradient per sample.
  double sample_bytes = 0.0;
  for (std::size_t i = 0; i < g.size(); ++i) sample_bytes += 2.0 * double(g.layer(i).output_bytes);
  const double limit = double(host_memory_bytes());
  if (double(largest) * sample_bytes > limit)
    throw InputError(
        "", index_path("batches", static_cast<std::size_t>(largest_at - batches.begin())),
        fmt::format("expected at most {} (the minibatch whose training step, {:.4g} bytes a "
                    "sample, fits in this host's memory, {:.4g} bytes), got {}",
                    static_cast<std::int64_t>(limit / sample_bytes), sample_bytes, limit, largest));
  std::vector<Tensor> samples;
  std::vector<std::int64_t> labels;
  for (std::int64_t k = 0; k < largest; ++k) {
    samples.push_back(random_normal(input, derive_seed(seed, fmt::format("sample{}", k))));
    labels.push_back(k % classes);
  }
  std::vector<StepTime> out;
  for (const std::int64_t b : batches) {
    std::vector<const Tensor*> xs;
    for (std::int64_t k = 0; k < b; ++k) xs.push_back(&samples[static_cast<std::size_t>(k)]);
    const std::vector<std::int64_t> ys(labels.begin(), labels.begin() + b);
    trainer.train_step(xs, ys);  // warm-up
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      trainer.train_step(xs, ys);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    out.push_back({b, best});
  }
  return out;
}

}  // namespace coinfer
