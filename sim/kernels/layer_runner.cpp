#include "sim/kernels/layer_runner.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/activation.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/packed_attention.hpp"
#include "sim/kernels/pool.hpp"
#include "sim/kernels/tensor_ops.hpp"

namespace coinfer::kernels {
namespace {

[[noreturn]] void fail(const Layer& l, const std::string& message) {
  throw Error(fmt::format("layer '{}' ({}): {}", l.name, op_name(l.op), message));
}

void require_rank(const Layer& l, const Shape& in, std::size_t rank) {
  if (in.size() != rank) fail(l, fmt::format("expected a rank-{} input, got {}", rank, shape_to_string(in)));
}

// He initialisation N(0, 2 / fan_in), pruned per row to the layer's sparsity when it is positive.
Tensor he_weight(const Layer& l, Shape shape, double fan_in, std::uint64_t seed) {
  const float stddev = static_cast<float>(std::sqrt(2.0 / std::max(1.0, fan_in)));
  Tensor w = random_normal(shape, derive_seed(seed, "weight"), 0.0f, stddev);
  if (l.attrs.sparsity > 0.0) {
    const std::int64_t rows = shape[0];
    Tensor flat = std::move(w).reshaped({rows, shape_elements(shape) / rows});
    flat.matrix(flat.shape[0], flat.shape[1]) = prune_to_csr(flat, l.attrs.sparsity).toDense();
    w = std::move(flat).reshaped(std::move(shape));
  }
  return w;
}

Tensor bias_for(const Layer& l, std::int64_t n, std::uint64_t seed) {
  return l.attrs.bias ? random_normal({n}, derive_seed(seed, "bias"), 0.0f, 0.01f) : Tensor();
}

PoolParams pool_params(const LayerAttrs& a) { return {a.kernel, a.stride, a.padding, a.ceil_mode}; }

std::vector<LstmCellWeights> lstm_weights(const Layer& l, const Shape& in, std::uint64_t seed) {
  const auto& a = l.attrs;
  require_rank(l, in, 2);
  const std::int64_t dirs = a.bidirectional ? 2 : 1, h = a.units;
  // PyTorch's default: every LSTM parameter ~ U(-1/sqrt(H), 1/sqrt(H)).
  const float bound = 1.0f / std::sqrt(static_cast<float>(h));
  std::vector<LstmCellWeights> cells;
  std::int64_t f = in[1];
  for (std::int64_t layer = 0; layer < a.num_layers; ++layer) {
    for (std::int64_t d = 0; d < dirs; ++d) {
      const std::string tag = fmt::format("lstm{}.{}", layer, d);
      cells.push_back(
          {random_uniform({4 * h, f}, derive_seed(seed, tag + ".w_ih"), -bound, bound),
           random_uniform({4 * h, h}, derive_seed(seed, tag + ".w_hh"), -bound, bound),
           a.bias ? random_uniform({4 * h}, derive_seed(seed, tag + ".b"), -bound, bound) : Tensor()});
    }
    f = dirs * h;
  }
  return cells;
}

BatchNormParams batch_norm_params(const Shape& in, std::uint64_t seed) {
  const std::int64_t c = in.empty() ? 1 : in[0];
  auto vec = [&](const Tensor& t) { return t.data; };
  return {vec(random_normal({c}, derive_seed(seed, "mean"), 0.0f, 0.1f)),
          vec(random_uniform({c}, derive_seed(seed, "variance"), 0.5f, 1.5f)),
          vec(random_uniform({c}, derive_seed(seed, "scale"), 0.5f, 1.5f)),
          vec(random_normal({c}, derive_seed(seed, "shift"), 0.0f, 0.1f))};
}

const Tensor& single_input(const Layer& l, const std::vector<const Tensor*>& inputs) {
  if (inputs.size() != 1 || inputs[0] == nullptr)
    fail(l, fmt::format("expected 1 input, got {}", inputs.size()));
  return *inputs[0];
}

}  // namespace

ConvParams conv_params(const LayerAttrs& a) {
  ConvParams p;
  p.stride = a.stride;
  p.padding = a.padding;
  p.dilation = a.dilation;
  p.output_padding = a.output_padding;
  p.groups = a.groups;
  return p;
}

std::int64_t LayerWeights::size_bytes() const {
  std::int64_t b = weight.size_bytes() + bias.size_bytes();
  if (sparse) b += csr_size_bytes(sparse_weight);
  b += static_cast<std::int64_t>(4 * (batch_norm.mean.size() + batch_norm.variance.size() +
                                      batch_norm.scale.size() + batch_norm.shift.size()));
  for (const auto& c : lstm) b += c.w_ih.size_bytes() + c.w_hh.size_bytes() + c.bias.size_bytes();
  return b;
}

LayerWeights make_weights(const Layer& l, const Shape& in, std::uint64_t seed) {
  const auto& a = l.attrs;
  LayerWeights w;
  const auto kk = static_cast<double>(a.kernel[0] * a.kernel[1]);
  switch (l.op) {
    case OpKind::Conv2d: {
      require_rank(l, in, 3);
      if (a.groups < 1 || in[0] % a.groups) fail(l, "groups must divide the input channels");
      const std::int64_t icg = in[0] / a.groups;
      w.weight =
          he_weight(l, {a.out_channels, icg, a.kernel[0], a.kernel[1]}, static_cast<double>(icg) * kk, seed);
      w.bias = bias_for(l, a.out_channels, seed);
      break;
    }
    case OpKind::DepthwiseConv2d: {
      require_rank(l, in, 3);
      const std::int64_t c = in[0] * a.multiplier;
      w.weight = he_weight(l, {c, 1, a.kernel[0], a.kernel[1]}, kk, seed);
      w.bias = bias_for(l, c, seed);
      break;
    }
    case OpKind::ConvTranspose2d: {
      require_rank(l, in, 3);
      if (a.groups < 1 || a.out_channels % a.groups) fail(l, "groups must divide out_channels");
      const std::int64_t ocg = a.out_channels / a.groups;
      // Each output sums about (IC/g) * KH * KW / (sh * sw) products.
      const double fan_in =
          static_cast<double>(in[0] / a.groups) * kk / static_cast<double>(a.stride[0] * a.stride[1]);
      w.weight = he_weight(l, {in[0], ocg, a.kernel[0], a.kernel[1]}, fan_in, seed);
      w.bias = bias_for(l, a.out_channels, seed);
      break;
    }
    case OpKind::FullyConnected: {
      // A sequence (T, F) shares one F -> units matrix over its steps; anything else is flattened.
      const std::int64_t n = in.size() == 2 ? in[1] : shape_elements(in);
      Layer dense = l;
      dense.attrs.sparsity = 0.0;
      Tensor full = he_weight(dense, {a.units, n}, static_cast<double>(n), seed);
      if (a.sparsity > 0.0) {
        w.sparse_weight = prune_to_csr(full, a.sparsity);
        w.sparse = true;
      } else {
        w.weight = std::move(full);
      }
      w.bias = bias_for(l, a.units, seed);
      break;
    }
    case OpKind::BatchNorm:
      w.batch_norm = batch_norm_params(in, seed);
      break;
    case OpKind::LayerNorm: {  // as batch norm's scale and shift
      const std::int64_t f = layer_norm_features(in);
      if (f < 1) fail(l, "expects a (C,H,W), (T,F) or (F) input");
      w.weight = random_uniform({f}, derive_seed(seed, "scale"), 0.5f, 1.5f);
      w.bias = random_normal({f}, derive_seed(seed, "shift"), 0.0f, 0.1f);
      break;
    }
    case OpKind::Lstm:
      w.lstm = lstm_weights(l, in, seed);
      break;
    case OpKind::Attention: {  // packed q, k, v and output projections (packed_attention.hpp)
      require_rank(l, in, 2);
      const std::int64_t f = in[1];
      w.weight = he_weight(l, {4 * f, f}, static_cast<double>(f), seed);
      w.bias = bias_for(l, 4 * f, seed);
      break;
    }
    case OpKind::ClassToken:  // ViT draws its class token and position embedding from N(0, 0.02^2)
      require_rank(l, in, 2);
      w.weight = random_normal({in[1]}, derive_seed(seed, "token"), 0.0f, 0.02f);
      break;
    case OpKind::PositionEmbedding:
      w.weight = random_normal(in, derive_seed(seed, "embedding"), 0.0f, 0.02f);
      break;
    default:
      break;
  }
  return w;
}

Tensor run_layer(const Layer& l, const std::vector<const Tensor*>& inputs, const LayerWeights& w) {
  const auto& a = l.attrs;
  switch (l.op) {
    case OpKind::Add:
      return add(inputs);
    case OpKind::Concat:
      return concat(inputs, a.axis);
    case OpKind::Mul:
      if (inputs.size() != 2 || !inputs[0] || !inputs[1]) fail(l, "expects 2 inputs");
      return mul(*inputs[0], *inputs[1]);
    default:
      break;
  }
  const Tensor& x = single_input(l, inputs);
  switch (l.op) {
    case OpKind::Input:
      return x;
    case OpKind::Conv2d:
      return conv2d(x, w.weight, w.bias, conv_params(a));
    case OpKind::DepthwiseConv2d:
      return depthwise_conv2d(x, w.weight, w.bias, conv_params(a));
    case OpKind::ConvTranspose2d:
      return conv_transpose2d(x, w.weight, w.bias, conv_params(a));
    case OpKind::FullyConnected:
      return w.sparse ? sparse_fully_connected(x, w.sparse_weight, w.bias)
                      : fully_connected(x, w.weight, w.bias);
    case OpKind::MaxPool:
      return max_pool2d(x, pool_params(a));
    case OpKind::AvgPool:
      return avg_pool2d(x, pool_params(a));
    case OpKind::GlobalAvgPool:
      return global_avg_pool(x);
    case OpKind::Relu:
      return relu(x);
    case OpKind::Relu6:
      return relu6(x);
    case OpKind::Sigmoid:
      return sigmoid(x);
    case OpKind::Tanh:
      return tanh(x);
    case OpKind::LeakyRelu:
      return leaky_relu(x, static_cast<float>(a.negative_slope));
    case OpKind::HardSigmoid:
      return hard_sigmoid(x, static_cast<float>(a.slope), static_cast<float>(a.offset));
    case OpKind::BatchNorm:
      return batch_norm(x, w.batch_norm);
    case OpKind::LayerNorm:
      return layer_norm(x, w.weight, w.bias, static_cast<float>(a.epsilon));
    case OpKind::Gelu:
      return gelu(x);
    case OpKind::Tokens:
      return tokens(x);
    case OpKind::ClassToken:
      return prepend_token(x, w.weight);
    case OpKind::PositionEmbedding:
      return add({&x, &w.weight});
    case OpKind::Attention:
      return packed_attention(x, w.weight, w.bias, a.heads);
    case OpKind::Lrn:
      return lrn(x, a.lrn_size, static_cast<float>(a.lrn_alpha), static_cast<float>(a.lrn_beta),
                 static_cast<float>(a.lrn_k));
    case OpKind::Dropout:
      return x;  // identity at inference
    case OpKind::Softmax:
      return softmax(x);
    case OpKind::Flatten:
      return x.reshaped({x.size()});
    case OpKind::Lstm:
      return lstm(x, w.lstm, a.num_layers, a.bidirectional, a.return_sequences);
    case OpKind::Upsample:
      return upsample(x, a.scale, a.mode);
    case OpKind::Slice:
      return slice(x, a.axis, a.start, a.end);
    case OpKind::ChannelShuffle:
      return channel_shuffle(x, a.groups);
    default:
      fail(l, "no kernel for this op");
  }
}

bool has_backward(const Layer& l) {
  // Declared op by op, with no default, so that a new op kind fails to compile (-Wswitch, -Werror)
  // until someone states whether training can differentiate it; grouped by where the backward is.
  switch (l.op) {
    case OpKind::Input:  // nothing to differentiate
      return true;
    case OpKind::FullyConnected:  // dense.hpp; sparse (CSR) fc has no backward kernel
      return l.attrs.sparsity == 0.0;
    case OpKind::Conv2d:  // conv.hpp
    case OpKind::DepthwiseConv2d:
    case OpKind::ConvTranspose2d:
      return true;
    case OpKind::MaxPool:  // pool.hpp
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return true;
    case OpKind::Relu:  // activation.hpp
    case OpKind::Relu6:
    case OpKind::LeakyRelu:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::Softmax:
    case OpKind::HardSigmoid:
    case OpKind::Gelu:
      return true;
    case OpKind::BatchNorm:  // normalization.hpp
    case OpKind::LayerNorm:
    case OpKind::Lrn:
      return true;
    case OpKind::Flatten:  // tensor_ops.hpp
    case OpKind::Add:
    case OpKind::Mul:
    case OpKind::Concat:
    case OpKind::Dropout:
    case OpKind::Upsample:
    case OpKind::Slice:
    case OpKind::ChannelShuffle:
      return true;
    case OpKind::Lstm:  // lstm.hpp
      return true;
    case OpKind::Tokens:  // attention.hpp
    case OpKind::ClassToken:
    case OpKind::PositionEmbedding:
    case OpKind::Attention:
      return true;
  }
  return false;
}

namespace {

// Input-only gradients: one tensor for a single-input layer.
LayerGradients input_gradient(Tensor dx) {
  LayerGradients g;
  g.inputs.push_back(std::move(dx));
  return g;
}

LayerGradients with_parameters(Gradients g) {
  LayerGradients out = input_gradient(std::move(g.input));
  out.weight = std::move(g.weight);
  out.bias = std::move(g.bias);
  return out;
}

}  // namespace

LayerGradients backward_layer(const Layer& l, const std::vector<const Tensor*>& inputs, const Tensor& y,
                              const LayerWeights& w, const Tensor& dy) {
  const auto& a = l.attrs;
  if (!has_backward(l) || l.op == OpKind::Dropout || l.op == OpKind::Input)
    fail(l, "backward_layer cannot differentiate this op");
  if (l.op == OpKind::Add) {
    for (const auto* in : inputs)
      if (in == nullptr) fail(l, "missing input");
    return {add_backward(dy, inputs.size()), {}, {}, {}};
  }
  if (l.op == OpKind::Mul) {
    if (inputs.size() != 2 || !inputs[0] || !inputs[1]) fail(l, "expects 2 inputs");
    auto [da, db] = mul_backward(*inputs[0], *inputs[1], dy);
    return {{std::move(da), std::move(db)}, {}, {}, {}};
  }
  if (l.op == OpKind::Concat) {
    std::vector<Shape> shapes;
    for (const auto* in : inputs) {
      if (in == nullptr) fail(l, "missing input");
      shapes.push_back(in->shape);
    }
    return {concat_backward(dy, shapes, a.axis), {}, {}, {}};
  }
  const Tensor& x = single_input(l, inputs);
  switch (l.op) {
    case OpKind::Conv2d:
      return with_parameters(conv2d_backward(x, w.weight, a.bias, dy, conv_params(a)));
    case OpKind::DepthwiseConv2d:
      return with_parameters(depthwise_conv2d_backward(x, w.weight, a.bias, dy, conv_params(a)));
    case OpKind::ConvTranspose2d:
      return with_parameters(conv_transpose2d_backward(x, w.weight, a.bias, dy, conv_params(a)));
    case OpKind::FullyConnected:
      return with_parameters(fully_connected_backward(x, w.weight, a.bias, dy));
    case OpKind::BatchNorm:
      return with_parameters(batch_norm_backward(x, w.batch_norm, dy));
    case OpKind::LayerNorm: {
      LayerNormGradients g = layer_norm_backward(x, w.weight, static_cast<float>(a.epsilon), dy);
      LayerGradients out = input_gradient(std::move(g.input));
      out.weight = std::move(g.gamma);
      out.bias = std::move(g.beta);
      return out;
    }
    case OpKind::Gelu:
      return input_gradient(gelu_backward(x, dy));
    case OpKind::Tokens:
      return input_gradient(tokens_backward(dy, x.shape));
    case OpKind::ClassToken: {
      PrependTokenGradients g = prepend_token_backward(dy);
      LayerGradients out = input_gradient(std::move(g.input));
      out.weight = std::move(g.token);
      return out;
    }
    case OpKind::PositionEmbedding: {
      LayerGradients out = input_gradient(dy);
      out.weight = dy;
      return out;
    }
    case OpKind::Attention: {
      PackedAttentionGradients g = packed_attention_backward(x, w.weight, w.bias, a.heads, dy);
      LayerGradients out = input_gradient(std::move(g.input));
      out.weight = std::move(g.weight);
      out.bias = std::move(g.bias);
      return out;
    }
    case OpKind::MaxPool:
      return input_gradient(max_pool2d_backward(x, dy, pool_params(a)));
    case OpKind::AvgPool:
      return input_gradient(avg_pool2d_backward(x.shape, dy, pool_params(a)));
    case OpKind::GlobalAvgPool:
      return input_gradient(global_avg_pool_backward(x.shape, dy));
    case OpKind::Relu:
      return input_gradient(relu_backward(x, dy));
    case OpKind::Relu6:
      return input_gradient(relu6_backward(x, dy));
    case OpKind::LeakyRelu:
      return input_gradient(leaky_relu_backward(x, dy, static_cast<float>(a.negative_slope)));
    case OpKind::HardSigmoid:
      return input_gradient(
          hard_sigmoid_backward(x, dy, static_cast<float>(a.slope), static_cast<float>(a.offset)));
    case OpKind::Sigmoid:
      return input_gradient(sigmoid_backward(y, dy));
    case OpKind::Tanh:
      return input_gradient(tanh_backward(y, dy));
    case OpKind::Softmax:
      return input_gradient(softmax_backward(y, dy));
    case OpKind::Lrn:
      return input_gradient(lrn_backward(x, dy, a.lrn_size, static_cast<float>(a.lrn_alpha),
                                         static_cast<float>(a.lrn_beta), static_cast<float>(a.lrn_k)));
    case OpKind::Flatten:
      return input_gradient(flatten_backward(dy, x.shape));
    case OpKind::Upsample:
      return input_gradient(upsample_backward(x.shape, dy, a.scale, a.mode));
    case OpKind::Slice:
      return input_gradient(slice_backward(dy, x.shape, a.axis, a.start));
    case OpKind::ChannelShuffle:
      return input_gradient(channel_shuffle_backward(dy, a.groups));
    case OpKind::Lstm: {
      LstmGradients g = lstm_backward(x, w.lstm, a.num_layers, a.bidirectional, a.return_sequences, dy);
      LayerGradients out = input_gradient(std::move(g.input));
      out.lstm = std::move(g.cells);
      return out;
    }
    default:
      fail(l, "no backward kernel for this op");
  }
}

}  // namespace coinfer::kernels
