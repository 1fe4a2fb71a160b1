#include "sim/kernels/activation.hpp"

#include <cmath>

namespace coinfer::kernels {

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

Tensor softmax(Tensor x) {
  if (x.empty()) return x;
  // Viewed as rows x cols with softmax along each column (rank 3: C x HW) or each row (otherwise).
  if (x.rank() == 3) {
    auto m = x.matrix(x.shape[0], x.shape[1] * x.shape[2]);
    m.rowwise() -= m.colwise().maxCoeff();
    m = m.array().exp();
    m.array().rowwise() /= m.colwise().sum().array();
  } else {
    const std::int64_t cols = x.shape.empty() ? 1 : x.shape.back();
    auto m = x.matrix(x.size() / cols, cols);
    m.colwise() -= m.rowwise().maxCoeff();
    m = m.array().exp();
    m.array().colwise() /= m.rowwise().sum().array();
  }
  return x;
}

}  // namespace coinfer::kernels
