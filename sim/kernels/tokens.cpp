// The token plumbing of a vision transformer (declared in attention.hpp): a (C, H, W) patch embedding
// read as a (H*W, C) sequence, and the class token put in front of it.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/attention.hpp"

namespace coinfer::kernels {

Tensor tokens(const Tensor& x) {
  if (x.rank() != 3)
    throw Error(fmt::format("tokens: expected a (C,H,W) input, got {}", shape_to_string(x.shape)));
  const std::int64_t channels = x.shape[0], pixels = x.shape[1] * x.shape[2];
  // Row p of the (H*W, C) result is pixel p = h*W + w of every channel: a transpose of x as C x H*W.
  Tensor out({pixels, channels});
  out.matrix(pixels, channels) = x.matrix(channels, pixels).transpose();
  return out;
}

Tensor tokens_backward(const Tensor& grad_output, const Shape& input_shape) {
  if (input_shape.size() != 3)
    throw Error(
        fmt::format("tokens_backward: expected a (C,H,W) input shape, got {}", shape_to_string(input_shape)));
  const std::int64_t channels = input_shape[0], pixels = input_shape[1] * input_shape[2];
  if (grad_output.shape != Shape{pixels, channels})
    throw Error(fmt::format("tokens_backward: grad_output {} is not the output shape [{},{}] of input {}",
                            shape_to_string(grad_output.shape), pixels, channels,
                            shape_to_string(input_shape)));
  Tensor grad(input_shape);
  grad.matrix(channels, pixels) = grad_output.matrix(pixels, channels).transpose();
  return grad;
}

Tensor prepend_token(const Tensor& x, const Tensor& token) {
  if (x.rank() != 2)
    throw Error(fmt::format("prepend_token: expected a (T,F) input, got {}", shape_to_string(x.shape)));
  const std::int64_t steps = x.shape[0], features = x.shape[1];
  if (token.shape != Shape{features})
    throw Error(fmt::format("prepend_token: token must have shape [{}] (one value per feature), got {}",
                            features, shape_to_string(token.shape)));
  Tensor out({steps + 1, features});
  std::copy(token.data.begin(), token.data.end(), out.data.begin());
  std::copy(x.data.begin(), x.data.end(), out.data.begin() + features);
  return out;
}

PrependTokenGradients prepend_token_backward(const Tensor& grad_output) {
  if (grad_output.rank() != 2 || grad_output.shape[0] < 1)
    throw Error(fmt::format("prepend_token_backward: expected a (T+1,F) grad_output with T+1 >= 1, got {}",
                            shape_to_string(grad_output.shape)));
  const std::int64_t steps = grad_output.shape[0] - 1, features = grad_output.shape[1];
  const auto split = grad_output.data.begin() + features;
  return {Tensor({steps, features}, std::vector<float>(split, grad_output.data.end())),
          Tensor({features}, std::vector<float>(grad_output.data.begin(), split))};
}

}  // namespace coinfer::kernels
