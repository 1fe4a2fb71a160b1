// Element-wise product with broadcasting, and its backward pass.
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {
namespace {

// Visits every output element of a broadcast a * b with the flat indices of a and b it reads.
template <class Fn>
Shape broadcast_each(const Shape& a, const Shape& b, const char* what, Fn&& fn) {
  bool ok = a.size() == b.size();
  Shape out(a.size());
  for (std::size_t d = 0; ok && d < a.size(); ++d) {
    ok = a[d] == b[d] || a[d] == 1 || b[d] == 1;
    out[d] = std::max(a[d], b[d]);
  }
  if (!ok)
    throw Error(
        fmt::format("{}: shapes {} and {} do not broadcast", what, shape_to_string(a), shape_to_string(b)));
  const std::size_t rank = out.size();
  // Strides of a and b over the output index; 0 along a broadcast dimension.
  std::vector<std::int64_t> sa(rank), sb(rank);
  for (std::int64_t d = static_cast<std::int64_t>(rank) - 1, pa = 1, pb = 1; d >= 0; --d) {
    const auto u = static_cast<std::size_t>(d);
    sa[u] = a[u] == 1 ? 0 : pa;
    sb[u] = b[u] == 1 ? 0 : pb;
    pa *= a[u];
    pb *= b[u];
  }
  const std::int64_t n = shape_elements(out), inner = rank ? out.back() : 1;
  const std::int64_t ia_step = rank ? sa.back() : 0, ib_step = rank ? sb.back() : 0;
  std::vector<std::int64_t> index(rank, 0);
  std::int64_t ia = 0, ib = 0;
  for (std::int64_t o = 0; o < n; o += inner) {
    for (std::int64_t k = 0; k < inner; ++k) fn(o + k, ia + k * ia_step, ib + k * ib_step);
    // Advance the index over every dimension but the last.
    for (std::int64_t d = static_cast<std::int64_t>(rank) - 2; d >= 0; --d) {
      const auto u = static_cast<std::size_t>(d);
      ia += sa[u];
      ib += sb[u];
      if (++index[u] < out[u]) break;
      ia -= sa[u] * out[u];
      ib -= sb[u] * out[u];
      index[u] = 0;
    }
  }
  return out;
}

Shape broadcast_shape(const Shape& a, const Shape& b, const char* what) {
  return broadcast_each(a, b, what, [](std::int64_t, std::int64_t, std::int64_t) {});
}

}  // namespace

Tensor mul(const Tensor& a, const Tensor& b) {
  if (a.shape == b.shape) {
    Tensor y = a;
    for (std::size_t i = 0; i < y.data.size(); ++i) y.data[i] *= b.data[i];
    return y;
  }
  Tensor y(broadcast_shape(a.shape, b.shape, "mul"));
  broadcast_each(a.shape, b.shape, "mul", [&](std::int64_t o, std::int64_t i, std::int64_t j) {
    y.data[static_cast<std::size_t>(o)] =
        a.data[static_cast<std::size_t>(i)] * b.data[static_cast<std::size_t>(j)];
  });
  return y;
}

std::array<Tensor, 2> mul_backward(const Tensor& a, const Tensor& b, const Tensor& grad_output) {
  if (grad_output.shape != broadcast_shape(a.shape, b.shape, "mul_backward"))
    throw Error(fmt::format("mul_backward: dL/dy is {}, the product of {} and {} is not",
                            shape_to_string(grad_output.shape), shape_to_string(a.shape),
                            shape_to_string(b.shape)));
  Tensor da(a.shape), db(b.shape);
  broadcast_each(a.shape, b.shape, "mul_backward", [&](std::int64_t o, std::int64_t i, std::int64_t j) {
    const float dy = grad_output.data[static_cast<std::size_t>(o)];
    da.data[static_cast<std::size_t>(i)] += dy * b.data[static_cast<std::size_t>(j)];
    db.data[static_cast<std::size_t>(j)] += dy * a.data[static_cast<std::size_t>(i)];
  });
  return {std::move(da), std::move(db)};
}

}  // namespace coinfer::kernels
