#pragma once
/// Stochastic gradient descent with momentum and weight decay, PyTorch's rule (dampening 0, not Nesterov):
///   g = grad + weight_decay * w;   v = momentum * v + g;   w = w - learning_rate * v
/// `velocity` is the optimizer's state for one parameter tensor: empty before the first step (taken
/// as zeros, so the first v is g) and kept by the caller between steps.
///
///     Tensor v;                                          // one per parameter tensor
///     sgd_step(w, grads.weight, v, {0.1f, 0.9f, 5e-4f});
#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct SgdParams {
  float learning_rate = 0.01f;
  float momentum = 0.0f;
  float weight_decay = 0.0f;
};

/// Updates `weight` (and `velocity`) in place. Throws `Error` when grad's shape differs from weight's,
/// velocity is neither empty nor weight's shape, or a rate is negative.
void sgd_step(Tensor& weight, const Tensor& grad, Tensor& velocity, const SgdParams& params);

}  // namespace coinfer::kernels
