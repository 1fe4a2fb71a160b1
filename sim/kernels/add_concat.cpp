#include <cstring>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {

Tensor add(const std::vector<const Tensor*>& inputs) {
  if (inputs.empty()) throw Error("add: expected at least one input");
  Tensor out = *inputs[0];
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    if (inputs[i]->shape != out.shape)
      throw Error(fmt::format("add: shapes differ: {} vs {}", shape_to_string(out.shape),
                              shape_to_string(inputs[i]->shape)));
    out.vector() += inputs[i]->vector();
  }
  return out;
}

Tensor concat(const std::vector<const Tensor*>& inputs, std::int64_t axis) {
  if (inputs.empty()) throw Error("concat: expected at least one input");
  const Shape& first = inputs[0]->shape;
  const auto rank = static_cast<std::int64_t>(first.size());
  if (axis < 0 || axis >= rank)
    throw Error(fmt::format("concat: axis {} out of range for rank {}", axis, rank));
  Shape out_shape = first;
  out_shape[static_cast<std::size_t>(axis)] = 0;
  for (const Tensor* t : inputs) {
    bool ok = t->rank() == rank;
    for (std::int64_t d = 0; ok && d < rank; ++d)
      ok = d == axis || t->shape[static_cast<std::size_t>(d)] == first[static_cast<std::size_t>(d)];
    if (!ok)
      throw Error(fmt::format("concat: {} and {} differ outside axis {}", shape_to_string(first),
                              shape_to_string(t->shape), axis));
    out_shape[static_cast<std::size_t>(axis)] += t->shape[static_cast<std::size_t>(axis)];
  }
  // Row-major: the output is `outer` blocks, each the inputs' blocks of (dim[axis] * inner) in turn.
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= first[static_cast<std::size_t>(d)];
  for (std::int64_t d = axis + 1; d < rank; ++d) inner *= first[static_cast<std::size_t>(d)];
  Tensor out(out_shape);
  float* dst = out.ptr();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const Tensor* t : inputs) {
      const std::int64_t block = t->shape[static_cast<std::size_t>(axis)] * inner;
      std::memcpy(dst, t->ptr() + o * block, static_cast<std::size_t>(block) * sizeof(float));
      dst += block;
    }
  }
  return out;
}

}  // namespace coinfer::kernels
