#include "sim/onnx/onnx_import.hpp"

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

namespace coinfer {
namespace onnx_import_detail {

using onnx_file::int_values;

const std::vector<std::string> kSupported = {"Add",
                                             "AveragePool",
                                             "BatchNormalization",
                                             "Clip",
                                             "Concat",
                                             "Constant",
                                             "ConstantOfShape",
                                             "Conv",
                                             "ConvTranspose",
                                             "Div",
                                             "Dropout",
                                             "Equal",
                                             "Erf",
                                             "Expand",
                                             "Flatten",
                                             "Gather",
                                             "Gemm",
                                             "GlobalAveragePool",
                                             "HardSigmoid",
                                             "Identity",
                                             "LRN",
                                             "LSTM",
                                             "LayerNormalization",
                                             "LeakyRelu",
                                             "MatMul",
                                             "MaxPool",
                                             "Mul",
                                             "Pad",
                                             "Pow",
                                             "ReduceMean",
                                             "Relu",
                                             "Reshape",
                                             "Resize",
                                             "Shape",
                                             "Sigmoid",
                                             "Slice",
                                             "Softmax",
                                             "Sqrt",
                                             "Sub",
                                             "Sum",
                                             "Tanh",
                                             "Transpose",
                                             "Where"};

Graph Importer::run() {
  graph_.set_name(std::filesystem::path(file_).stem().string());
  auto& g = *model_.mutable_graph();
  for (auto& t : *g.mutable_initializer()) values_[t.name()] = Value{"", {}, {0, 0}, &t};
  count_uses(g);
  opset_ = onnx_file::default_opset(model_);
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto& in : g.node(i).input()) consumers_[in].push_back(i);
  for (const auto& vi : g.value_info()) onnx_shapes_[vi.name()] = &vi;
  for (const auto& vi : g.output()) onnx_shapes_[vi.name()] = &vi;
  for (int i = 0; i < g.input_size(); ++i)
    if (!values_.count(g.input(i).name())) add_input(g.input(i), i);
  // Constants first (they read nothing), so a pattern that looks ahead finds them.
  for (int i = 0; i < g.node_size(); ++i)
    if (node_index_ = i; g.node(i).op_type() == "Constant" && g.node(i).domain().empty()) {
      map_constant(*g.mutable_node(i));
      fused_.insert(i);
    }
  for (int i = 0; i < g.node_size(); ++i) {
    node_index_ = i;
    if (!fused_.count(i)) map_node(*g.mutable_node(i));
  }
  for (int i = 0; i < g.output_size(); ++i) {
    const Value& v = value(g.output(i).name());
    if (!v.is_activation())
      fail_at(index_path("graph.output", static_cast<std::size_t>(i)),
              fmt::format("output '{}' is a constant; coinfer models a network's computed outputs",
                          g.output(i).name()));
  }
  graph_.set_stored_weights(weights_);
  try {
    graph_.infer();
  } catch (const InputError& e) {
    throw e.with_file(file_);
  }
  return std::move(graph_);
}

void Importer::count_uses(const onnx::GraphProto& g) {
  std::unordered_map<std::string, std::string> root;
  const auto root_of = [&](const std::string& name) {
    auto it = root.find(name);
    return it == root.end() ? name : it->second;
  };
  for (const auto& n : g.node()) {
    if (n.op_type() == "Identity" && n.input_size() == 1 && n.output_size() == 1)
      root[n.output(0)] = root_of(n.input(0));
    else
      for (const auto& in : n.input()) ++uses_[root_of(in)];
  }
}

[[noreturn]] void Importer::fail_at(const std::string& path, const std::string& message) const {
  throw InputError(file_, path, message);
}

[[noreturn]] void Importer::fail(const onnx::NodeProto& n, const std::string& message) const {
  fail_at(index_path("graph.node", static_cast<std::size_t>(node_index_)),
          fmt::format("node '{}' ({}): {}", n.name(), n.op_type(), message));
}

const onnx::AttributeProto* Importer::attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::int64_t Importer::int_attr(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback) {
  const auto* a = attr(n, name);
  return a ? a->i() : fallback;
}

double Importer::float_attr(const onnx::NodeProto& n, const std::string& name, double fallback) {
  const auto* a = attr(n, name);
  return a ? a->f() : fallback;
}

std::vector<std::int64_t> Importer::ints_attr(const onnx::NodeProto& n, const std::string& name) {
  const auto* a = attr(n, name);
  return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
}

std::string Importer::string_attr(const onnx::NodeProto& n, const std::string& name, std::string fallback) {
  const auto* a = attr(n, name);
  return a ? a->s() : fallback;
}

Value& Importer::value(const std::string& name) {
  auto it = values_.find(name);
  if (it == values_.end())
    throw InputError(file_, index_path("graph.node", static_cast<std::size_t>(node_index_)),
                     fmt::format("tensor '{}' is not produced by any node coinfer maps", name));
  return it->second;
}

const Value& Importer::activation(const onnx::NodeProto& n, int input) {
  if (input >= n.input_size() || n.input(input).empty()) fail(n, fmt::format("input {} is missing", input));
  const Value& v = value(n.input(input));
  if (!v.is_activation())
    fail(n, fmt::format("input {} ('{}') is a constant; coinfer expects a computed tensor there", input,
                        n.input(input)));
  if (v.channels_last && n.op_type() != "Transpose" && n.op_type() != "MatMul" && n.op_type() != "Add")
    fail(n, fmt::format("input {} ('{}') is a [1, H, W, C] tensor (after a Transpose (0, 2, 3, 1)); coinfer "
                        "reads one only in LayerNorm, GELU, MatMul by a constant, Add, or a Transpose "
                        "(0, 3, 1, 2) back",
                        input, n.input(input)));
  if (v.lstm_output && n.op_type() != "Reshape")
    fail(n, fmt::format("input {} ('{}') is an LSTM output; coinfer reads it only through a Reshape to "
                        "[1, T, directions * hidden] (Y) or [1, directions * hidden] (Y_h)",
                        input, n.input(input)));
  return v;
}

onnx::TensorProto* Importer::constant(const onnx::NodeProto& n, int input) {
  if (input >= n.input_size() || n.input(input).empty()) return nullptr;
  const Value& v = value(n.input(input));
  if (v.is_activation())
    fail(n, fmt::format("input {} ('{}') is computed; coinfer expects a constant (an initializer) there",
                        input, n.input(input)));
  return v.constant;
}

StoredArray Importer::weight(const onnx::NodeProto& n, int input) {
  onnx::TensorProto* t = constant(n, input);
  if (!t) fail(n, fmt::format("input {} (a weight) is missing", input));
  try {
    if (uses_[t->name()] <= 1) return onnx_file::take_floats(*t, dir_);
    return StoredArray::of(onnx_file::dims_of(*t), onnx_file::float_values(*t, dir_));
  } catch (const InputError& e) {
    fail(n, e.path() + ": " + e.message());
  }
}

std::vector<std::int64_t> Importer::ints_of(const onnx::NodeProto& n, int input) {
  onnx::TensorProto* t = constant(n, input);
  if (!t) fail(n, fmt::format("input {} is missing", input));
  try {
    return int_values(*t, dir_);
  } catch (const InputError& e) {
    fail(n, e.path() + ": " + e.message());
  }
}

std::optional<float> Importer::scalar_of(const onnx::NodeProto& n, int input) {
  onnx::TensorProto* t = constant(n, input);
  if (!t) return std::nullopt;
  std::vector<float> v;
  try {
    v = onnx_file::float_values(*t, dir_);
  } catch (const InputError& e) {
    fail(n, e.path() + ": " + e.message());
  }
  if (v.size() != 1) fail(n, fmt::format("input {} must be a scalar", input));
  return v[0];
}

std::string Importer::layer_name(const onnx::NodeProto& n) {
  std::string base = n.name().empty() ? fmt::format("{}_{}", n.op_type(), node_index_) : n.name();
  std::string name = base;
  for (int k = 1; !names_.insert(name).second; ++k) name = fmt::format("{}_{}", base, k);
  return name;
}

void Importer::add_layer(const onnx::NodeProto& n, Layer l, const std::string& output,
                         std::vector<StoredArray> arrays, double epsilon, bool channels_last) {
  std::vector<const Shape*> in;
  for (const auto& name : l.inputs) in.push_back(&graph_.layer_by_name(name).output_shape);
  try {
    infer_layer(l, in);
  } catch (const InputError& e) {
    fail(n, e.path().empty() ? e.message() : e.path() + ": " + e.message());
  }
  check_shape(n, output, l.output_shape, channels_last);
  if (!arrays.empty()) {
    StoredLayerWeights stored{std::move(arrays), epsilon};
    try {
      check_stored_weights(l, *in.at(0), stored);
    } catch (const InputError& e) {
      fail(n, e.message());
    }
    (*weights_)[l.name] = std::move(stored);
  }
  values_[output] = Value{l.name, l.output_shape, {0, 0}, nullptr};
  values_[output].channels_last = channels_last;
  graph_.add(std::move(l));
}

Layer Importer::layer(const onnx::NodeProto& n, OpKind op, const std::vector<std::string>& inputs) {
  Layer l;
  l.name = layer_name(n);
  l.op = op;
  l.inputs = inputs;
  return l;
}

void Importer::check_shape(const onnx::NodeProto& n, const std::string& output, const Shape& ours,
                           bool channels_last) {
  auto it = onnx_shapes_.find(output);
  if (it == onnx_shapes_.end() || !it->second->type().tensor_type().has_shape()) return;
  Shape theirs;
  for (const auto& d : it->second->type().tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return;
    theirs.push_back(d.dim_value());
  }
  Shape expected{1};
  expected.insert(expected.end(), ours.begin(), ours.end());
  if (channels_last && ours.size() == 3) expected = {1, ours[1], ours[2], ours[0]};
  if (theirs != expected)
    fail(n, fmt::format("coinfer derives {} (batch 1 prepended), ONNX shape inference {}",
                        shape_to_string(expected), shape_to_string(theirs)));
}

void Importer::add_input(const onnx::ValueInfoProto& vi, int index) {
  const auto path = index_path("graph.input", static_cast<std::size_t>(index));
  const auto& type = vi.type().tensor_type();
  if (!vi.type().has_tensor_type() || type.elem_type() != onnx::TensorProto_DataType_FLOAT)
    fail_at(path, fmt::format("input '{}': expected a float32 tensor", vi.name()));
  Shape dims;
  for (int d = 0; d < type.shape().dim_size(); ++d) {
    const auto& dim = type.shape().dim(d);
    if (!dim.has_dim_value() || dim.dim_value() < 1)
      fail_at(path, fmt::format("input '{}': dimension {} is dynamic{}; coinfer needs every dimension fixed: "
                                "export without dynamic_axes",
                                vi.name(), d, dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : ""));
    dims.push_back(dim.dim_value());
  }
  if (dims.size() < 2 || dims.size() > 4 || dims[0] != 1)
    fail_at(path,
            fmt::format("input '{}' is {}; coinfer expects one sample: [1, C, H, W], [1, T, F] or [1, F]",
                        vi.name(), shape_to_string(dims)));
  Layer l;
  l.name = vi.name();
  names_.insert(l.name);
  l.op = OpKind::Input;
  l.attrs.shape = Shape(dims.begin() + 1, dims.end());
  infer_layer(l, {});
  values_[vi.name()] = Value{l.name, l.output_shape, {0, 0}, nullptr};
  graph_.add(std::move(l));
}

std::array<std::int64_t, 2> Importer::spatial_pads(const onnx::NodeProto& n, const Value& in) {
  const std::string auto_pad = string_attr(n, "auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID")
    fail(n, fmt::format("auto_pad {} is not supported; export with explicit pads", auto_pad));
  std::vector<std::int64_t> pads = ints_attr(n, "pads");
  if (pads.empty()) pads.assign(4, 0);
  for (auto p : pads)
    if (p < 0 || p > kMaxPad) fail(n, fmt::format("a pad of {} is outside [0, {}]", p, kMaxPad));
  if (pads.size() != 4 || pads[0] != pads[2] || pads[1] != pads[3])
    fail(n, fmt::format("pads [{}] are not symmetric 2-D padding; coinfer pads top = bottom, left = right",
                        fmt::join(pads, ", ")));
  return {pads[0] + in.pad[0], pads[1] + in.pad[1]};
}

std::array<std::int64_t, 2> Importer::pair(const std::vector<std::int64_t>& v, std::int64_t fallback) {
  return v.size() == 2 ? std::array<std::int64_t, 2>{v[0], v[1]}
                       : std::array<std::int64_t, 2>{fallback, fallback};
}

void Importer::require_2d(const onnx::NodeProto& n, const Value& in) {
  if (in.shape.size() != 3)
    fail(n, fmt::format("expects a [1, C, H, W] input, got {} (batch dropped)", shape_to_string(in.shape)));
}

void Importer::require_unpadded(const onnx::NodeProto& n, const Value& in) {
  if (in.pad != std::array<std::int64_t, 2>{0, 0})
    fail(n, "reads a zero-padded tensor (Pad); coinfer folds Pad only into Conv and AveragePool");
}

void Importer::map_node(onnx::NodeProto& n) {
  const std::string& op = n.op_type();
  if (!n.domain().empty() && n.domain() != "ai.onnx") fail(n, "only the default ONNX domain is supported");
  if (op == "Constant") return map_constant(n);
  if (auto it = attention_ends_.find(node_index_); it != attention_ends_.end())
    return map_attention(n, it->second);
  if (fold(n)) return;
  if (op == "Shape") return map_shape(n);
  if (op == "Slice") return map_slice(n);
  if (op == "Identity") return alias(n, n.input(0));
  if (op == "Dropout") return map_dropout(n);
  if (op == "ConvTranspose") return map_conv_transpose(n);
  if (op == "MatMul") return map_matmul(n);
  if (op == "Resize") return map_resize(n);
  if (op == "LSTM") return map_lstm(n);
  if (op == "Sum") return map_add(n);
  if (op == "Pad") return map_pad(n);
  if (op == "Conv") return map_conv(n);
  if (op == "Gemm") return map_gemm(n);
  if (op == "MaxPool" || op == "AveragePool") return map_pool(n);
  if (op == "GlobalAveragePool") return map_global_pool(n, true);
  if (op == "ReduceMean") {
    if (auto m = onnx_patterns::layer_norm_at(view(), node_index_)) return map_layer_norm(n, *m);
    return map_reduce_mean(n);
  }
  if (op == "Flatten") return map_flatten(n);
  if (op == "Reshape") return map_reshape(n);
  if (op == "BatchNormalization") return map_batch_norm(n);
  if (op == "LayerNormalization") return map_layer_normalization(n);
  if (op == "Add") return map_add(n);
  if (op == "Mul") return map_mul(n);
  if (op == "HardSigmoid") {
    Layer l = layer(n, OpKind::HardSigmoid, {activation(n, 0).layer});
    require_unpadded(n, activation(n, 0));
    l.attrs.slope = float_attr(n, "alpha", 0.2);
    l.attrs.offset = float_attr(n, "beta", 0.5);
    return add_layer(n, std::move(l), n.output(0));
  }
  if (op == "Concat") return map_concat(n);
  if (op == "Clip") return map_clip(n);
  if (op == "LRN") return map_lrn(n);
  if (op == "Softmax") return map_softmax(n);
  if (op == "Relu") return map_unary(n, OpKind::Relu);
  if (op == "Sigmoid") return map_unary(n, OpKind::Sigmoid);
  if (op == "Tanh") return map_unary(n, OpKind::Tanh);
  if (op == "LeakyRelu") {
    Layer l = layer(n, OpKind::LeakyRelu, {activation(n, 0).layer});
    require_unpadded(n, activation(n, 0));
    l.attrs.negative_slope = float_attr(n, "alpha", 0.01);
    return add_layer(n, std::move(l), n.output(0));
  }
  if (op == "Div")
    if (auto m = onnx_patterns::gelu_at(view(), node_index_)) return map_gelu(n, *m);
  if (op == "Gather" && value(n.input(0)).is_activation()) return map_gather(n);
  if (op == "Gather" || op == "Sub" || op == "Div")
    fail(n,
         "supported on integer constants (the shape arithmetic PyTorch writes, which folds away) and in "
         "the LayerNorm and GELU PyTorch decomposes");
  if (op == "Pow" || op == "Sqrt" || op == "Erf")
    fail(n, "supported only in the LayerNorm and GELU PyTorch decomposes");
  if (op == "Transpose") return map_transpose(n);
  fail(n, fmt::format("op not supported; coinfer imports {}", fmt::join(kSupported, ", ")));
}

bool Importer::only_read_by(const std::string& tensor, const std::string& op) const {
  auto it = consumers_.find(tensor);
  if (it == consumers_.end() || it->second.empty()) return false;
  for (int i : it->second)
    if (model_.graph().node(i).op_type() != op) return false;
  return true;
}

std::vector<std::int64_t> Importer::reshape_target(const onnx::NodeProto& n, const Shape& dims) {
  std::vector<std::int64_t> target = ints_of(n, 1);
  std::int64_t known = 1;
  int unknown = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && i < dims.size()) target[i] = dims[i];
    if (target[i] == -1) {
      unknown = static_cast<int>(i);
    } else {
      const auto next = checked_mul(known, target[i]);
      if (!next) return target;
      known = *next;
    }
  }
  if (unknown >= 0 && known > 0) target[static_cast<std::size_t>(unknown)] = shape_elements(dims) / known;
  return target;
}

int Importer::sole_reader(const std::string& tensor, const std::string& op) const {
  auto it = consumers_.find(tensor);
  if (it == consumers_.end() || it->second.size() != 1) return -1;
  return model_.graph().node(it->second[0]).op_type() == op ? it->second[0] : -1;
}

int Importer::input_index(const onnx::NodeProto& n, const std::string& tensor) const {
  for (int i = 0; i < n.input_size(); ++i)
    if (n.input(i) == tensor) return i;
  return -1;
}

}  // namespace onnx_import_detail

using onnx_import_detail::Importer;

bool is_onnx_file(std::string_view name) { return name.ends_with(".onnx"); }

std::vector<std::string> onnx_supported_ops() { return onnx_import_detail::kSupported; }

Graph import_onnx(const std::string& file) { return Importer(file, onnx_file::read_model(file)).run(); }

Graph import_onnx_bytes(const std::string& bytes, const std::string& name) {
  return Importer(name, onnx_file::parse_model(bytes, name)).run();
}

}  // namespace coinfer
