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

// Checks W against the input (a (T, F) sequence: W is [units, F]; otherwise W is [units, input.size()])
// and returns the number of units.
std::int64_t check_fc_shapes(const Tensor& input, const Tensor& weight) {
  if (input.rank() == 2) {
    if (weight.rank() != 2 || weight.shape[1] != input.shape[1])
      throw Error(
          fmt::format("fc: weight {} does not match a sequence input {} (one F -> units matrix per step)",
                      shape_to_string(weight.shape), shape_to_string(input.shape)));
  } else if (weight.rank() != 2 || weight.shape[1] != input.size()) {
    throw Error(fmt::format("fc: weight {} does not match an input of {} elements",
                            shape_to_string(weight.shape), input.size()));
  }
  return weight.shape[0];
}

}  // namespace

Tensor fully_connected(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const std::int64_t units = check_fc_shapes(input, weight);
  if (!bias.empty() && bias.size() != units) throw Error("fc: bias must have one value per unit");
  if (input.rank() == 2) return fully_connected_per_step(input, weight, bias);
  Tensor out({units});
  if (!bias.empty()) out.data = bias.data;
  gemv(weight.ptr(), input.ptr(), out.ptr(), units, input.size(), !bias.empty());
  return out;
}

Gradients fully_connected_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                   const Tensor& grad_output) {
  const std::int64_t units = check_fc_shapes(input, weight), features = weight.shape[1];
  // One form for both cases: X is T x F (T = 1 for a flattened input) and Y = X W^T + b is T x units.
  const std::int64_t steps = input.rank() == 2 ? input.shape[0] : 1;
  const Shape out_shape = input.rank() == 2 ? Shape{steps, units} : Shape{units};
  if (grad_output.shape != out_shape)
    throw Error(fmt::format("fc_backward: grad_output {} is not the output shape {}",
                            shape_to_string(grad_output.shape), shape_to_string(out_shape)));
  Gradients grads{Tensor(input.shape), Tensor(weight.shape), Tensor()};
  // dX (T x F) = dY (T x units) * W (units x F)
  gemm(grad_output.ptr(), weight.ptr(), grads.input.ptr(), steps, features, units);
  // dW (units x F) = dY^T (units x T) * X (T x F). For T = 1 it is the outer product dY X^T, written
  // row by row: a GEMM with an inner dimension of 1 spends its time packing.
  if (steps == 1) {
    auto dw = grads.weight.matrix(units, features);
    const auto x = input.matrix(1, features);
    for (std::int64_t u = 0; u < units; ++u) dw.row(u) = grad_output.data[static_cast<std::size_t>(u)] * x;
  } else {
    Tensor dyt({units, steps});
    dyt.matrix(units, steps) = grad_output.matrix(steps, units).transpose();
    gemm(dyt.ptr(), input.ptr(), grads.weight.ptr(), units, features, steps);
  }
  if (has_bias) {
    grads.bias = Tensor({units});
    grads.bias.vector() = grad_output.matrix(steps, units).colwise().sum().transpose();
  }
  return grads;
}

}  // namespace coinfer::kernels
