#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/normalization.hpp"

namespace coinfer::kernels {

Tensor batch_norm(Tensor x, const BatchNormParams& p) {
  if (x.rank() < 1) throw Error("batch_norm: expected an input with a channel axis");
  const std::int64_t c = x.shape[0];
  const auto n = static_cast<std::size_t>(c);
  if (p.mean.size() != n || p.variance.size() != n || p.scale.size() != n || p.shift.size() != n)
    throw Error(fmt::format("batch_norm: parameters must have {} values (one per channel)", c));
  auto m = x.matrix(c, x.size() / c);
  for (std::int64_t i = 0; i < c; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!(p.variance[k] >= 0.0f)) throw Error("batch_norm: variance must be non-negative");
    // Folded into one multiply-add: y = a x + b with a = scale / sqrt(var + eps), b = shift - a mean.
    const float a = p.scale[k] / std::sqrt(p.variance[k] + p.epsilon);
    const float b = p.shift[k] - a * p.mean[k];
    m.row(i) = (m.row(i).array() * a + b).matrix();
  }
  return x;
}

}  // namespace coinfer::kernels
