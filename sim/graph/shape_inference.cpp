// Shape inference: output shape, parameter count and multiply-accumulate count of every op.
//
// Conventions (documented in README, "Graph IR"):
// - Spatial output size (PyTorch / Caffe): out = floor((in + 2p - d(k-1) - 1) / s) + 1;
//   pools with ceil_mode round up, and a last window that would start in the right padding
//   is dropped (Caffe's rule).
// - Transposed conv: out = (in - 1)s - 2p + d(k-1) + output_padding + 1.
// - MACs count the multiply-accumulates of conv, depthwise, transposed conv, fc and lstm;
//   element-wise ops, pooling and normalisation count 0 (they are timed by kernels anyway).
// - Params count trainable weights: batch norm has 2C (scale, shift; running statistics are
//   buffers), an LSTM layer has 4(F H + H H + H) per direction (one bias vector per gate).
// - Every derived count is computed with overflow-checked arithmetic (CheckedInt): a size that does
//   not fit in int64 is an InputError, never a wrapped negative number. On top of that, one layer's
//   output tensor or fp32 weights may not exceed kMaxTensorBytes (2^40 bytes = 1 TiB, graph.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph.hpp"

namespace coinfer {
namespace {

using Pair = std::array<std::int64_t, 2>;
using C = CheckedInt;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw InputError("", path, message);
}

// A derived count that must fit in int64; `key` names the attribute that drives it ("" = the layer).
std::int64_t fit(C x, const char* key, const std::string& what) {
  if (!x.ok()) fail(key, what + " is out of range (does not fit in 64 bits)");
  return x.value();
}

void require_inputs(const Layer& l, std::size_t n, std::size_t got) {
  if (got != n) fail("inputs", fmt::format("expected {} input{}, got {}", n, n == 1 ? "" : "s", got));
  (void)l;
}

void require_rank(const Shape& s, std::size_t rank, const char* what) {
  if (s.size() != rank)
    fail("inputs",
         fmt::format("expected a rank-{} input ({}), got shape {}", rank, what, shape_to_string(s)));
}

void require_positive_pair(const Pair& p, const char* key) {
  if (p[0] < 1 || p[1] < 1) fail(key, fmt::format("expected positive integers, got [{},{}]", p[0], p[1]));
}

void require_non_negative_pair(const Pair& p, const char* key) {
  if (p[0] < 0 || p[1] < 0) fail(key, fmt::format("expected non-negative integers, got [{},{}]", p[0], p[1]));
}

C conv_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d) {
  return (C(in) + C(2) * p - C(d) * (C(k) - 1) - 1) / s + 1;
}

C pool_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, bool ceil_mode) {
  const C span = C(in) + C(2) * p - k;
  if (!span.ok()) return span;
  if (span.value() < 0) return 0;
  if (!ceil_mode) return span / s + 1;
  C out = (span + s - 1) / s + 1;
  if (!out.ok()) return out;
  // the last window must start inside the input or the left padding
  if (p > 0 && ((out - 1) * s).value() >= (C(in) + p).value()) out = out - 1;
  return out;
}

void check_spatial(const LayerAttrs& a, bool with_dilation) {
  require_positive_pair(a.kernel, "kernel");
  require_positive_pair(a.stride, "stride");
  require_non_negative_pair(a.padding, "padding");
  if (with_dilation) require_positive_pair(a.dilation, "dilation");
}

Shape spatial_out(const Shape& in, const LayerAttrs& a, std::int64_t channels) {
  Shape out{channels,
            fit(conv_out(in[1], a.kernel[0], a.stride[0], a.padding[0], a.dilation[0]), "", "output height"),
            fit(conv_out(in[2], a.kernel[1], a.stride[1], a.padding[1], a.dilation[1]), "", "output width")};
  if (out[1] < 1 || out[2] < 1)
    fail("kernel", fmt::format("kernel [{},{}] does not fit the padded input {}", a.kernel[0], a.kernel[1],
                               shape_to_string(in)));
  return out;
}

// Element count of the layer's output; an overflow stays marked.
C output_elements(const Layer& l) {
  const auto n = checked_shape_elements(l.output_shape);
  return n ? C(*n) : C::overflow();
}

std::string bytes_text(double bytes) { return fmt::format("{:.4g} bytes", bytes); }

// No device holds more than kMaxTensorBytes in one tensor: reject the output before anything
// (MACs, a cost model, an allocation) uses its size.
void check_output_size(const Layer& l) {
  const C bytes = output_elements(l) * dtype_bytes(l.attrs.dtype);
  if (bytes.ok() && bytes.value() <= kMaxTensorBytes) return;
  double approx = static_cast<double>(dtype_bytes(l.attrs.dtype));
  for (auto d : l.output_shape) approx *= static_cast<double>(d);
  fail("", fmt::format("output {} ({}) is out of range: one tensor may hold at most 2^40 bytes (1 TiB)",
                       shape_to_string(l.output_shape), bytes_text(approx)));
}

void check_weight_size(const Layer& l) {
  const C bytes = C(l.params) * 4;  // fp32 weights, as the host kernels hold them
  if (bytes.ok() && bytes.value() <= kMaxTensorBytes) return;
  fail("", fmt::format("weights ({} parameters, {}) are out of range: one layer may hold at most 2^40 bytes "
                       "(1 TiB)",
                       l.params, bytes_text(static_cast<double>(l.params) * 4.0)));
}

void check_sparsity(const LayerAttrs& a) {
  if (!(a.sparsity >= 0.0 && a.sparsity < 1.0))
    fail("sparsity", fmt::format("expected a value in [0, 1), got {}", a.sparsity));
}

void infer_conv2d(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 3, "C,H,W");
  check_spatial(a, true);
  check_sparsity(a);
  if (a.out_channels < 1)
    fail("out_channels", fmt::format("expected a positive integer, got {}", a.out_channels));
  if (a.groups < 1) fail("groups", fmt::format("expected a positive integer, got {}", a.groups));
  if (in[0] % a.groups || a.out_channels % a.groups)
    fail("groups", fmt::format("groups {} must divide input channels {} and out_channels {}", a.groups, in[0],
                               a.out_channels));
  l.output_shape = spatial_out(in, a, a.out_channels);
  check_output_size(l);
  const C k = C(in[0] / a.groups) * a.kernel[0] * a.kernel[1];
  l.params = fit(C(a.out_channels) * k + (a.bias ? a.out_channels : 0), "", "parameter count");
  l.macs = fit(output_elements(l) * k, "", "MAC count");
}

void infer_depthwise(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 3, "C,H,W");
  check_spatial(a, true);
  check_sparsity(a);
  if (a.multiplier < 1) fail("multiplier", fmt::format("expected a positive integer, got {}", a.multiplier));
  const std::int64_t c = fit(C(in[0]) * a.multiplier, "multiplier", "output channel count");
  l.output_shape = spatial_out(in, a, c);
  check_output_size(l);
  const C k = C(a.kernel[0]) * a.kernel[1];
  l.params = fit(C(c) * k + (a.bias ? c : 0), "", "parameter count");
  l.macs = fit(output_elements(l) * k, "", "MAC count");
}

void infer_conv_transpose(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 3, "C,H,W");
  check_spatial(a, true);
  check_sparsity(a);
  require_non_negative_pair(a.output_padding, "output_padding");
  if (a.out_channels < 1)
    fail("out_channels", fmt::format("expected a positive integer, got {}", a.out_channels));
  if (a.groups < 1 || in[0] % a.groups || a.out_channels % a.groups)
    fail("groups", fmt::format("groups {} must divide input channels {} and out_channels {}", a.groups, in[0],
                               a.out_channels));
  for (int i = 0; i < 2; ++i)
    if (a.output_padding[i] >= std::max(a.stride[i], a.dilation[i]))
      fail("output_padding", "expected output_padding smaller than stride or dilation");
  Shape out{a.out_channels, 0, 0};
  for (int i = 0; i < 2; ++i)
    out[i + 1] = fit((C(in[i + 1]) - 1) * a.stride[i] - C(2) * a.padding[i] +
                         C(a.dilation[i]) * (C(a.kernel[i]) - 1) + a.output_padding[i] + 1,
                     "", i == 0 ? "output height" : "output width");
  if (out[1] < 1 || out[2] < 1) fail("padding", fmt::format("output size {} is empty", shape_to_string(out)));
  l.output_shape = out;
  check_output_size(l);
  const C k = C(a.out_channels / a.groups) * a.kernel[0] * a.kernel[1];
  l.params = fit(C(in[0]) * k + (a.bias ? a.out_channels : 0), "", "parameter count");
  l.macs = fit(C(shape_elements(in)) * k, "", "MAC count");
}

void infer_fc(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  check_sparsity(a);
  if (a.units < 1) fail("units", fmt::format("expected a positive integer, got {}", a.units));
  if (in.size() == 2) {
    // A sequence (T, F), as `lstm` returns: the same weights at every step -> (T, units).
    if (a.sparsity > 0.0) fail("sparsity", "a sparse fc over a sequence (T,F) input is not supported");
    l.output_shape = {in[0], a.units};
    l.params = fit(C(in[1]) * a.units + (a.bias ? a.units : 0), "", "parameter count");
    l.macs = fit(C(in[0]) * in[1] * a.units, "", "MAC count");
    return;
  }
  const std::int64_t n = shape_elements(in);  // an fc layer flattens its input, as Caffe's InnerProduct
  l.output_shape = {a.units};
  l.params = fit(C(n) * a.units + (a.bias ? a.units : 0), "", "parameter count");
  l.macs = fit(C(n) * a.units, "", "MAC count");
}

void infer_pool(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 3, "C,H,W");
  check_spatial(a, false);
  for (int i = 0; i < 2; ++i)
    if (a.padding[i] > a.kernel[i] / 2) fail("padding", "expected padding at most half the kernel");
  Shape out{in[0],
            fit(pool_out(in[1], a.kernel[0], a.stride[0], a.padding[0], a.ceil_mode), "", "output height"),
            fit(pool_out(in[2], a.kernel[1], a.stride[1], a.padding[1], a.ceil_mode), "", "output width")};
  if (out[1] < 1 || out[2] < 1)
    fail("kernel", fmt::format("kernel [{},{}] does not fit the input {}", a.kernel[0], a.kernel[1],
                               shape_to_string(in)));
  l.output_shape = out;
}

void infer_lstm(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 2, "T,F");
  if (a.units < 1) fail("units", fmt::format("expected a positive integer, got {}", a.units));
  if (a.num_layers < 1) fail("num_layers", fmt::format("expected a positive integer, got {}", a.num_layers));
  const std::int64_t dirs = a.bidirectional ? 2 : 1, h = a.units;
  // The first layer reads F features, each later one the dirs * H outputs of the layer below:
  // per direction 4(F H + H H) weights (+ 4H biases), and T steps of 4(F H + H H) MACs.
  const auto per_dir = [&](C f) { return C(4) * (f * h + C(h) * h); };
  const C first = per_dir(in[1]), later = per_dir(C(dirs) * h);
  const C bias = a.bias ? C(4) * h : C(0);
  const C stack = first + later * (C(a.num_layers) - 1);
  l.params = fit(C(dirs) * (stack + bias * a.num_layers), "", "parameter count");
  l.macs = fit(C(dirs) * stack * in[0], "", "MAC count");
  const std::int64_t width = fit(C(dirs) * h, "units", "output width");
  l.output_shape = a.return_sequences ? Shape{in[0], width} : Shape{width};
}

void infer_upsample(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  require_rank(in, 3, "C,H,W");
  require_positive_pair(a.scale, "scale");
  if (a.mode != "nearest" && a.mode != "bilinear")
    fail("mode", "expected nearest or bilinear, got '" + a.mode + "'");
  l.output_shape = {in[0], fit(C(in[1]) * a.scale[0], "scale", "output height"),
                    fit(C(in[2]) * a.scale[1], "scale", "output width")};
}

void infer_add(Layer& l, const std::vector<const Shape*>& in) {
  if (in.size() < 2) fail("inputs", fmt::format("expected at least 2 inputs, got {}", in.size()));
  for (std::size_t i = 1; i < in.size(); ++i)
    if (*in[i] != *in[0])
      fail("inputs", fmt::format("add inputs have different shapes: '{}' is {}, '{}' is {}", l.inputs[0],
                                 shape_to_string(*in[0]), l.inputs[i], shape_to_string(*in[i])));
  l.output_shape = *in[0];
}

// NumPy broadcasting over inputs of one rank: each dimension equal, or 1 in all but one input.
void infer_mul(Layer& l, const std::vector<const Shape*>& in) {
  if (in.size() != 2) fail("inputs", fmt::format("expected 2 inputs, got {}", in.size()));
  const Shape &a = *in[0], &b = *in[1];
  Shape out = a;
  bool ok = a.size() == b.size();
  for (std::size_t d = 0; ok && d < a.size(); ++d) {
    ok = a[d] == b[d] || a[d] == 1 || b[d] == 1;
    out[d] = std::max(a[d], b[d]);
  }
  if (!ok)
    fail("inputs",
         fmt::format("mul inputs do not broadcast: '{}' is {}, '{}' is {} (equal ranks, each dimension "
                     "equal or 1)",
                     l.inputs[0], shape_to_string(a), l.inputs[1], shape_to_string(b)));
  l.output_shape = out;
}

void infer_concat(Layer& l, const std::vector<const Shape*>& in) {
  if (in.size() < 2) fail("inputs", fmt::format("expected at least 2 inputs, got {}", in.size()));
  const auto rank = static_cast<std::int64_t>(in[0]->size());
  if (l.attrs.axis < 0 || l.attrs.axis >= rank)
    fail("axis", fmt::format("expected an axis in [0, {}), got {}", rank, l.attrs.axis));
  Shape out = *in[0];
  for (std::size_t i = 1; i < in.size(); ++i) {
    const Shape& s = *in[i];
    bool ok = s.size() == in[0]->size();
    for (std::int64_t d = 0; ok && d < rank; ++d) ok = d == l.attrs.axis || s[d] == out[d];
    if (!ok)
      fail("inputs", fmt::format("concat inputs differ outside axis {}: '{}' is {}, '{}' is {}", l.attrs.axis,
                                 l.inputs[0], shape_to_string(*in[0]), l.inputs[i], shape_to_string(s)));
    out[l.attrs.axis] = fit(C(out[l.attrs.axis]) + s[l.attrs.axis], "inputs", "concatenated size");
  }
  l.output_shape = out;
}

void infer_single(Layer& l, const Shape& in) {
  auto& a = l.attrs;
  switch (l.op) {
    case OpKind::Conv2d:
      return infer_conv2d(l, in);
    case OpKind::DepthwiseConv2d:
      return infer_depthwise(l, in);
    case OpKind::ConvTranspose2d:
      return infer_conv_transpose(l, in);
    case OpKind::FullyConnected:
      return infer_fc(l, in);
    case OpKind::MaxPool:
    case OpKind::AvgPool:
      return infer_pool(l, in);
    case OpKind::GlobalAvgPool:
      require_rank(in, 3, "C,H,W");
      l.output_shape = {in[0], 1, 1};
      return;
    case OpKind::Flatten:
      l.output_shape = {shape_elements(in)};
      return;
    case OpKind::Lstm:
      return infer_lstm(l, in);
    case OpKind::Upsample:
      return infer_upsample(l, in);
    case OpKind::BatchNorm:
      if (in.empty()) fail("inputs", "expected an input with a channel dimension");
      l.output_shape = in;
      l.params = fit(C(2) * in[0], "", "parameter count");
      return;
    case OpKind::Lrn:
      if (a.lrn_size < 1) fail("size", fmt::format("expected a positive integer, got {}", a.lrn_size));
      if (!(a.lrn_alpha >= 0 && a.lrn_beta >= 0 && a.lrn_k > 0))
        fail("alpha", "expected alpha, beta >= 0 and k > 0");
      l.output_shape = in;
      return;
    case OpKind::Dropout:
      if (!(a.rate >= 0.0 && a.rate < 1.0))
        fail("rate", fmt::format("expected a value in [0, 1), got {}", a.rate));
      l.output_shape = in;
      return;
    case OpKind::LeakyRelu:
      if (!(a.negative_slope >= 0.0)) fail("negative_slope", "expected a non-negative number");
      l.output_shape = in;
      return;
    case OpKind::Slice: {
      if (a.axis < 0 || a.axis >= static_cast<std::int64_t>(in.size()))
        fail("axis", fmt::format("expected an axis in [0, {}), got {}", in.size(), a.axis));
      const std::int64_t dim = in[static_cast<std::size_t>(a.axis)];
      if (a.start < 0 || a.start >= a.end || a.end > dim)
        fail("start", fmt::format("expected 0 <= start < end <= {} (axis {} of {}), got [{}, {})", dim,
                                  a.axis, shape_to_string(in), a.start, a.end));
      l.output_shape = in;
      l.output_shape[static_cast<std::size_t>(a.axis)] = a.end - a.start;
      return;
    }
    case OpKind::LayerNorm: {
      if (in.empty() || in.size() > 3) fail("inputs", "expected a (C,H,W), (T,F) or (F) input");
      if (!(a.epsilon > 0.0)) fail("epsilon", fmt::format("expected a positive number, got {}", a.epsilon));
      l.output_shape = in;
      l.params = fit(C(2) * layer_norm_features(in), "", "parameter count");
      return;
    }
    case OpKind::Tokens:
      require_rank(in, 3, "C,H,W");
      l.output_shape = {fit(C(in[1]) * in[2], "", "token count"), in[0]};
      return;
    case OpKind::ClassToken:
      require_rank(in, 2, "T,F");
      l.output_shape = {fit(C(in[0]) + 1, "", "token count"), in[1]};
      l.params = in[1];
      return;
    case OpKind::PositionEmbedding:
      l.output_shape = in;
      l.params = shape_elements(in);
      return;
    case OpKind::Attention: {
      require_rank(in, 2, "T,F");
      if (a.heads < 1 || in[1] % a.heads)
        fail("heads", fmt::format("expected a positive divisor of the {} features, got {}", in[1], a.heads));
      l.output_shape = in;
      const C t(in[0]), f(in[1]);
      l.params = fit(C(4) * f * f + C(4) * f, "", "parameter count");
      l.macs = fit(C(4) * t * f * f + C(2) * t * t * f, "", "MAC count");  // projections; scores, context
      return;
    }
    case OpKind::ChannelShuffle:
      require_rank(in, 3, "C,H,W");
      if (a.groups < 1 || in[0] % a.groups)
        fail("groups",
             fmt::format("expected a positive divisor of the {} channels, got {}", in[0], a.groups));
      l.output_shape = in;
      return;
    default:
      l.output_shape = in;  // relu, relu6, sigmoid, tanh, softmax
      return;
  }
}

}  // namespace

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::Fp16:
      return "fp16";
    case DType::Int8:
      return "int8";
    default:
      return "fp32";
  }
}

std::int64_t dtype_bytes(DType t) {
  switch (t) {
    case DType::Fp16:
      return 2;
    case DType::Int8:
      return 1;
    default:
      return 4;
  }
}

std::int64_t layer_norm_features(const Shape& shape) {
  switch (shape.size()) {
    case 1:
    case 2:
      return shape.back();
    case 3:
      return shape[0];
    default:
      return 0;
  }
}

void infer_layer(Layer& l, const std::vector<const Shape*>& in) {
  l.output_shape.clear();
  l.params = 0;
  l.macs = 0;
  if (l.op == OpKind::Input) {
    require_inputs(l, 0, in.size());
    if (l.attrs.shape.empty()) fail("shape", "expected a non-empty shape");
    for (auto d : l.attrs.shape)
      if (d < 1)
        fail("shape", fmt::format("expected positive dimensions, got {}", shape_to_string(l.attrs.shape)));
    l.output_shape = l.attrs.shape;
  } else if (l.op == OpKind::Add) {
    infer_add(l, in);
  } else if (l.op == OpKind::Concat) {
    infer_concat(l, in);
  } else if (l.op == OpKind::Mul) {
    infer_mul(l, in);
  } else {
    require_inputs(l, 1, in.size());
    infer_single(l, *in[0]);
  }
  check_output_size(l);
  check_weight_size(l);
  l.output_bytes = shape_elements(l.output_shape) * dtype_bytes(l.attrs.dtype);
}

}  // namespace coinfer
