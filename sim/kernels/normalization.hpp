#pragma once
/// Batch normalisation (inference form), layer normalisation and local response normalisation.
///
///     BatchNormParams bn{mean, var, scale, shift};          // one value per channel each
///     Tensor y = batch_norm(std::move(x), bn);
///     Tensor z = lrn(y, 5, 1e-4f, 0.75f, 1.0f);              // AlexNet's LRN
///     Tensor n = layer_norm(x, gamma, beta, 1e-6f);          // over the channels at every pixel
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

/// Training-mode batch normalisation normalises with the statistics of the batch itself. Convention:
/// the statistics of channel c are taken over every element of x[c, ...], so a minibatch of N samples
/// is passed channel-major, (C, N, H, W) or (C, N * H * W), and a single (C, H, W) sample normalises
/// over its own plane. This returns `params` with mean and variance replaced by the batch's (the
/// biased variance, divided by the element count, as PyTorch normalises in training); the training
/// forward is then batch_norm(x, batch_norm_statistics(x, params)). Running averages are the caller's.
/// Throws `Error` as batch_norm does and for a channel without elements.
///
///     BatchNormParams batch = batch_norm_statistics(x, bn);
///     Tensor y = batch_norm(x, batch);
///     Gradients g = batch_norm_backward(x, batch, dy);      // g.weight: dL/dscale, g.bias: dL/dshift
BatchNormParams batch_norm_statistics(const Tensor& x, BatchNormParams params);

/// Gradients of training-mode batch normalisation, where `batch` holds the batch statistics of x
/// (from batch_norm_statistics) and the scale and shift used. Per channel, with M elements,
/// x^ = (x - mean) / sqrt(var + eps):
///   dshift = sum dy,  dscale = sum dy x^,  dx = scale / (M sqrt(var + eps)) (M dy - dshift - x^ dscale)
/// (the last term because mean and var depend on x). `Gradients::weight` holds dscale and `bias`
/// dshift, both (C). Throws `Error` on inconsistent shapes.
Gradients batch_norm_backward(const Tensor& x, const BatchNormParams& batch, const Tensor& grad_output);

/// Layer normalisation over the feature axis, as PyTorch's LayerNorm (biased variance, eps inside
/// the square root): the channel axis of a (C, H, W) tensor, independently at every pixel (ConvNeXt's
/// channels-first LayerNorm), the last axis of a (T, F) sequence (each row t) or an (F) vector:
///   y[f] = (x[f] - mean) / sqrt(var + epsilon) * gamma[f] + beta[f],
///   mean = sum_f x[f] / F,  var = sum_f (x[f] - mean)^2 / F,
/// with F = C for rank 3 and the last dimension otherwise; gamma and beta have shape (F). Statistics
/// are accumulated in double, two passes. Throws `Error` for a rank other than 1, 2 or 3, a gamma or
/// beta not of shape (F), or an epsilon that is negative or not a number.
///
///     Tensor y = layer_norm(x, gamma, beta, 1e-6f);     // x (96, 56, 56), gamma and beta (96)
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float epsilon);

/// The gradients of layer_norm, each with the shape of what it differentiates: `input` (x's shape),
/// `gamma` and `beta` (F).
struct LayerNormGradients {
  Tensor input, gamma, beta;
};

/// Gradients of layer_norm given dL/dy; the statistics are recomputed from x. Per normalised set of F
/// features, with x^ = (x - mean) / sqrt(var + eps) and g = dy * gamma:
///   dbeta[f] = sum dy,  dgamma[f] = sum dy x^  (both summed over every set: pixels or rows),
///   dx = 1 / (F sqrt(var + eps)) (F g - sum_f g - x^ sum_f g x^)
/// (the last two terms because mean and var depend on x). Throws `Error` as layer_norm does and when
/// grad_output's shape differs from x's.
///
///     LayerNormGradients g = layer_norm_backward(x, gamma, 1e-6f, dy);
LayerNormGradients layer_norm_backward(const Tensor& x, const Tensor& gamma, float epsilon,
                                       const Tensor& grad_output);

/// Caffe's across-channel LRN on a (C, H, W) tensor:
///   y[c] = x[c] / (k + alpha / size * sum_{c' = c - (size-1)/2}^{c + size/2} x[c']^2)^beta
/// (channels outside [0, C) contribute 0). Throws `Error` for size < 1 or a non-rank-3 input.
Tensor lrn(const Tensor& x, std::int64_t size, float alpha, float beta, float k);

/// Gradient of lrn with respect to x given dL/dy; with s[c] = k + alpha / size * (window sum of x^2)
/// recomputed from x and y[c] = x[c] s[c]^-beta:
///   dx[c] = dy[c] s[c]^-beta - 2 beta alpha / size * x[c] * sum_{c' whose window holds c} dy[c'] y[c'] /
///   s[c']
/// Throws `Error` as lrn does and when grad_output's shape differs from x's.
Tensor lrn_backward(const Tensor& x, const Tensor& grad_output, std::int64_t size, float alpha, float beta,
                    float k);

}  // namespace coinfer::kernels
