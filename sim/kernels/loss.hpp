#pragma once
/// Losses that start a backward pass: their value and the gradient with respect to their input.
///
///     LossGradient l = softmax_cross_entropy(logits, {3});   // logits (10), true class 3
///     // l.loss = -log softmax(logits)[3]; l.grad = softmax(logits) - onehot(3)
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

struct LossGradient {
  double loss = 0.0;  ///< mean over the samples
  Tensor grad;        ///< dloss / dinput, the input's shape
};

/// Softmax followed by cross-entropy against integer class labels, fused: logits (classes) with one
/// label, or (N, classes) with N labels (one row per sample). loss = mean_n (logsumexp(z_n) - z_n[label_n])
/// (max-subtracted, so no overflow or log of 0) and grad = (softmax(z_n) - onehot(label_n)) / N.
/// Throws `Error` for another rank, a label count other than N, or a label outside [0, classes).
LossGradient softmax_cross_entropy(const Tensor& logits, const std::vector<std::int64_t>& labels);

}  // namespace coinfer::kernels
