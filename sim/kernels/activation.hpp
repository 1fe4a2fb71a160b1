#pragma once
/// Element-wise activations and softmax. They take the tensor by value, so a caller that moves
/// its tensor in gets the work done in place:
///
///     Tensor y = relu(std::move(x));
///     Tensor p = softmax(logits);            // logits (1000) -> probabilities summing to 1
#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

Tensor relu(Tensor x);
/// min(max(x, 0), 6)
Tensor relu6(Tensor x);
Tensor sigmoid(Tensor x);
Tensor tanh(Tensor x);
/// x if x >= 0, else negative_slope * x.
Tensor leaky_relu(Tensor x, float negative_slope);
/// max(0, min(1, slope x + offset)), as ONNX's HardSigmoid (PyTorch's hardsigmoid: slope 1/6, offset 1/2).
Tensor hard_sigmoid(Tensor x, float slope, float offset);
/// 0.5 x (1 + erf(x / sqrt(2))) = x Phi(x), the exact GELU (PyTorch's default, approximate='none').
Tensor gelu(Tensor x);

/// Softmax over the feature axis: the channel axis of a (C, H, W) tensor (at every pixel), the last
/// axis otherwise ((N) vectors, each row of (T, F) sequences). Max-subtracted for stability.
Tensor softmax(Tensor x);

/// Backward passes: dL/dx from dL/dy (`grad`, taken by value and returned, so a moved-in gradient is
/// updated in place) and the forward's input or output, whichever the derivative needs (PyTorch's
/// convention): relu, relu6, leaky_relu and gelu read the input x; sigmoid, tanh and softmax the output y.
/// At a kink the derivative is the right-hand one for leaky_relu (x >= 0 passes dy) and 0 for relu at
/// x = 0 and relu6 at x = 0 and x = 6 (as PyTorch). Throw `Error` when the shapes differ.
///
///     Tensor dx = relu_backward(x, std::move(dy));    // dy * (x > 0)
Tensor relu_backward(const Tensor& input, Tensor grad);
Tensor relu6_backward(const Tensor& input, Tensor grad);
Tensor leaky_relu_backward(const Tensor& input, Tensor grad, float negative_slope);
/// dy * slope where 0 < slope x + offset < 1, else 0 (reads the input x).
Tensor hard_sigmoid_backward(const Tensor& input, Tensor grad, float slope, float offset);
/// dy * (Phi(x) + x phi(x)), Phi and phi the standard normal CDF and density (reads the input x).
Tensor gelu_backward(const Tensor& input, Tensor grad);
/// dy * y * (1 - y)
Tensor sigmoid_backward(const Tensor& output, Tensor grad);
/// dy * (1 - y^2)
Tensor tanh_backward(const Tensor& output, Tensor grad);
/// dx = y * (dy - sum(dy * y)), the sum over the feature axis softmax normalised.
Tensor softmax_backward(const Tensor& output, Tensor grad);

}  // namespace coinfer::kernels
