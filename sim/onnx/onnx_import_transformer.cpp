// The importer's transformer mappings: PyTorch's decomposed LayerNorm, GELU and attention, ConvNeXt's
// channels-last view and ViT's tokens (onnx_importer.hpp, onnx_patterns.hpp).
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

Importer::TensorAndConstant Importer::tensor_and_constant(const onnx::NodeProto& n) {
  const int k = value(n.input(0)).is_activation() ? 1 : 0;
  const Value in = activation(n, 1 - k);
  require_unpadded(n, in);
  StoredArray c = weight(n, k);
  Shape dims = c.shape;
  if (!dims.empty() && dims[0] == 1 && dims.size() == in.shape.size() + 1) dims.erase(dims.begin());
  return {in, std::move(c), std::move(dims)};
}

void Importer::per_feature(const onnx::NodeProto& n, std::vector<StoredArray>& arrays, std::int64_t f) {
  for (auto& a : arrays) {
    if (shape_elements(a.shape) != f)
      fail(n, fmt::format("scale and shift {} do not hold one value per feature ({})",
                          shape_to_string(a.shape), f));
    a.shape = {f};
  }
}

void Importer::map_channel_scale(const onnx::NodeProto& n) {
  auto [in, w, dims] = tensor_and_constant(n);
  if (in.shape.size() != 3 || dims != Shape{in.shape[0], 1, 1})
    fail(n, fmt::format("multiplies {} by a constant {}: only a [1, C, H, W] tensor by one value per channel "
                        "[C, 1, 1] (a layer scale) is supported",
                        shape_to_string(in.shape), shape_to_string(w.shape)));
  w.shape = {in.shape[0], 1, 1, 1};
  Layer l = layer(n, OpKind::DepthwiseConv2d, {in.layer});
  l.attrs.bias = false;
  std::vector<StoredArray> arrays;
  arrays.push_back(std::move(w));
  add_layer(n, std::move(l), n.output(0), std::move(arrays));
}

onnx_patterns::GraphView Importer::view() {
  return {model_.graph(), consumers_,
          [this](const std::string& name) -> std::optional<float> {
            auto it = values_.find(name);
            if (it == values_.end() || it->second.is_activation() ||
                it->second.constant->data_type() != onnx::TensorProto_DataType_FLOAT)
              return std::nullopt;
            try {
              const auto v = onnx_file::float_values(*it->second.constant, dir_);
              if (v.size() == 1) return v[0];
            } catch (const InputError&) {  // the node that reads it reports the tensor
            }
            return std::nullopt;
          },
          [this](const std::string& name) {
            auto it = values_.find(name);
            return it != values_.end() && !it->second.is_activation();
          }};
}

void Importer::map_layer_norm(const onnx::NodeProto& n, const onnx_patterns::LayerNorm& m) {
  const Value in = value(m.input);
  if (!in.is_activation()) fail(n, "normalises a constant; coinfer expects a computed tensor");
  require_unpadded(n, in);
  if (in.shape.size() == 3 && !in.channels_last)
    fail(n,
         "LayerNorm over the last axis (W) of a [1, C, H, W] tensor: coinfer normalises the channels "
         "(after a Transpose (0, 2, 3, 1), as ConvNeXt) or the features of [1, T, F] and [1, F]");
  const auto& g = model_.graph();
  const onnx::NodeProto& mul = g.node(m.nodes[7]);
  const onnx::NodeProto& add = g.node(m.nodes[8]);
  node_index_ = m.nodes[8];
  Layer l = layer(add, OpKind::LayerNorm, {in.layer});
  l.attrs.epsilon = m.epsilon;
  std::vector<StoredArray> arrays;
  arrays.push_back(weight(mul, input_index(mul, m.scale)));
  arrays.push_back(weight(add, input_index(add, m.shift)));
  const std::int64_t f = layer_norm_features(in.shape);
  per_feature(add, arrays, f);
  for (int i : m.nodes) fused_.insert(i);
  add_layer(add, std::move(l), m.output, std::move(arrays), 1e-5, in.channels_last);
}

void Importer::map_layer_normalization(const onnx::NodeProto& n) {
  const Value in = value(n.input(0));
  if (!in.is_activation()) fail(n, "normalises a constant; coinfer expects a computed tensor");
  require_unpadded(n, in);
  const auto rank = static_cast<std::int64_t>(in.shape.size()) + 1;
  if (const auto axis = int_attr(n, "axis", -1); axis != -1 && axis != rank - 1)
    fail(n, fmt::format("axis {}: coinfer normalises the last axis only", axis));
  if ((in.shape.size() == 3 && !in.channels_last) || n.input_size() < 3 || n.input(2).empty() ||
      (n.output_size() > 1 && consumers_.count(n.output(1))) ||
      (n.output_size() > 2 && consumers_.count(n.output(2))))
    fail(n,
         "coinfer normalises the channels of a channels-last [1, H, W, C] tensor or the features of "
         "[1, T, F] and [1, F], with a scale and a bias, and returns only Y");
  Layer l = layer(n, OpKind::LayerNorm, {in.layer});
  l.attrs.epsilon = float_attr(n, "epsilon", 1e-5);
  std::vector<StoredArray> arrays;
  arrays.push_back(weight(n, 1));
  arrays.push_back(weight(n, 2));
  const std::int64_t f = layer_norm_features(in.shape);
  per_feature(n, arrays, f);
  add_layer(n, std::move(l), n.output(0), std::move(arrays), 1e-5, in.channels_last);
}

void Importer::map_gelu(const onnx::NodeProto& n, const onnx_patterns::Gelu& m) {
  const Value in = value(m.input);
  if (!in.is_activation()) fail(n, "GELU of a constant; coinfer expects a computed tensor");
  require_unpadded(n, in);
  const onnx::NodeProto& last = model_.graph().node(m.nodes.back());
  node_index_ = m.nodes.back();
  for (int i : m.nodes) fused_.insert(i);
  add_layer(last, layer(last, OpKind::Gelu, {in.layer}), m.output, {}, 1e-5, in.channels_last);
}

void Importer::map_transpose(const onnx::NodeProto& n) {
  const Value& in = activation(n, 0);
  const std::vector<std::int64_t> perm = ints_attr(n, "perm");
  if (perm == std::vector<std::int64_t>{1, 0, 2} && in.shape.size() == 2)
    if (auto m = onnx_patterns::attention_at(view(), node_index_)) return begin_attention(n, *m);
  const bool to_last = perm == std::vector<std::int64_t>{0, 2, 3, 1} && !in.channels_last;
  const bool to_first = perm == std::vector<std::int64_t>{0, 3, 1, 2} && in.channels_last;
  if (in.shape.size() != 3 || !(to_last || to_first))
    fail(n, fmt::format("perm ({}) of {}: coinfer maps Transpose (0, 2, 3, 1) of [1, C, H, W] to channels "
                        "last and (0, 3, 1, 2) back (ConvNeXt), and ShuffleNet's channel shuffle (Reshape "
                        "[1, g, C/g, H, W], Transpose (0, 2, 1, 3, 4), Reshape back), and the Transposes of "
                        "PyTorch's nn.MultiheadAttention and ViT's patch tokens",
                        fmt::join(perm, ", "),
                        in.channels_last ? "a channels-last tensor" : shape_to_string(in.shape)));
  require_unpadded(n, in);
  Value out = in;
  out.channels_last = to_last;
  values_[n.output(0)] = out;
}

void Importer::begin_attention(const onnx::NodeProto& n, const onnx_patterns::Attention& m) {
  const Value in = activation(n, 0);
  require_unpadded(n, in);
  for (int i : m.inner_nodes()) fused_.insert(i);
  Value packed = in;
  packed.onnx_dims = {in.shape[0], 1, 3 * in.shape[1]};
  values_[m.packed] = packed;
  attention_ends_[m.transpose_back] = m;
}

void Importer::map_attention(const onnx::NodeProto& last, const onnx_patterns::Attention& m) {
  const auto& g = model_.graph();
  const Value in = value(m.input);
  const std::int64_t t = in.shape[0], f = in.shape[1];
  const auto at = [&](int i) -> const onnx::NodeProto& {
    node_index_ = i;
    return g.node(i);
  };
  // q, k, v: Slices [0, F), [F, 2F), [2F, 3F) of the last axis, each Reshape [T, H, d].
  std::int64_t heads = 0;
  for (std::int64_t k = 0; k < 3; ++k) {
    const auto& slice = at(m.slices[static_cast<std::size_t>(k)]);
    const auto starts = ints_of(slice, 1), ends = ints_of(slice, 2);
    const auto axes =
        slice.input_size() > 3 && !slice.input(3).empty() ? ints_of(slice, 3) : std::vector<std::int64_t>{0};
    const bool steps = slice.input_size() > 4 && !slice.input(4).empty() &&
                       ints_of(slice, 4) != std::vector<std::int64_t>{1};
    if (starts != std::vector<std::int64_t>{k * f} || ends != std::vector<std::int64_t>{(k + 1) * f} ||
        (axes != std::vector<std::int64_t>{-1} && axes != std::vector<std::int64_t>{2}) || steps)
      fail(slice,
           fmt::format("attention: expected the {} slice [{}, {}) of the last axis of the packed q, k, v",
                       "qkv"[k], k * f, (k + 1) * f));
    const auto& reshape = at(m.reshapes[static_cast<std::size_t>(k)]);
    const auto target = reshape_target(reshape, {t, 1, f});
    if (target.size() != 3 || target[0] != t || target[1] < 1 || f % target[1] ||
        target[1] * target[2] != f || (heads && target[1] != heads))
      fail(reshape, fmt::format("attention: expected the heads split [{}, H, {} / H], got [{}]", t, f,
                                fmt::join(target, ", ")));
    heads = target[1];
  }
  const std::int64_t d = f / heads;
  const auto& div = at(m.scale);
  if (const auto s = scalar_of(div, 1); !s || std::abs(*s - std::sqrt(static_cast<float>(d))) > 1e-5f * *s)
    fail(div, fmt::format("attention: expected q scaled by 1 / sqrt({}) (Div by {})", d,
                          std::sqrt(static_cast<double>(d))));
  const auto& softmax = at(m.softmax);
  if (const auto axis = int_attr(softmax, "axis", -1); axis != -1 && axis != 2)
    fail(softmax, "attention: expected the softmax over the keys (the last axis)");
  const auto& rows = at(m.reshape_out);
  if (reshape_target(rows, {t, heads, d}) != std::vector<std::int64_t>{t, f})
    fail(rows, fmt::format("attention: expected the heads merged to [{}, {}]", t, f));
  const auto& back = at(m.reshape_back);
  if (reshape_target(back, {t, f}) != std::vector<std::int64_t>{t, 1, f})
    fail(back, fmt::format("attention: expected [{}, {}] reshaped to [{}, 1, {}]", t, f, t, f));
  // Weights: in_proj [F, 3F] (MatMul) as PyTorch's [3F, F], then out_proj [F, F] (Gemm, transB).
  const auto& gemm = at(m.out_proj);
  if (int_attr(gemm, "transB", 0) != 1 || int_attr(gemm, "transA", 0) != 0 ||
      float_attr(gemm, "alpha", 1.0) != 1.0 || float_attr(gemm, "beta", 1.0) != 1.0 || gemm.input_size() < 3)
    fail(gemm, "attention: expected the output projection as Gemm with transB = 1 and a bias");
  StoredArray in_w = weight(at(m.in_proj), 1);
  const StoredArray in_b = weight(
      at(m.in_bias), input_index(g.node(m.in_bias), g.node(m.in_bias).input(0) == g.node(m.in_proj).output(0)
                                                        ? g.node(m.in_bias).input(1)
                                                        : g.node(m.in_bias).input(0)));
  const StoredArray out_w = weight(gemm, 1), out_b = weight(gemm, 2);
  node_index_ = m.transpose_back;
  if (in_w.shape != Shape{f, 3 * f} || shape_elements(in_b.shape) != 3 * f || out_w.shape != Shape{f, f} ||
      shape_elements(out_b.shape) != f)
    fail(last, fmt::format(
                   "attention: expected projections [{0}, {1}] + [{1}] and [{0}, {0}] + [{0}], got {2} + {3} "
                   "and {4} + {5}",
                   f, 3 * f, shape_to_string(in_w.shape), shape_to_string(in_b.shape),
                   shape_to_string(out_w.shape), shape_to_string(out_b.shape)));
  std::vector<float> packed_w = in_w.transposed().values(), packed_b = in_b.values();
  const std::vector<float> ow = out_w.values(), ob = out_b.values();
  packed_w.insert(packed_w.end(), ow.begin(), ow.end());
  packed_b.insert(packed_b.end(), ob.begin(), ob.end());
  std::vector<StoredArray> arrays;
  arrays.push_back(StoredArray::of({4 * f, f}, packed_w));
  arrays.push_back(StoredArray::of({4 * f}, packed_b));
  Layer l = layer(last, OpKind::Attention, {in.layer});
  l.attrs.heads = heads;
  add_layer(last, std::move(l), m.output, std::move(arrays));
}

bool Importer::map_tokens(const onnx::NodeProto& n, const Value& in,
                          const std::vector<std::int64_t>& target) {
  const Shape& x = in.shape;
  if (x.size() != 3 || target != std::vector<std::int64_t>{1, x[0], x[1] * x[2]}) return false;
  const int t = sole_reader(n.output(0), "Transpose");
  if (t < 0 || ints_attr(model_.graph().node(t), "perm") != std::vector<std::int64_t>{0, 2, 1}) return false;
  fused_.insert(t);
  add_layer(n, layer(model_.graph().node(t), OpKind::Tokens, {in.layer}), model_.graph().node(t).output(0));
  return true;
}

void Importer::map_class_token(const onnx::NodeProto& n) {
  if (n.input_size() != 2 || value(n.input(0)).is_activation() || int_attr(n, "axis", 0) != 1)
    fail(n,
         "a Concat with a constant is supported as a class token only: a constant [1, 1, F] before a "
         "[1, T, F] sequence, axis 1");
  const Value in = activation(n, 1);
  StoredArray token = weight(n, 0);
  if (in.shape.size() != 2 || token.shape != Shape{1, 1, in.shape[1]})
    fail(n, fmt::format("a class token {} before {}: expected [1, 1, F] before [1, T, F]",
                        shape_to_string(token.shape), shape_to_string(in.shape)));
  token.shape = {in.shape[1]};
  std::vector<StoredArray> arrays;
  arrays.push_back(std::move(token));
  add_layer(n, layer(n, OpKind::ClassToken, {in.layer}), n.output(0), std::move(arrays));
}

void Importer::map_position_embedding(const onnx::NodeProto& n) {
  auto [in, e, dims] = tensor_and_constant(n);
  if (dims != in.shape)
    fail(n, fmt::format("adds a constant {} to {}: only a constant of the tensor's own shape (a position "
                        "embedding) is supported",
                        shape_to_string(e.shape), shape_to_string(in.shape)));
  e.shape = in.shape;
  std::vector<StoredArray> arrays;
  arrays.push_back(std::move(e));
  add_layer(n, layer(n, OpKind::PositionEmbedding, {in.layer}), n.output(0), std::move(arrays));
}

void Importer::map_gather(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  const auto index = ints_of(n, 1);
  const bool scalar = constant(n, 1) && constant(n, 1)->dims_size() == 0;
  if (in.shape.size() != 2 || int_attr(n, "axis", 0) != 1 || index.size() != 1 || !scalar)
    fail(n,
         "supported on integer constants (shape arithmetic, which folds away) and as one step of a "
         "[1, T, F] sequence (axis 1, a scalar index)");
  const std::int64_t i = index[0] < 0 ? index[0] + in.shape[0] : index[0];
  if (i < 0 || i >= in.shape[0])
    fail(n, fmt::format("index {} is outside the {} steps", index[0], in.shape[0]));
  Layer s = layer(n, OpKind::Slice, {in.layer});
  s.attrs.axis = 0;
  s.attrs.start = i;
  s.attrs.end = i + 1;
  const std::string step = s.name;
  add_layer(n, std::move(s), n.output(0) + "/step");
  Layer f = layer(n, OpKind::Flatten, {step});
  add_layer(n, std::move(f), n.output(0));
}

}  // namespace coinfer::onnx_import_detail
