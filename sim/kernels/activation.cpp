#include "sim/kernels/activation.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

// Softmax's feature axis as a matrix view: (C, H*W) with features down each column for a (C, H, W)
// tensor, (rows, F) with features along each row otherwise.
bool features_in_columns(const Tensor& x) { return x.rank() == 3; }
std::int64_t feature_count(const Tensor& x) {
  return features_in_columns(x) ? x.shape[0] : (x.shape.empty() ? 1 : x.shape.back());
}

// grad[i] *= derivative(v[i]) for the forward's input or output v; throws when the shapes differ.
template <class Derivative>
Tensor chain(const char* name, const Tensor& v, Tensor grad, Derivative derivative) {
  if (v.shape != grad.shape)
    throw Error(fmt::format("{}: gradient {} does not match the tensor {}", name, shape_to_string(grad.shape),
                            shape_to_string(v.shape)));
  for (std::size_t i = 0; i < grad.data.size(); ++i) grad.data[i] *= derivative(v.data[i]);
  return grad;
}

}  // namespace

Tensor relu(Tensor x) {
  x.vector() = x.vector().cwiseMax(0.0f);
  return x;
}

Tensor relu6(Tensor x) {
  x.vector() = x.vector().cwiseMax(0.0f).cwiseMin(6.0f);
  return x;
}

Tensor sigmoid(Tensor x) {
  for (auto& v : x.data) v = 1.0f / (1.0f + std::exp(-v));
  return x;
}

Tensor tanh(Tensor x) {
  x.vector() = x.vector().array().tanh();
  return x;
}

Tensor leaky_relu(Tensor x, float negative_slope) {
  for (auto& v : x.data) v = v >= 0.0f ? v : negative_slope * v;
  return x;
}

Tensor hard_sigmoid(Tensor x, float slope, float offset) {
  for (auto& v : x.data) v = std::max(0.0f, std::min(1.0f, slope * v + offset));
  return x;
}

Tensor softmax(Tensor x) {
  if (x.empty()) return x;
  // Viewed as rows x cols with softmax along each column (rank 3: C x HW) or each row (otherwise).
  const std::int64_t features = feature_count(x);
  if (features_in_columns(x)) {
    auto m = x.matrix(features, x.size() / features);
    m.rowwise() -= m.colwise().maxCoeff();
    m = m.array().exp();
    m.array().rowwise() /= m.colwise().sum().array();
  } else {
    auto m = x.matrix(x.size() / features, features);
    m.colwise() -= m.rowwise().maxCoeff();
    m = m.array().exp();
    m.array().colwise() /= m.rowwise().sum().array();
  }
  return x;
}

Tensor relu_backward(const Tensor& input, Tensor grad) {
  return chain("relu_backward", input, std::move(grad), [](float x) { return x > 0.0f ? 1.0f : 0.0f; });
}

Tensor relu6_backward(const Tensor& input, Tensor grad) {
  return chain("relu6_backward", input, std::move(grad),
               [](float x) { return x > 0.0f && x < 6.0f ? 1.0f : 0.0f; });
}

Tensor leaky_relu_backward(const Tensor& input, Tensor grad, float negative_slope) {
  return chain("leaky_relu_backward", input, std::move(grad),
               [negative_slope](float x) { return x >= 0.0f ? 1.0f : negative_slope; });
}

Tensor hard_sigmoid_backward(const Tensor& input, Tensor grad, float slope, float offset) {
  return chain("hard_sigmoid_backward", input, std::move(grad), [slope, offset](float x) {
    const float z = slope * x + offset;
    return z > 0.0f && z < 1.0f ? slope : 0.0f;
  });
}

Tensor sigmoid_backward(const Tensor& output, Tensor grad) {
  return chain("sigmoid_backward", output, std::move(grad), [](float y) { return y * (1.0f - y); });
}

Tensor tanh_backward(const Tensor& output, Tensor grad) {
  return chain("tanh_backward", output, std::move(grad), [](float y) { return 1.0f - y * y; });
}

Tensor softmax_backward(const Tensor& output, Tensor grad) {
  if (output.shape != grad.shape)
    throw Error(fmt::format("softmax_backward: gradient {} does not match the output {}",
                            shape_to_string(grad.shape), shape_to_string(output.shape)));
  if (grad.empty()) return grad;
  // dL/dx_i = sum_j dL/dy_j * y_j (delta_ij - y_i) = y_i (dy_i - sum_j dy_j y_j) within one softmax.
  const std::int64_t features = feature_count(output), sets = output.size() / features;
  if (features_in_columns(output)) {
    const auto y = output.matrix(features, sets);
    auto g = grad.matrix(features, sets);
    const Eigen::RowVectorXf dot = (g.array() * y.array()).colwise().sum();
    g = (y.array() * (g.array().rowwise() - dot.array())).matrix();
  } else {
    const auto y = output.matrix(sets, features);
    auto g = grad.matrix(sets, features);
    const Eigen::VectorXf dot = (g.array() * y.array()).rowwise().sum();
    g = (y.array() * (g.array().colwise() - dot.array())).matrix();
  }
  return grad;
}

}  // namespace coinfer::kernels
