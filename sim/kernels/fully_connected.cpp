#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/gemm.hpp"

namespace coinfer::kernels {

namespace {

// out (T x units) = input (T x F) * weight^T + bias, computed as weight (units x F) * input^T
// (F x T) so the weight stays in place, then transposed back.
Tensor fully_connected_per_step(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const std::int64_t steps = input.shape[0], features = input.shape[1], units = weight.shape[0];
  Tensor xt({features, steps});
  xt.matrix(features, steps) = input.matrix(steps, features).transpose();
  Tensor yt({units, steps});
  if (!bias.empty()) yt.matrix(units, steps).colwise() = Eigen::Map<const Eigen::VectorXf>(bias.ptr(), units);
  gemm(weight.ptr(), xt.ptr(), yt.ptr(), units, steps, features, !bias.empty());
  Tensor out({steps, units});
  out.matrix(steps, units) = yt.matrix(units, steps).transpose();
  return out;
}

}  // namespace

Tensor fully_connected(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (input.rank() == 2) {
    if (weight.rank() != 2 || weight.shape[1] != input.shape[1])
      throw Error(
          fmt::format("fc: weight {} does not match a sequence input {} (one F -> units matrix per step)",
                      shape_to_string(weight.shape), shape_to_string(input.shape)));
    if (!bias.empty() && bias.size() != weight.shape[0]) throw Error("fc: bias must have one value per unit");
    return fully_connected_per_step(input, weight, bias);
  }
  if (weight.rank() != 2 || weight.shape[1] != input.size())
    throw Error(fmt::format("fc: weight {} does not match an input of {} elements",
                            shape_to_string(weight.shape), input.size()));
  const std::int64_t units = weight.shape[0];
  if (!bias.empty() && bias.size() != units) throw Error("fc: bias must have one value per unit");
  Tensor out({units});
  if (!bias.empty()) out.data = bias.data;
  gemv(weight.ptr(), input.ptr(), out.ptr(), units, input.size(), !bias.empty());
  return out;
}

}  // namespace coinfer::kernels
