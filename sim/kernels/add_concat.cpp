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

namespace {

std::size_t axis_index(std::int64_t axis) { return static_cast<std::size_t>(axis); }

// The shape of `shapes` concatenated along `axis`; throws `Error` when they do not fit together.
Shape concat_shape(const std::vector<const Shape*>& shapes, std::int64_t axis) {
  if (shapes.empty()) throw Error("concat: expected at least one input");
  const Shape& first = *shapes[0];
  const auto rank = static_cast<std::int64_t>(first.size());
  if (axis < 0 || axis >= rank)
    throw Error(fmt::format("concat: axis {} out of range for rank {}", axis, rank));
  Shape out = first;
  out[axis_index(axis)] = 0;
  for (const Shape* s : shapes) {
    bool ok = static_cast<std::int64_t>(s->size()) == rank;
    for (std::int64_t d = 0; ok && d < rank; ++d)
      ok = d == axis || (*s)[axis_index(d)] == first[axis_index(d)];
    if (!ok)
      throw Error(fmt::format("concat: {} and {} differ outside axis {}", shape_to_string(first),
                              shape_to_string(*s), axis));
    out[axis_index(axis)] += (*s)[axis_index(axis)];
  }
  return out;
}

// Row-major: the concatenation is `outer` blocks, each the pieces' blocks of (dim[axis] * inner) in
// turn. Calls copy(piece, offset in the concatenation, offset in the piece, count) for every block.
template <class Copy>
void for_each_block(const Shape& whole, const std::vector<const Shape*>& pieces, std::int64_t axis,
                    Copy copy) {
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= whole[axis_index(d)];
  for (std::int64_t d = axis + 1; d < static_cast<std::int64_t>(whole.size()); ++d)
    inner *= whole[axis_index(d)];
  std::int64_t pos = 0;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const std::int64_t block = (*pieces[i])[axis_index(axis)] * inner;
      copy(i, pos, o * block, block);
      pos += block;
    }
  }
}

}  // namespace

Tensor concat(const std::vector<const Tensor*>& inputs, std::int64_t axis) {
  std::vector<const Shape*> shapes;
  for (const Tensor* t : inputs) shapes.push_back(&t->shape);
  Tensor out(concat_shape(shapes, axis));
  for_each_block(out.shape, shapes, axis,
                 [&](std::size_t i, std::int64_t pos, std::int64_t from, std::int64_t count) {
                   std::memcpy(out.ptr() + pos, inputs[i]->ptr() + from,
                               static_cast<std::size_t>(count) * sizeof(float));
                 });
  return out;
}

std::vector<Tensor> add_backward(const Tensor& grad_output, std::size_t inputs) {
  if (inputs < 1) throw Error("add_backward: expected at least one input");
  return std::vector<Tensor>(inputs, grad_output);
}

std::vector<Tensor> concat_backward(const Tensor& grad_output, const std::vector<Shape>& input_shapes,
                                    std::int64_t axis) {
  std::vector<const Shape*> shapes;
  for (const Shape& s : input_shapes) shapes.push_back(&s);
  const Shape whole = concat_shape(shapes, axis);
  if (whole != grad_output.shape)
    throw Error(fmt::format("concat_backward: grad_output {} is not the concatenation's shape {}",
                            shape_to_string(grad_output.shape), shape_to_string(whole)));
  std::vector<Tensor> grads;
  for (const Shape& s : input_shapes) grads.emplace_back(s);
  for_each_block(whole, shapes, axis,
                 [&](std::size_t i, std::int64_t pos, std::int64_t to, std::int64_t count) {
                   std::memcpy(grads[i].ptr() + to, grad_output.ptr() + pos,
                               static_cast<std::size_t>(count) * sizeof(float));
                 });
  return grads;
}

Tensor flatten_backward(Tensor grad_output, const Shape& input_shape) {
  return std::move(grad_output).reshaped(input_shape);
}

}  // namespace coinfer::kernels
