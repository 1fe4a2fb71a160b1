#pragma once
/// Batch normalisation (inference form) and local response normalisation.
///
///     BatchNormParams bn{mean, var, scale, shift};          // one value per channel each
///     Tensor y = batch_norm(std::move(x), bn);
///     Tensor z = lrn(y, 5, 1e-4f, 0.75f, 1.0f);              // AlexNet's LRN
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct BatchNormParams {
  std::vector<float> mean, variance, scale, shift;  ///< one value per channel
  float epsilon = 1e-5f;
};

/// y[c, ...] = scale[c] * (x[c, ...] - mean[c]) / sqrt(variance[c] + epsilon) + shift[c], over axis 0.
/// Throws `Error` if a parameter vector's size differs from x.shape[0] or a variance is negative.
Tensor batch_norm(Tensor x, const BatchNormParams& params);

/// Caffe's across-channel LRN on a (C, H, W) tensor:
///   y[c] = x[c] / (k + alpha / size * sum_{c' = c - (size-1)/2}^{c + size/2} x[c']^2)^beta
/// (channels outside [0, C) contribute 0). Throws `Error` for size < 1 or a non-rank-3 input.
Tensor lrn(const Tensor& x, std::int64_t size, float alpha, float beta, float k);

}  // namespace coinfer::kernels
