// Slicing one axis and ShuffleNet's channel shuffle: data movement only (tensor_ops.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {
namespace {

// The tensor as (outer, dim, inner) around `axis`.
struct AxisView {
  std::int64_t outer = 1, dim = 0, inner = 1;
};

AxisView around(const Shape& shape, std::int64_t axis) {
  if (axis < 0 || axis >= static_cast<std::int64_t>(shape.size()))
    throw Error(fmt::format("slice: axis {} of a {} tensor", axis, shape_to_string(shape)));
  AxisView v;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(shape.size()); ++d) {
    const auto n = shape[static_cast<std::size_t>(d)];
    if (d < axis) v.outer *= n;
    if (d == axis) v.dim = n;
    if (d > axis) v.inner *= n;
  }
  return v;
}

// Copies rows [from, from + count) of `src` (rows of `inner` values in `src_dim` rows per outer block)
// to rows [to, to + count) of `dst` (`dst_dim` rows per outer block).
void copy_rows(const float* src, std::int64_t src_dim, std::int64_t from, float* dst, std::int64_t dst_dim,
               std::int64_t to, std::int64_t count, const AxisView& v) {
  for (std::int64_t o = 0; o < v.outer; ++o)
    std::copy_n(src + (o * src_dim + from) * v.inner, count * v.inner, dst + (o * dst_dim + to) * v.inner);
}

void check_range(const Shape& shape, const AxisView& v, std::int64_t start, std::int64_t end) {
  if (start < 0 || start >= end || end > v.dim)
    throw Error(fmt::format("slice: [{}, {}) is not inside an axis of {} in {}", start, end, v.dim,
                            shape_to_string(shape)));
}

Tensor shuffle(const Tensor& x, std::int64_t groups, bool inverse) {
  if (x.rank() != 3 || groups < 1 || x.dim(0) % groups)
    throw Error(fmt::format("channel_shuffle: {} groups of a {} tensor", groups, shape_to_string(x.shape)));
  const std::int64_t c = x.dim(0), per = c / groups, hw = x.dim(1) * x.dim(2);
  Tensor y(x.shape);
  for (std::int64_t i = 0; i < groups; ++i)
    for (std::int64_t j = 0; j < per; ++j) {
      const std::int64_t from = i * per + j, to = j * groups + i;
      const float* src = x.ptr() + (inverse ? to : from) * hw;
      std::copy_n(src, hw, y.ptr() + (inverse ? from : to) * hw);
    }
  return y;
}

}  // namespace

Tensor slice(const Tensor& x, std::int64_t axis, std::int64_t start, std::int64_t end) {
  const AxisView v = around(x.shape, axis);
  check_range(x.shape, v, start, end);
  Shape shape = x.shape;
  shape[static_cast<std::size_t>(axis)] = end - start;
  Tensor y(shape);
  copy_rows(x.ptr(), v.dim, start, y.ptr(), end - start, 0, end - start, v);
  return y;
}

Tensor slice_backward(const Tensor& dy, const Shape& input_shape, std::int64_t axis, std::int64_t start) {
  const AxisView v = around(input_shape, axis);
  const std::int64_t count =
      dy.shape.size() == input_shape.size() ? dy.dim(static_cast<std::size_t>(axis)) : 0;
  check_range(input_shape, v, start, start + count);
  Tensor dx(input_shape);
  copy_rows(dy.ptr(), count, 0, dx.ptr(), v.dim, start, count, v);
  return dx;
}

Tensor channel_shuffle(const Tensor& x, std::int64_t groups) { return shuffle(x, groups, false); }

Tensor channel_shuffle_backward(const Tensor& dy, std::int64_t groups) { return shuffle(dy, groups, true); }

}  // namespace coinfer::kernels
