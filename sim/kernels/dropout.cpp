#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {

Tensor dropout_mask(const Shape& shape, float rate, std::uint64_t seed) {
  if (!(rate >= 0.0f && rate < 1.0f))
    throw Error(fmt::format("dropout: rate must be in [0, 1), got {}", rate));
  Tensor mask(shape);
  Rng rng(seed);
  const float keep = 1.0f / (1.0f - rate);
  for (auto& m : mask.data) m = rng.uniform() < rate ? 0.0f : keep;
  return mask;
}

Tensor dropout(Tensor x, const Tensor& mask) {
  if (x.shape != mask.shape)
    throw Error(fmt::format("dropout: mask {} does not match the tensor {}", shape_to_string(mask.shape),
                            shape_to_string(x.shape)));
  x.vector().array() *= mask.vector().array();
  return x;
}

Tensor dropout_backward(Tensor grad_output, const Tensor& mask) {
  return dropout(std::move(grad_output), mask);
}

}  // namespace coinfer::kernels
