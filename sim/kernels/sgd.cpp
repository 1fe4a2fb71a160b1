#include "sim/kernels/sgd.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {

void sgd_step(Tensor& weight, const Tensor& grad, Tensor& velocity, const SgdParams& p) {
  if (grad.shape != weight.shape || (!velocity.empty() && velocity.shape != weight.shape))
    throw Error(fmt::format("sgd: gradient {} and velocity {} must have the weight's shape {}",
                            shape_to_string(grad.shape), shape_to_string(velocity.shape),
                            shape_to_string(weight.shape)));
  if (!(p.learning_rate >= 0.0f && p.momentum >= 0.0f && p.weight_decay >= 0.0f))
    throw Error("sgd: learning rate, momentum and weight decay must be non-negative");
  if (velocity.empty()) velocity = Tensor(weight.shape);
  auto w = weight.vector().array();
  auto v = velocity.vector().array();
  v = p.momentum * v + grad.vector().array() + p.weight_decay * w;
  w -= p.learning_rate * v;
}

}  // namespace coinfer::kernels
