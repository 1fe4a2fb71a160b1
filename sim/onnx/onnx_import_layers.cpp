// The importer's layer mappings: convolutions, pools, dense and recurrent layers, element-wise ops
// (onnx_importer.hpp).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"
#include "sim/onnx/lstm_gates.hpp"
#include "sim/onnx/onnx_importer.hpp"
#include "sim/onnx/onnx_model_file.hpp"

namespace coinfer::onnx_import_detail {

using onnx_file::int_values;

void Importer::map_dropout(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  if (n.output_size() > 1 && !n.output(1).empty())
    fail(n, "its mask output is used; at inference coinfer reads Dropout as the identity");
  if (n.input_size() > 2 && !n.input(2).empty()) {
    const auto training = ints_of(n, 2);
    if (training.size() != 1 || training[0] != 0) fail(n, "training_mode must be false (inference)");
  }
  Layer l = layer(n, OpKind::Dropout, {in.layer});
  l.attrs.rate = opset_ >= 12 ? scalar_of(n, 1).value_or(0.5f) : float_attr(n, "ratio", 0.5);
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_pad(const onnx::NodeProto& n) {
  const Value& in = activation(n, 0);
  if (string_attr(n, "mode", "constant") != "constant") fail(n, "only constant padding is supported");
  if (auto c = scalar_of(n, 2); c && *c != 0.0f) fail(n, "only zero padding is supported");
  const std::vector<std::int64_t> pads = ints_of(n, 1);
  if (in.shape.size() != 3 || pads.size() != 8 || pads[0] || pads[1] || pads[4] || pads[5] ||
      pads[2] != pads[6] || pads[3] != pads[7] || pads[2] < 0 || pads[3] < 0 || pads[2] > kMaxPad ||
      pads[3] > kMaxPad)
    fail(n, fmt::format("pads [{}]: coinfer folds only symmetric zero padding of H and W of a [1, C, H, W] "
                        "tensor into the next Conv or AveragePool",
                        fmt::join(pads, ", ")));
  Value out = in;
  out.pad = {in.pad[0] + pads[2], in.pad[1] + pads[3]};
  values_[n.output(0)] = out;
}

void Importer::map_conv(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_2d(n, in);
  StoredArray w = weight(n, 1);
  if (w.shape.size() != 4) fail(n, "only 2-D convolutions (a 4-D weight) are supported");
  const std::int64_t group = int_attr(n, "group", 1), cin = in.shape[0], cout = w.shape[0];
  const bool depthwise = group > 1 && group == cin && w.shape[1] == 1 && cout % cin == 0;
  Layer l = layer(n, depthwise ? OpKind::DepthwiseConv2d : OpKind::Conv2d, {in.layer});
  auto& a = l.attrs;
  spatial_attrs(n, in, w, a);
  if (depthwise) {
    a.multiplier = cout / cin;
  } else {
    a.out_channels = cout;
    a.groups = group;
  }
  add_weighted(n, std::move(l), std::move(w));
}

void Importer::spatial_attrs(const onnx::NodeProto& n, const Value& in, const StoredArray& w, LayerAttrs& a) {
  a.kernel = {w.shape[2], w.shape[3]};
  if (auto k = ints_attr(n, "kernel_shape"); !k.empty() && pair(k, 0) != a.kernel)
    fail(n, "kernel_shape differs from the weight's");
  a.stride = pair(ints_attr(n, "strides"), 1);
  a.dilation = pair(ints_attr(n, "dilations"), 1);
  a.padding = spatial_pads(n, in);
}

void Importer::add_weighted(const onnx::NodeProto& n, Layer l, StoredArray w) {
  std::vector<StoredArray> arrays;  // not {std::move(w)}: an initializer list copies its elements
  arrays.push_back(std::move(w));
  l.attrs.bias = n.input_size() > 2 && !n.input(2).empty();
  if (l.attrs.bias) arrays.push_back(weight(n, 2));
  add_layer(n, std::move(l), n.output(0), std::move(arrays));
}

void Importer::map_conv_transpose(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_2d(n, in);
  require_unpadded(n, in);
  StoredArray w = weight(n, 1);
  if (w.shape.size() != 4) fail(n, "only 2-D transposed convolutions (a 4-D weight) are supported");
  if (attr(n, "output_shape")) fail(n, "output_shape is not supported; export with pads and output_padding");
  const std::int64_t group = int_attr(n, "group", 1);
  Layer l = layer(n, OpKind::ConvTranspose2d, {in.layer});
  auto& a = l.attrs;
  spatial_attrs(n, in, w, a);
  a.output_padding = pair(ints_attr(n, "output_padding"), 0);
  a.groups = group;
  a.out_channels = w.shape[1] * group;
  add_weighted(n, std::move(l), std::move(w));
}

void Importer::map_matmul(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  StoredArray w = weight(n, 1);
  const std::int64_t features = in.channels_last ? in.shape[0] : in.shape.size() == 2 ? in.shape[1] : -1;
  if ((in.shape.size() != 2 && !in.channels_last) || w.shape.size() != 2 || w.shape[0] != features)
    fail(n, fmt::format(
                "multiplies {} by {}: only a [1, T, F] sequence (an fc layer over the sequence) or a "
                "channels-last [1, H, W, C] tensor (a 1x1 convolution) by a constant [F, U] is supported",
                in.channels_last ? "a channels-last tensor" : shape_to_string(in.shape),
                shape_to_string(w.shape)));
  const std::int64_t units = w.shape[1];
  std::vector<StoredArray> arrays;
  arrays.push_back(w.transposed());  // [F, U] -> [U, F], the fc layout
  Layer l = layer(n, in.channels_last ? OpKind::Conv2d : OpKind::FullyConnected, {in.layer});
  if (in.channels_last) {
    l.attrs.out_channels = units;
    arrays[0].shape = {units, features, 1, 1};
  } else {
    l.attrs.units = units;
  }
  l.attrs.bias = false;
  std::string output = n.output(0);
  if (auto bias = fused_bias(n, units)) {
    arrays.push_back(std::move(bias->first));
    l.attrs.bias = true;
    output = bias->second;
  }
  add_layer(n, std::move(l), output, std::move(arrays), 1e-5, in.channels_last);
}

std::optional<std::pair<StoredArray, std::string>> Importer::fused_bias(const onnx::NodeProto& n,
                                                                        std::int64_t units) {
  const auto readers = consumers_.find(n.output(0));
  if (readers == consumers_.end() || readers->second.size() != 1) return std::nullopt;
  const int next = readers->second[0];
  const auto& add = model_.graph().node(next);
  const int other = add.input_size() == 2 ? (add.input(0) == n.output(0) ? 1 : 0) : -1;
  if (add.op_type() != "Add" || other < 0 || value(add.input(other)).is_activation()) return std::nullopt;
  StoredArray b = weight(add, other);
  if (shape_elements(b.shape) != units) return std::nullopt;
  b.shape = {units};
  fused_.insert(next);
  return std::pair{std::move(b), add.output(0)};
}

void Importer::map_resize(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_2d(n, in);
  require_unpadded(n, in);
  const std::string mode = string_attr(n, "mode", "nearest");
  const std::string transform = string_attr(n, "coordinate_transformation_mode", "half_pixel");
  Layer l = layer(n, OpKind::Upsample, {in.layer});
  if (mode == "nearest" && transform == "asymmetric" &&
      string_attr(n, "nearest_mode", "round_prefer_floor") == "floor")
    l.attrs.mode = "nearest";
  else if (mode == "linear" && (transform == "half_pixel" || transform == "pytorch_half_pixel"))
    l.attrs.mode = "bilinear";
  else
    fail(n,
         fmt::format("mode {} with coordinate_transformation_mode {}: coinfer upsamples nearest (asymmetric, "
                     "nearest_mode floor) or linear (half_pixel / pytorch_half_pixel)",
                     mode, transform));
  std::vector<double> factor;
  if (n.input_size() > 2 && !n.input(2).empty() && constant(n, 2) &&
      onnx_file::dims_of(*constant(n, 2)) != Shape{0}) {
    std::vector<float> scales;
    try {
      scales = onnx_file::float_values(*constant(n, 2), dir_);
    } catch (const InputError& e) {
      fail(n, e.path() + ": " + e.message());
    }
    factor.assign(scales.begin(), scales.end());
  } else if (n.input_size() > 3 && !n.input(3).empty()) {
    const auto sizes = ints_of(n, 3);
    Shape dims{1};
    dims.insert(dims.end(), in.shape.begin(), in.shape.end());
    for (std::size_t i = 0; i < sizes.size() && i < dims.size(); ++i)
      factor.push_back(static_cast<double>(sizes[i]) / static_cast<double>(dims[i]));
  }
  const auto whole = [](double x) { return x >= 1.0 && x <= 1 << 20 && x == std::floor(x); };
  if (factor.size() != 4 || factor[0] != 1.0 || factor[1] != 1.0 || !whole(factor[2]) || !whole(factor[3]))
    fail(n, "only whole scale factors of H and W (scales [1, 1, sh, sw]) are supported");
  l.attrs.scale = {static_cast<std::int64_t>(factor[2]), static_cast<std::int64_t>(factor[3])};
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_lstm(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  if (int_attr(n, "layout", 0) != 1 || in.shape.size() != 2)
    fail(n, fmt::format("expects layout 1 (batch first) over a [1, T, F] input, got layout {} over {}",
                        int_attr(n, "layout", 0), shape_to_string(in.shape)));
  const std::string direction = string_attr(n, "direction", "forward");
  if (direction != "forward" && direction != "bidirectional")
    fail(n, "direction reverse is not supported (forward or bidirectional)");
  if (attr(n, "activations") || attr(n, "clip") || int_attr(n, "input_forget", 0) != 0)
    fail(n,
         "only the default gates (sigmoid, tanh, tanh), no clip and no coupled input-forget are supported");
  for (int i = 4; i < n.input_size(); ++i)
    if (!n.input(i).empty()) fail(n, "sequence_lens, initial states and peepholes are not supported");
  const auto used = [&](int k) {
    return n.output_size() > k && !n.output(k).empty() && consumers_.count(n.output(k));
  };
  if (used(2)) fail(n, "its cell state Y_c is read; coinfer's lstm returns the hidden state");
  if (used(0) == used(1))
    fail(n, "coinfer's lstm returns the sequence Y or the last state Y_h: exactly one of them must be read");
  const std::int64_t h = int_attr(n, "hidden_size", 0), dirs = direction == "bidirectional" ? 2 : 1;
  const std::vector<float> wx = weight(n, 1).values(), wh = weight(n, 2).values();
  const bool bias = n.input_size() > 3 && !n.input(3).empty();
  const std::vector<float> b = bias ? weight(n, 3).values() : std::vector<float>{};
  const std::int64_t f = in.shape[1];
  const auto holds = [](const std::vector<float>& v, CheckedInt n) {
    return n.ok() && static_cast<std::int64_t>(v.size()) == n.value();
  };
  const CheckedInt gates = CheckedInt(dirs) * 4 * h;  // overflow-checked: h is the file's
  if (h < 1 || !holds(wx, gates * f) || !holds(wh, gates * h) || (bias && !holds(b, gates * 2)))
    fail(n, fmt::format(
                "W, R and B do not hold the weights of {} direction(s) of hidden size {} over {} features",
                dirs, h, f));
  Layer l = layer(n, OpKind::Lstm, {in.layer});
  l.attrs.units = h;
  l.attrs.bidirectional = dirs == 2;
  l.attrs.bias = bias;
  l.attrs.return_sequences = used(0);
  // ONNX's gate blocks in PyTorch's order; B = [Wb, Rb] sums to one bias.
  const auto torch_order = [&](const float* from, std::int64_t width) {
    return onnx_lstm::reorder_gates(from, h, width, onnx_lstm::kTorchFromOnnx);
  };
  std::vector<StoredArray> arrays;
  for (std::int64_t d = 0; d < dirs; ++d) {
    arrays.push_back(StoredArray::of({4 * h, f}, torch_order(wx.data() + d * 4 * h * f, f)));
    arrays.push_back(StoredArray::of({4 * h, h}, torch_order(wh.data() + d * 4 * h * h, h)));
    if (bias) {
      std::vector<float> sum = torch_order(b.data() + d * 8 * h, 1);
      const std::vector<float> r = torch_order(b.data() + d * 8 * h + 4 * h, 1);
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += r[i];
      arrays.push_back(StoredArray::of({4 * h}, sum));
    }
  }
  const std::string output = l.attrs.return_sequences ? n.output(0) : n.output(1);
  onnx_shapes_.erase(output);  // ONNX's [1, T, dirs, H] is checked at the Reshape that reads it
  add_layer(n, std::move(l), output, std::move(arrays));
  values_[output].lstm_output = true;
}

void Importer::map_gemm(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  if (int_attr(n, "transA", 0) != 0 || float_attr(n, "alpha", 1.0) != 1.0 ||
      float_attr(n, "beta", 1.0) != 1.0)
    fail(n, "only Gemm with transA = 0, alpha = beta = 1 (a fully connected layer) is supported");
  if (in.shape.size() != 1) fail(n, fmt::format("expects a [1, K] input, got {}", shape_to_string(in.shape)));
  StoredArray w = weight(n, 1);
  if (w.shape.size() != 2) fail(n, "expects a 2-D weight");
  if (int_attr(n, "transB", 0) == 0) w = w.transposed();  // [K, N] -> [N, K], the fc layout
  Layer l = layer(n, OpKind::FullyConnected, {in.layer});
  l.attrs.units = w.shape[0];
  std::vector<StoredArray> arrays;  // not {std::move(w)}: an initializer list copies its elements
  arrays.push_back(std::move(w));
  l.attrs.bias = n.input_size() > 2 && !n.input(2).empty();
  if (l.attrs.bias) {
    StoredArray b = weight(n, 2);
    if (shape_elements(b.shape) != l.attrs.units)
      fail(n, fmt::format("bias {} does not broadcast as one value per output", shape_to_string(b.shape)));
    b.shape = {l.attrs.units};
    arrays.push_back(std::move(b));
  }
  add_layer(n, std::move(l), n.output(0), std::move(arrays));
}

void Importer::map_pool(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_2d(n, in);
  const bool avg = n.op_type() == "AveragePool";
  if (!avg) require_unpadded(n, in);
  if (n.output_size() > 1 && !n.output(1).empty()) fail(n, "its indices output is not supported");
  for (auto d : ints_attr(n, "dilations"))
    if (d != 1) fail(n, "dilated pooling is not supported");
  if (int_attr(n, "storage_order", 0) != 0) fail(n, "storage_order 1 is not supported");
  Layer l = layer(n, avg ? OpKind::AvgPool : OpKind::MaxPool, {in.layer});
  auto& a = l.attrs;
  a.kernel = pair(ints_attr(n, "kernel_shape"), 0);
  a.stride = pair(ints_attr(n, "strides"), 1);
  const auto own = spatial_pads(n, Value{});
  a.padding = spatial_pads(n, in);
  a.ceil_mode = int_attr(n, "ceil_mode", 0) != 0;
  if (avg && (own[0] || own[1]) && int_attr(n, "count_include_pad", 0) == 0)
    fail(n,
         "padding excluded from the average (count_include_pad = 0) is not supported; coinfer counts "
         "padded zeros, as PyTorch's default");
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_global_pool(const onnx::NodeProto& n, bool keepdims) {
  const Value in = activation(n, 0);
  require_2d(n, in);
  require_unpadded(n, in);
  Layer l = layer(n, OpKind::GlobalAvgPool, {in.layer});
  if (keepdims) return add_layer(n, std::move(l), n.output(0));
  const std::string pooled = l.name;
  add_layer(n, std::move(l), n.output(0) + "/pooled");
  Layer f = layer(n, OpKind::Flatten, {pooled});
  f.name = layer_name(n);
  add_layer(n, std::move(f), n.output(0));
}

void Importer::map_reduce_mean(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  std::vector<std::int64_t> axes = ints_attr(n, "axes");
  for (auto& x : axes)
    if (x < 0) x += 4;
  std::sort(axes.begin(), axes.end());
  if (in.shape.size() != 3 || axes != std::vector<std::int64_t>{2, 3})
    fail(n, "only a mean over H and W of a [1, C, H, W] tensor (global average pooling) is supported");
  map_global_pool(n, int_attr(n, "keepdims", 1) != 0);
}

void Importer::map_flatten(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  if (const auto axis = int_attr(n, "axis", 1); axis != 1 && !(axis == 0 && in.shape.size() >= 1))
    fail(n, fmt::format("Flatten axis {}: only axis 1 (keep the batch) is supported", axis));
  add_layer(n, layer(n, OpKind::Flatten, {in.layer}), n.output(0));
}

bool Importer::map_channel_shuffle(const onnx::NodeProto& n, const Value& in,
                                   const std::vector<std::int64_t>& target) {
  const Shape& x = in.shape;
  if (x.size() != 3 || target.size() != 5 || target[0] != 1 || target[1] < 1 || target[2] < 1 ||
      checked_mul(target[1], target[2]) != x[0] || target[3] != x[1] || target[4] != x[2])
    return false;
  const int t = sole_reader(n.output(0), "Transpose");
  if (t < 0) return false;
  const auto& transpose = model_.graph().node(t);
  if (ints_attr(transpose, "perm") != std::vector<std::int64_t>{0, 2, 1, 3, 4}) return false;
  const int r = sole_reader(transpose.output(0), "Reshape");
  if (r < 0) return false;
  const auto& back = model_.graph().node(r);
  const Shape swapped{1, target[2], target[1], x[1], x[2]};
  if (reshape_target(back, swapped) != std::vector<std::int64_t>{1, x[0], x[1], x[2]}) return false;
  Layer l = layer(back, OpKind::ChannelShuffle, {in.layer});
  l.attrs.groups = target[1];
  fused_.insert(t);
  fused_.insert(r);
  add_layer(n, std::move(l), back.output(0));
  return true;
}

void Importer::map_reshape(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  const std::int64_t count = shape_elements(in.shape);
  Shape dims{1};
  dims.insert(dims.end(), in.shape.begin(), in.shape.end());
  const std::vector<std::int64_t> target = reshape_target(n, dims);
  if (map_channel_shuffle(n, in, target)) return;
  if (map_tokens(n, in, target)) return;
  if (target == dims) {
    Value out = in;
    out.lstm_output = false;
    values_[n.output(0)] = out;
    return;
  }
  if (in.lstm_output)
    fail(n, fmt::format("reshapes an LSTM output to [{}]; coinfer reads Y as [1, T, directions * hidden] and "
                        "Y_h as [1, directions * hidden]",
                        fmt::join(target, ", ")));
  // An fc layer flattens its input itself: a flatten of a (C, H, W) tensor that only Gemms read folds
  // into them (coinfer's export writes an fc over (C, H, W) so).
  if (target == std::vector<std::int64_t>{1, count} && in.shape.size() >= 3 &&
      only_read_by(n.output(0), "Gemm")) {
    values_[n.output(0)] = Value{in.layer, {count}, {0, 0}, nullptr};
    return;
  }
  if (target == std::vector<std::int64_t>{1, count})
    return add_layer(n, layer(n, OpKind::Flatten, {in.layer}), n.output(0));
  fail(n, fmt::format("reshaping {} to [{}]: only flattening to [1, N] is supported", shape_to_string(dims),
                      fmt::join(target, ", ")));
}

void Importer::map_slice(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  const auto rank = static_cast<std::int64_t>(in.shape.size()) + 1;
  const std::vector<std::int64_t> starts = ints_of(n, 1), ends = ints_of(n, 2);
  std::vector<std::int64_t> axes =
      n.input_size() > 3 && !n.input(3).empty() ? ints_of(n, 3) : std::vector<std::int64_t>{0};
  const std::vector<std::int64_t> steps =
      n.input_size() > 4 && !n.input(4).empty() ? ints_of(n, 4) : std::vector<std::int64_t>{1};
  if (starts.size() != 1 || ends.size() != 1 || axes.size() != 1 || steps != std::vector<std::int64_t>{1})
    fail(n, "only a slice of one axis with step 1 is supported");
  std::int64_t axis = axes[0] < 0 ? axes[0] + rank : axes[0];
  if (axis < 1 || axis >= rank)
    fail(n, fmt::format("slices axis {}: coinfer slices an axis other than the batch", axes[0]));
  const std::int64_t dim = in.shape[static_cast<std::size_t>(axis - 1)];
  const auto clamp = [dim](std::int64_t v) { return std::clamp(v < 0 ? v + dim : v, std::int64_t{0}, dim); };
  const std::int64_t start = clamp(starts[0]), end = clamp(ends[0]);
  if (start >= end)
    fail(n, fmt::format("slices [{}, {}) of an axis of {}: an empty tensor", starts[0], ends[0], dim));
  if (start == 0 && end == dim) return alias(n, n.input(0));
  Layer l = layer(n, OpKind::Slice, {in.layer});
  l.attrs.axis = axis - 1;
  l.attrs.start = start;
  l.attrs.end = end;
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_batch_norm(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  if (int_attr(n, "training_mode", 0) != 0 || n.output_size() > 1)
    fail(n, "training-mode batch normalisation is not supported; export the model in eval mode");
  std::vector<StoredArray> arrays;
  for (int i = 1; i <= 4; ++i) arrays.push_back(weight(n, i));
  add_layer(n, layer(n, OpKind::BatchNorm, {in.layer}), n.output(0), std::move(arrays),
            float_attr(n, "epsilon", 1e-5));
}

void Importer::map_add(const onnx::NodeProto& n) {
  if (n.input_size() == 2 && (!value(n.input(0)).is_activation() || !value(n.input(1)).is_activation()))
    return map_position_embedding(n);
  std::vector<std::string> inputs;
  const Value first = activation(n, 0);
  for (int i = 0; i < n.input_size(); ++i) {
    const Value v = activation(n, i);
    require_unpadded(n, v);
    if (v.channels_last != first.channels_last)
      fail(n, "adds a channels-last [1, H, W, C] tensor to a [1, C, H, W] one");
    if (v.shape != first.shape)
      fail(n, fmt::format("adds {} and {}: only equal shapes (a residual add) are supported",
                          shape_to_string(first.shape), shape_to_string(v.shape)));
    inputs.push_back(v.layer);
  }
  if (inputs.size() == 1) return alias(n, n.input(0));
  add_layer(n, layer(n, OpKind::Add, inputs), n.output(0), {}, 1e-5, first.channels_last);
}

void Importer::map_mul(const onnx::NodeProto& n) {
  if (n.input_size() == 2 && (!value(n.input(0)).is_activation() || !value(n.input(1)).is_activation()))
    return map_channel_scale(n);
  const Value a = activation(n, 0), b = activation(n, 1);
  require_unpadded(n, a);
  require_unpadded(n, b);
  add_layer(n, layer(n, OpKind::Mul, {a.layer, b.layer}), n.output(0));
}

void Importer::map_concat(const onnx::NodeProto& n) {
  for (int i = 0; i < n.input_size(); ++i)
    if (!value(n.input(i)).is_activation()) return map_class_token(n);
  std::vector<std::string> inputs;
  std::size_t rank = 0;
  for (int i = 0; i < n.input_size(); ++i) {
    const Value& v = activation(n, i);
    require_unpadded(n, v);
    inputs.push_back(v.layer);
    rank = v.shape.size() + 1;
  }
  auto axis = int_attr(n, "axis", 1);
  if (axis < 0) axis += static_cast<std::int64_t>(rank);
  if (axis < 1 || axis >= static_cast<std::int64_t>(rank))
    fail(n, fmt::format("Concat axis {}: coinfer concatenates along an axis other than the batch", axis));
  if (inputs.size() == 1) return alias(n, n.input(0));  // DenseNet's first layer concatenates one tensor
  Layer l = layer(n, OpKind::Concat, inputs);
  l.attrs.axis = axis - 1;
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_clip(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  const auto lo = scalar_of(n, 1), hi = scalar_of(n, 2);
  if (lo && *lo == 0.0f && hi && *hi == 6.0f)
    return add_layer(n, layer(n, OpKind::Relu6, {in.layer}), n.output(0));
  if (lo && *lo == 0.0f && !hi) return add_layer(n, layer(n, OpKind::Relu, {in.layer}), n.output(0));
  fail(n, fmt::format("Clip to [{}, {}]: only [0, 6] (relu6) and [0, inf) (relu) are supported",
                      lo ? fmt::format("{}", *lo) : "-inf", hi ? fmt::format("{}", *hi) : "inf"));
}

void Importer::map_lrn(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  Layer l = layer(n, OpKind::Lrn, {in.layer});
  l.attrs.lrn_size = int_attr(n, "size", 0);
  l.attrs.lrn_alpha = float_attr(n, "alpha", 1e-4);
  l.attrs.lrn_beta = float_attr(n, "beta", 0.75);
  l.attrs.lrn_k = float_attr(n, "bias", 1.0);
  add_layer(n, std::move(l), n.output(0));
}

void Importer::map_softmax(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  // coinfer's softmax normalises the feature axis: the channels of [1, C, H, W], the last axis of
  // [1, N] and [1, T, F]. Before opset 13 Softmax flattened the trailing axes, which agrees for [1, N].
  const auto rank = static_cast<std::int64_t>(in.shape.size()) + 1;
  auto axis = int_attr(n, "axis", opset_ >= 13 ? -1 : 1);
  if (axis < 0) axis += rank;
  const std::int64_t feature = rank == 4 ? 1 : rank - 1;
  if (axis != feature || rank > 4 || (opset_ < 13 && rank != 2))
    fail(n,
         fmt::format("softmax over axis {} of a rank-{} tensor: coinfer normalises the channels of [1, C, H, "
                     "W] and the last axis of [1, N] or [1, T, F] (opset 13 on; before it, [1, N] only)",
                     axis, rank));
  add_layer(n, layer(n, OpKind::Softmax, {in.layer}), n.output(0));
}

void Importer::map_unary(const onnx::NodeProto& n, OpKind op) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  add_layer(n, layer(n, op, {in.layer}), n.output(0));
}

}  // namespace coinfer::onnx_import_detail
