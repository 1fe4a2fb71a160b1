#pragma once
// Private to the Trainer's implementation files (trainer.cpp, trainer_forward.cpp,
// trainer_backward.cpp): the state of one minibatch and the layouts the forward and backward share.
#include <cstdint>
#include <vector>

#include "sim/functional/trainer.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer {

struct Trainer::Batch {
  std::vector<std::vector<Tensor>> acts;             // [sample][layer]: forward outputs
  std::vector<kernels::BatchNormParams> statistics;  // [layer]: batch norm's batch statistics
  std::vector<std::vector<Tensor>> masks;            // [layer][sample]: dropout masks
  std::uint64_t seed = 0;                            // of this step's dropout masks
  std::size_t size() const { return acts.size(); }
};

namespace trainer_detail {

/// The tensors of one layer across a minibatch's samples ([sample][layer] -> [sample]).
std::vector<const Tensor*> column(const std::vector<std::vector<Tensor>>& per_sample, std::size_t layer);

/// N samples of shape (C, ...) laid channel-major as one (C, N * M) tensor, M elements per channel:
/// the layout in which batch norm takes a channel's statistics over the whole minibatch.
Tensor stack_channel_major(const std::vector<const Tensor*>& xs);

/// Sample k of a channel-major stack, under `shape`.
Tensor unstack_channel_major(const Tensor& t, std::size_t k, const Shape& shape);

/// The logits of a batch as one (N, classes) tensor.
Tensor stack_rows(const std::vector<const Tensor*>& rows);

}  // namespace trainer_detail
}  // namespace coinfer
