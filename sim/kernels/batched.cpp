#include "sim/kernels/batched.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"

namespace coinfer::kernels {
namespace {

Shape sample_shape(const Tensor& batched) { return Shape(batched.shape.begin() + 1, batched.shape.end()); }

Shape with_batch(std::int64_t batch, const Shape& sample) {
  Shape s{batch};
  s.insert(s.end(), sample.begin(), sample.end());
  return s;
}

void check_batch(const Layer& l, const std::vector<const Tensor*>& inputs, std::int64_t batch) {
  if (batch < 1) throw Error(fmt::format("layer '{}': batch must be >= 1, got {}", l.name, batch));
  for (const auto* in : inputs)
    if (in == nullptr || in->rank() < 2 || in->shape[0] != batch)
      throw Error(fmt::format("layer '{}' ({}): expected inputs of {} samples {{B, ...}}, got {}", l.name,
                              op_name(l.op), batch, in ? shape_to_string(in->shape) : "none"));
}

// Ops whose work is the same per element whatever the sample boundaries (and whose kernel takes
// any shape): one call over the whole batch.
constexpr std::array kWholeBatchOps = {OpKind::Input, OpKind::Relu,    OpKind::Relu6, OpKind::Sigmoid,
                                       OpKind::Tanh,  OpKind::Dropout, OpKind::Add,   OpKind::LeakyRelu};

bool element_wise(OpKind op) {
  return std::find(kWholeBatchOps.begin(), kWholeBatchOps.end(), op) != kWholeBatchOps.end();
}

// Pointers to each tensor of `xs`, as stack_batch takes them.
std::vector<const Tensor*> pointers(const std::vector<Tensor>& xs) {
  std::vector<const Tensor*> out;
  out.reserve(xs.size());
  for (const auto& x : xs) out.push_back(&x);
  return out;
}

// Sample by sample: each sample's slices copied out, run, and stacked into the batched output.
Tensor per_sample(const Layer& l, const std::vector<const Tensor*>& inputs, const LayerWeights& w,
                  std::int64_t batch) {
  std::vector<Tensor> ys;
  ys.reserve(static_cast<std::size_t>(batch));
  for (std::int64_t b = 0; b < batch; ++b) {
    std::vector<Tensor> slices;
    slices.reserve(inputs.size());
    for (const auto* in : inputs) slices.push_back(batch_sample(*in, b));
    ys.push_back(run_layer(l, pointers(slices), w));
  }
  return stack_batch(pointers(ys));
}

}  // namespace

Tensor batch_sample(const Tensor& batched, std::int64_t b) {
  if (batched.rank() < 1 || b < 0 || b >= batched.shape[0])
    throw Error(fmt::format("batch_sample: sample {} outside {}", b, shape_to_string(batched.shape)));
  const std::int64_t size = batched.size() / batched.shape[0];
  return Tensor(sample_shape(batched),
                std::vector<float>(batched.data.begin() + b * size, batched.data.begin() + (b + 1) * size));
}

Tensor stack_batch(const std::vector<const Tensor*>& samples) {
  if (samples.empty()) throw Error("stack_batch: no samples to stack");
  for (std::size_t n = 0; n < samples.size(); ++n)
    if (samples[n] == nullptr) throw Error(fmt::format("stack_batch: sample {} is missing (null)", n));
  for (std::size_t n = 1; n < samples.size(); ++n)
    if (samples[n]->shape != samples.front()->shape)
      throw Error(
          fmt::format("stack_batch: sample {} has shape {}, sample 0 {}; a batch holds samples of "
                      "one shape",
                      n, shape_to_string(samples[n]->shape), shape_to_string(samples.front()->shape)));
  const std::int64_t size = samples.front()->size();
  Tensor out(with_batch(static_cast<std::int64_t>(samples.size()), samples.front()->shape));
  for (std::size_t n = 0; n < samples.size(); ++n)
    std::copy(samples[n]->data.begin(), samples[n]->data.end(),
              out.data.begin() + static_cast<std::ptrdiff_t>(n) * size);
  return out;
}

Tensor fully_connected_batch(const Tensor& input, const Tensor& weight, const Tensor& bias,
                             std::int64_t batch) {
  if (input.rank() < 2 || input.shape[0] != batch)
    throw Error(
        fmt::format("fc_batch: expected {} samples {{B, ...}}, got {}", batch, shape_to_string(input.shape)));
  // A sequence sample (T, F) gives T columns, any other sample one column of all its elements:
  // the B samples become the rows of one (B*T) x F input, which fully_connected multiplies as one
  // GEMM, W (units x F) * X^T (F x B*T).
  const bool sequence = input.rank() == 3;
  const std::int64_t steps = sequence ? input.shape[1] : 1;
  const std::int64_t features = input.size() / (batch * steps);
  const std::int64_t units = weight.shape[0], columns = batch * steps;
  if (columns < kFcGemmMinColumns) {  // too few columns to pay for packing W: one GEMV each
    std::vector<Tensor> ys;
    for (std::int64_t c = 0; c < columns; ++c) {
      const Tensor x({features}, std::vector<float>(input.data.begin() + c * features,
                                                    input.data.begin() + (c + 1) * features));
      ys.push_back(fully_connected(x, weight, bias));
    }
    return stack_batch(pointers(ys)).reshaped(sequence ? Shape{batch, steps, units} : Shape{batch, units});
  }
  Tensor y = fully_connected(input.reshaped({columns, features}), weight, bias);
  return std::move(y).reshaped(sequence ? Shape{batch, steps, units} : Shape{batch, units});
}

Gradients fully_connected_batch_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                         const Tensor& grad_output, std::int64_t batch) {
  if (input.rank() < 2 || input.shape[0] != batch || grad_output.rank() < 2 || grad_output.shape[0] != batch)
    throw Error(
        fmt::format("fc_batch_backward: expected input and grad_output of {} samples {{B, ...}}, got {} "
                    "and {}",
                    batch, shape_to_string(input.shape), shape_to_string(grad_output.shape)));
  // The B samples (B*T for sequences) are the rows of one (B*T) x F matrix: fully_connected_backward's
  // sequence form, dX = dY W and dW = dY^T X, is then the batched backward, one GEMM each.
  const std::int64_t steps = input.rank() == 3 ? input.shape[1] : 1, columns = batch * steps;
  const std::int64_t features = input.size() / columns, units = grad_output.size() / columns;
  Gradients g = fully_connected_backward(input.reshaped({columns, features}), weight, has_bias,
                                         grad_output.reshaped({columns, units}));
  g.input = std::move(g.input).reshaped(input.shape);
  return g;
}

bool has_batched_backward(const Layer& l) {
  return l.op == OpKind::Conv2d || (l.op == OpKind::FullyConnected && l.attrs.sparsity == 0.0);
}

Tensor forward_layer_batch(const Layer& l, const Tensor& input, const LayerWeights& w, std::int64_t batch) {
  check_batch(l, {&input}, batch);
  if (l.op == OpKind::Conv2d)
    return conv2d_batch(input, w.weight, w.bias, conv_params(l.attrs), batch, kTrainColumnFloats);
  if (!has_batched_backward(l))
    throw Error(fmt::format("layer '{}' ({}): no batched training kernel", l.name, op_name(l.op)));
  return fully_connected_batch(input, w.weight, w.bias, batch);
}

LayerGradients backward_layer_batch(const Layer& l, const Tensor& input, const LayerWeights& w,
                                    const Tensor& grad_output, std::int64_t batch) {
  check_batch(l, {&input, &grad_output}, batch);
  Gradients g;
  if (l.op == OpKind::Conv2d)
    g = conv2d_batch_backward(input, w.weight, l.attrs.bias, grad_output, conv_params(l.attrs), batch);
  else if (has_batched_backward(l))
    g = fully_connected_batch_backward(input, w.weight, l.attrs.bias, grad_output, batch);
  else
    throw Error(fmt::format("layer '{}' ({}): no batched backward kernel", l.name, op_name(l.op)));
  LayerGradients out;
  out.inputs.push_back(std::move(g.input));
  out.weight = std::move(g.weight);
  out.bias = std::move(g.bias);
  return out;
}

Tensor run_layer_batch(const Layer& l, const std::vector<const Tensor*>& inputs, const LayerWeights& w,
                       std::int64_t batch) {
  check_batch(l, inputs, batch);
  if (element_wise(l.op)) return run_layer(l, inputs, w);
  switch (l.op) {
    case OpKind::Conv2d:
      return conv2d_batch(*inputs[0], w.weight, w.bias, conv_params(l.attrs), batch);
    case OpKind::FullyConnected:
      if (!w.sparse) return fully_connected_batch(*inputs[0], w.weight, w.bias, batch);
      break;
    case OpKind::Flatten:
      return inputs[0]->reshaped({batch, inputs[0]->size() / batch});
    default:
      break;
  }
  return per_sample(l, inputs, w, batch);
}

}  // namespace coinfer::kernels
