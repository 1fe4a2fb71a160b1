#pragma once
/// Element-wise activations and softmax. They take the tensor by value, so a caller that moves
/// its tensor in gets the work done in place:
///
///     Tensor y = relu(std::move(x));
///     Tensor p = softmax(logits);            // logits (1000) -> probabilities summing to 1
#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

Tensor relu(Tensor x);
/// min(max(x, 0), 6)
Tensor relu6(Tensor x);
Tensor sigmoid(Tensor x);
Tensor tanh(Tensor x);
/// x if x >= 0, else negative_slope * x.
Tensor leaky_relu(Tensor x, float negative_slope);

/// Softmax over the feature axis: the channel axis of a (C, H, W) tensor (at every pixel), the last
/// axis otherwise ((N) vectors, each row of (T, F) sequences). Max-subtracted for stability.
Tensor softmax(Tensor x);

}  // namespace coinfer::kernels
