#include "sim/kernels/loss.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {

LossGradient softmax_cross_entropy(const Tensor& logits, const std::vector<std::int64_t>& labels) {
  if (logits.rank() != 1 && logits.rank() != 2)
    throw Error(fmt::format("softmax_cross_entropy: expected logits (classes) or (N, classes), got {}",
                            shape_to_string(logits.shape)));
  const std::int64_t classes = logits.shape.back(), samples = logits.rank() == 2 ? logits.shape[0] : 1;
  if (static_cast<std::int64_t>(labels.size()) != samples || classes < 1)
    throw Error(fmt::format("softmax_cross_entropy: {} labels for logits {}", labels.size(),
                            shape_to_string(logits.shape)));
  LossGradient out{0.0, Tensor(logits.shape)};
  const auto z = logits.matrix(samples, classes);
  auto g = out.grad.matrix(samples, classes);
  for (std::int64_t n = 0; n < samples; ++n) {
    const std::int64_t label = labels[static_cast<std::size_t>(n)];
    if (label < 0 || label >= classes)
      throw Error(
          fmt::format("softmax_cross_entropy: label {} of sample {} is outside [0, {})", label, n, classes));
    // log softmax(z)_j = z_j - m - log sum_i exp(z_i - m) with m = max z: every exponent is <= 0.
    const float m = z.row(n).maxCoeff();
    g.row(n) = (z.row(n).array() - m).exp().matrix();
    const double sum = g.row(n).cast<double>().sum();
    out.loss += std::log(sum) + m - z(n, label);
    g.row(n) /= static_cast<float>(sum);
    g(n, label) -= 1.0f;
  }
  out.loss /= static_cast<double>(samples);
  out.grad.vector() /= static_cast<float>(samples);
  return out;
}

}  // namespace coinfer::kernels
