#include "sim/onnx/onnx_import.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"
#include "sim/onnx/lstm_gates.hpp"
#include "sim/onnx/onnx_model_file.hpp"

namespace coinfer {
namespace {

using onnx_file::int_values;

// What an ONNX tensor name stands for while the nodes are mapped: a layer's output (an activation,
// possibly seen through a pending zero Pad that the next conv or average pool absorbs) or a constant.
struct Value {
  std::string layer;  // producing layer; empty for a constant
  Shape shape;        // coinfer's shape (no batch dimension)
  std::array<std::int64_t, 2> pad{0, 0};
  onnx::TensorProto* constant = nullptr;
  bool lstm_output = false;  // an LSTM's Y or Y_h: read only through a Reshape to coinfer's shape
  bool is_activation() const { return !layer.empty(); }
};

// Padding beyond any real network's (a guard against sums that overflow).
constexpr std::int64_t kMaxPad = std::int64_t{1} << 20;

const std::vector<std::string> kSupported = {"Add",
                                             "AveragePool",
                                             "BatchNormalization",
                                             "Clip",
                                             "Concat",
                                             "Constant",
                                             "Conv",
                                             "ConvTranspose",
                                             "Div",
                                             "Dropout",
                                             "Flatten",
                                             "Gather",
                                             "Gemm",
                                             "GlobalAveragePool",
                                             "HardSigmoid",
                                             "Identity",
                                             "LRN",
                                             "LSTM",
                                             "LeakyRelu",
                                             "MatMul",
                                             "MaxPool",
                                             "Mul",
                                             "Pad",
                                             "ReduceMean",
                                             "Relu",
                                             "Reshape",
                                             "Resize",
                                             "Shape",
                                             "Sigmoid",
                                             "Slice",
                                             "Softmax",
                                             "Sub",
                                             "Sum",
                                             "Tanh",
                                             "Transpose"};

class Importer {
 public:
  Importer(std::string file, onnx::ModelProto model)
      : file_(std::move(file)),
        dir_(std::filesystem::path(file_).parent_path().string()),
        model_(std::move(model)),
        weights_(std::make_shared<StoredWeights>()) {}

  Graph run() {
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

 private:
  // How many nodes read each tensor, through Identity chains (the exporter dedups equal initializers
  // into Identity nodes of one), keyed by the tensor the chain starts from.
  void count_uses(const onnx::GraphProto& g) {
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

  // ---- errors and attributes ----
  [[noreturn]] void fail_at(const std::string& path, const std::string& message) const {
    throw InputError(file_, path, message);
  }
  [[noreturn]] void fail(const onnx::NodeProto& n, const std::string& message) const {
    fail_at(index_path("graph.node", static_cast<std::size_t>(node_index_)),
            fmt::format("node '{}' ({}): {}", n.name(), n.op_type(), message));
  }

  static const onnx::AttributeProto* attr(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  static std::int64_t int_attr(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback) {
    const auto* a = attr(n, name);
    return a ? a->i() : fallback;
  }
  static double float_attr(const onnx::NodeProto& n, const std::string& name, double fallback) {
    const auto* a = attr(n, name);
    return a ? a->f() : fallback;
  }
  static std::vector<std::int64_t> ints_attr(const onnx::NodeProto& n, const std::string& name) {
    const auto* a = attr(n, name);
    return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
  }
  static std::string string_attr(const onnx::NodeProto& n, const std::string& name, std::string fallback) {
    const auto* a = attr(n, name);
    return a ? a->s() : fallback;
  }

  // ---- values ----
  Value& value(const std::string& name) {
    auto it = values_.find(name);
    if (it == values_.end())
      throw InputError(file_, index_path("graph.node", static_cast<std::size_t>(node_index_)),
                       fmt::format("tensor '{}' is not produced by any node coinfer maps", name));
    return it->second;
  }
  const Value& activation(const onnx::NodeProto& n, int input) {
    if (input >= n.input_size() || n.input(input).empty()) fail(n, fmt::format("input {} is missing", input));
    const Value& v = value(n.input(input));
    if (!v.is_activation())
      fail(n, fmt::format("input {} ('{}') is a constant; coinfer expects a computed tensor there", input,
                          n.input(input)));
    if (v.lstm_output && n.op_type() != "Reshape")
      fail(n, fmt::format("input {} ('{}') is an LSTM output; coinfer reads it only through a Reshape to "
                          "[1, T, directions * hidden] (Y) or [1, directions * hidden] (Y_h)",
                          input, n.input(input)));
    return v;
  }
  onnx::TensorProto* constant(const onnx::NodeProto& n, int input) {
    if (input >= n.input_size() || n.input(input).empty()) return nullptr;
    const Value& v = value(n.input(input));
    if (v.is_activation())
      fail(n, fmt::format("input {} ('{}') is computed; coinfer expects a constant (an initializer) there",
                          input, n.input(input)));
    return v.constant;
  }
  // A weight array. An initializer read by one node moves its bytes out of the protobuf (no copy); one
  // shared by several nodes is copied for each.
  StoredArray weight(const onnx::NodeProto& n, int input) {
    onnx::TensorProto* t = constant(n, input);
    if (!t) fail(n, fmt::format("input {} (a weight) is missing", input));
    try {
      if (uses_[t->name()] <= 1) return onnx_file::take_floats(*t, dir_);
      return StoredArray::of(onnx_file::dims_of(*t), onnx_file::float_values(*t, dir_));
    } catch (const InputError& e) {
      fail(n, e.path() + ": " + e.message());
    }
  }
  std::vector<std::int64_t> ints_of(const onnx::NodeProto& n, int input) {
    onnx::TensorProto* t = constant(n, input);
    if (!t) fail(n, fmt::format("input {} is missing", input));
    try {
      return int_values(*t, dir_);
    } catch (const InputError& e) {
      fail(n, e.path() + ": " + e.message());
    }
  }
  std::optional<float> scalar_of(const onnx::NodeProto& n, int input) {
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
  void alias(const onnx::NodeProto& n, const std::string& from) { values_[n.output(0)] = value(from); }

  // ---- layers ----
  std::string layer_name(const onnx::NodeProto& n) {
    std::string base = n.name().empty() ? fmt::format("{}_{}", n.op_type(), node_index_) : n.name();
    std::string name = base;
    for (int k = 1; !names_.insert(name).second; ++k) name = fmt::format("{}_{}", base, k);
    return name;
  }

  // Adds `l` (inputs and attributes set), derives its shape and checks it against ONNX's.
  void add_layer(const onnx::NodeProto& n, Layer l, const std::string& output,
                 std::vector<StoredArray> arrays = {}, double epsilon = 1e-5) {
    std::vector<const Shape*> in;
    for (const auto& name : l.inputs) in.push_back(&graph_.layer_by_name(name).output_shape);
    try {
      infer_layer(l, in);
    } catch (const InputError& e) {
      fail(n, e.path().empty() ? e.message() : e.path() + ": " + e.message());
    }
    check_shape(n, output, l.output_shape);
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
    graph_.add(std::move(l));
  }
  Layer layer(const onnx::NodeProto& n, OpKind op, const std::vector<std::string>& inputs) {
    Layer l;
    l.name = layer_name(n);
    l.op = op;
    l.inputs = inputs;
    return l;
  }

  void check_shape(const onnx::NodeProto& n, const std::string& output, const Shape& ours) {
    auto it = onnx_shapes_.find(output);
    if (it == onnx_shapes_.end() || !it->second->type().tensor_type().has_shape()) return;
    Shape theirs;
    for (const auto& d : it->second->type().tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return;
      theirs.push_back(d.dim_value());
    }
    Shape expected{1};
    expected.insert(expected.end(), ours.begin(), ours.end());
    if (theirs != expected)
      fail(n, fmt::format("coinfer derives {} (batch 1 prepended), ONNX shape inference {}",
                          shape_to_string(expected), shape_to_string(theirs)));
  }

  void add_input(const onnx::ValueInfoProto& vi, int index) {
    const auto path = index_path("graph.input", static_cast<std::size_t>(index));
    const auto& type = vi.type().tensor_type();
    if (!vi.type().has_tensor_type() || type.elem_type() != onnx::TensorProto_DataType_FLOAT)
      fail_at(path, fmt::format("input '{}': expected a float32 tensor", vi.name()));
    Shape dims;
    for (int d = 0; d < type.shape().dim_size(); ++d) {
      const auto& dim = type.shape().dim(d);
      if (!dim.has_dim_value() || dim.dim_value() < 1)
        fail_at(path,
                fmt::format("input '{}': dimension {} is dynamic{}; coinfer needs every dimension fixed: "
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

  // pads [b0, b1, e0, e1] of a 2-D op: symmetric, plus a pending Pad on its input.
  std::array<std::int64_t, 2> spatial_pads(const onnx::NodeProto& n, const Value& in) {
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
  static std::array<std::int64_t, 2> pair(const std::vector<std::int64_t>& v, std::int64_t fallback) {
    return v.size() == 2 ? std::array<std::int64_t, 2>{v[0], v[1]}
                         : std::array<std::int64_t, 2>{fallback, fallback};
  }
  void require_2d(const onnx::NodeProto& n, const Value& in) {
    if (in.shape.size() != 3)
      fail(n, fmt::format("expects a [1, C, H, W] input, got {} (batch dropped)", shape_to_string(in.shape)));
  }
  void require_unpadded(const onnx::NodeProto& n, const Value& in) {
    if (in.pad != std::array<std::int64_t, 2>{0, 0})
      fail(n, "reads a zero-padded tensor (Pad); coinfer folds Pad only into Conv and AveragePool");
  }

  // ---- the nodes ----
  void map_node(onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    if (!n.domain().empty() && n.domain() != "ai.onnx") fail(n, "only the default ONNX domain is supported");
    if (op == "Constant") return map_constant(n);
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
    if (op == "ReduceMean") return map_reduce_mean(n);
    if (op == "Flatten") return map_flatten(n);
    if (op == "Reshape") return map_reshape(n);
    if (op == "BatchNormalization") return map_batch_norm(n);
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
    if (op == "Gather" || op == "Sub" || op == "Div")
      fail(n, "supported on integer constants only (the shape arithmetic PyTorch writes), which fold away");
    if (op == "Transpose")
      fail(n,
           "supported only in ShuffleNet's channel shuffle: Reshape [1, C, H, W] to [1, g, C/g, H, W], "
           "Transpose "
           "(0, 2, 1, 3, 4), Reshape back");
    fail(n, fmt::format("op not supported; coinfer imports {}", fmt::join(kSupported, ", ")));
  }

  void map_constant(onnx::NodeProto& n) {
    auto* a = const_cast<onnx::AttributeProto*>(attr(n, "value"));
    if (!a || !a->has_t()) fail(n, "only a Constant with a tensor 'value' is supported");
    a->mutable_t()->set_name(n.output(0));
    values_[n.output(0)] = Value{"", {}, {0, 0}, a->mutable_t()};
  }

  // A dropout layer (the identity at inference), its rate from `ratio` (an input from opset 12).
  void map_dropout(const onnx::NodeProto& n) {
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

  // Every node reading `tensor` has op type `op` (and there is one at least).
  bool only_read_by(const std::string& tensor, const std::string& op) const {
    auto it = consumers_.find(tensor);
    if (it == consumers_.end() || it->second.empty()) return false;
    for (int i : it->second)
      if (model_.graph().node(i).op_type() != op) return false;
    return true;
  }

  void map_pad(const onnx::NodeProto& n) {
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

  void map_conv(const onnx::NodeProto& n) {
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

  // What Conv and ConvTranspose share: the kernel (the weight's, as kernel_shape says), strides,
  // dilations and pads.
  void spatial_attrs(const onnx::NodeProto& n, const Value& in, const StoredArray& w, LayerAttrs& a) {
    a.kernel = {w.shape[2], w.shape[3]};
    if (auto k = ints_attr(n, "kernel_shape"); !k.empty() && pair(k, 0) != a.kernel)
      fail(n, "kernel_shape differs from the weight's");
    a.stride = pair(ints_attr(n, "strides"), 1);
    a.dilation = pair(ints_attr(n, "dilations"), 1);
    a.padding = spatial_pads(n, in);
  }

  // Adds a conv-like layer with its weight `w`, and its bias (input 2) when the node has one.
  void add_weighted(const onnx::NodeProto& n, Layer l, StoredArray w) {
    std::vector<StoredArray> arrays;  // not {std::move(w)}: an initializer list copies its elements
    arrays.push_back(std::move(w));
    l.attrs.bias = n.input_size() > 2 && !n.input(2).empty();
    if (l.attrs.bias) arrays.push_back(weight(n, 2));
    add_layer(n, std::move(l), n.output(0), std::move(arrays));
  }

  void map_conv_transpose(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_2d(n, in);
    require_unpadded(n, in);
    StoredArray w = weight(n, 1);
    if (w.shape.size() != 4) fail(n, "only 2-D transposed convolutions (a 4-D weight) are supported");
    if (attr(n, "output_shape"))
      fail(n, "output_shape is not supported; export with pads and output_padding");
    const std::int64_t group = int_attr(n, "group", 1);
    Layer l = layer(n, OpKind::ConvTranspose2d, {in.layer});
    auto& a = l.attrs;
    spatial_attrs(n, in, w, a);
    a.output_padding = pair(ints_attr(n, "output_padding"), 0);
    a.groups = group;
    a.out_channels = w.shape[1] * group;
    add_weighted(n, std::move(l), std::move(w));
  }

  // MatMul of a [1, T, F] sequence by a constant [F, U]: an fc layer over the sequence (as PyTorch's
  // Linear on a 3-D input exports), taking the bias from an Add of a constant [U] that alone reads it.
  void map_matmul(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    StoredArray w = weight(n, 1);
    if (in.shape.size() != 2 || w.shape.size() != 2 || w.shape[0] != in.shape[1])
      fail(n, fmt::format(
                  "multiplies {} by {}: only a [1, T, F] sequence by a constant [F, U] (an fc layer over "
                  "the sequence) is supported",
                  shape_to_string(in.shape), shape_to_string(w.shape)));
    const std::int64_t units = w.shape[1];
    std::vector<StoredArray> arrays;
    arrays.push_back(w.transposed());  // [F, U] -> [U, F], the fc layout
    Layer l = layer(n, OpKind::FullyConnected, {in.layer});
    l.attrs.units = units;
    l.attrs.bias = false;
    std::string output = n.output(0);
    const auto readers = consumers_.find(n.output(0));
    if (readers != consumers_.end() && readers->second.size() == 1) {
      const int next = readers->second[0];
      const auto& add = model_.graph().node(next);
      const int other = add.input_size() == 2 ? (add.input(0) == n.output(0) ? 1 : 0) : -1;
      if (add.op_type() == "Add" && other >= 0 && !value(add.input(other)).is_activation()) {
        StoredArray b = weight(add, other);
        if (shape_elements(b.shape) == units) {
          b.shape = {units};
          arrays.push_back(std::move(b));
          l.attrs.bias = true;
          fused_.insert(next);
          output = add.output(0);
        }
      }
    }
    add_layer(n, std::move(l), output, std::move(arrays));
  }

  // Resize by integer factors: nearest as PyTorch exports it (asymmetric, floor), or linear with half-pixel
  // centres (align_corners = false).
  void map_resize(const onnx::NodeProto& n) {
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
      fail(n, fmt::format(
                  "mode {} with coordinate_transformation_mode {}: coinfer upsamples nearest (asymmetric, "
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

  // LSTM with layout 1 (batch first, as coinfer exports): one lstm layer; its Y [1, T, dirs, H] or Y_h
  // [1, dirs, H] is read through a Reshape to coinfer's (T, dirs H) or (dirs H).
  void map_lstm(const onnx::NodeProto& n) {
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
      fail(n,
           "coinfer's lstm returns the sequence Y or the last state Y_h: exactly one of them must be read");
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

  void map_gemm(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    if (int_attr(n, "transA", 0) != 0 || float_attr(n, "alpha", 1.0) != 1.0 ||
        float_attr(n, "beta", 1.0) != 1.0)
      fail(n, "only Gemm with transA = 0, alpha = beta = 1 (a fully connected layer) is supported");
    if (in.shape.size() != 1)
      fail(n, fmt::format("expects a [1, K] input, got {}", shape_to_string(in.shape)));
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

  void map_pool(const onnx::NodeProto& n) {
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

  void map_global_pool(const onnx::NodeProto& n, bool keepdims) {
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

  void map_reduce_mean(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    std::vector<std::int64_t> axes = ints_attr(n, "axes");
    for (auto& x : axes)
      if (x < 0) x += 4;
    std::sort(axes.begin(), axes.end());
    if (in.shape.size() != 3 || axes != std::vector<std::int64_t>{2, 3})
      fail(n, "only a mean over H and W of a [1, C, H, W] tensor (global average pooling) is supported");
    map_global_pool(n, int_attr(n, "keepdims", 1) != 0);
  }

  void map_flatten(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    if (const auto axis = int_attr(n, "axis", 1); axis != 1 && !(axis == 0 && in.shape.size() >= 1))
      fail(n, fmt::format("Flatten axis {}: only axis 1 (keep the batch) is supported", axis));
    add_layer(n, layer(n, OpKind::Flatten, {in.layer}), n.output(0));
  }

  // The shape a Reshape node asks for, its 0s (copy) and -1 (the rest) resolved against `dims` (batch
  // included); a product past int64 leaves the -1 unresolved (the shape then matches nothing).
  std::vector<std::int64_t> reshape_target(const onnx::NodeProto& n, const Shape& dims) {
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

  // The only node reading `tensor`, if it is one of type `op`; else -1.
  int sole_reader(const std::string& tensor, const std::string& op) const {
    auto it = consumers_.find(tensor);
    if (it == consumers_.end() || it->second.size() != 1) return -1;
    return model_.graph().node(it->second[0]).op_type() == op ? it->second[0] : -1;
  }

  // ShuffleNet's channel shuffle as PyTorch exports it: Reshape [1, C, H, W] to [1, g, C/g, H, W],
  // Transpose (0, 2, 1, 3, 4), Reshape back to [1, C, H, W]. Maps the three to one channel_shuffle
  // layer (named as the last Reshape) and returns true; false when `n` does not start that pattern.
  bool map_channel_shuffle(const onnx::NodeProto& n, const Value& in,
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

  void map_reshape(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    const std::int64_t count = shape_elements(in.shape);
    Shape dims{1};
    dims.insert(dims.end(), in.shape.begin(), in.shape.end());
    const std::vector<std::int64_t> target = reshape_target(n, dims);
    if (map_channel_shuffle(n, in, target)) return;
    if (target == dims) {
      Value out = in;
      out.lstm_output = false;
      values_[n.output(0)] = out;
      return;
    }
    if (in.lstm_output)
      fail(n,
           fmt::format("reshapes an LSTM output to [{}]; coinfer reads Y as [1, T, directions * hidden] and "
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

  // Slice of one axis (not the batch), step 1: a slice layer; the whole axis folds away.
  void map_slice(const onnx::NodeProto& n) {
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
    const auto clamp = [dim](std::int64_t v) {
      return std::clamp(v < 0 ? v + dim : v, std::int64_t{0}, dim);
    };
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

  // ---- constant folding: the shape arithmetic PyTorch writes (Shape, Gather, + - * / of integers) ----
  void set_ints(const std::string& name, const Shape& dims, const std::vector<std::int64_t>& v) {
    onnx::TensorProto& t = folded_.emplace_back();
    t.set_name(name);
    t.set_data_type(onnx::TensorProto_DataType_INT64);
    for (auto d : dims) t.add_dims(d);
    for (auto x : v) t.add_int64_data(x);
    values_[name] = Value{"", {}, {0, 0}, &t};
  }

  void map_shape(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    std::vector<std::int64_t> dims{1};
    dims.insert(dims.end(), in.shape.begin(), in.shape.end());
    const auto rank = static_cast<std::int64_t>(dims.size());
    const auto at = [rank](std::int64_t v) {
      return std::clamp(v < 0 ? v + rank : v, std::int64_t{0}, rank);
    };
    const std::int64_t start = at(int_attr(n, "start", 0)), end = at(int_attr(n, "end", rank));
    std::vector<std::int64_t> v(dims.begin() + start, dims.begin() + std::max(start, end));
    set_ints(n.output(0), {static_cast<std::int64_t>(v.size())}, v);
  }

  bool is_int_constant(const onnx::NodeProto& n, int input) {
    if (input >= n.input_size() || n.input(input).empty()) return false;
    const Value& v = value(n.input(input));
    return !v.is_activation() && (v.constant->data_type() == onnx::TensorProto_DataType_INT64 ||
                                  v.constant->data_type() == onnx::TensorProto_DataType_INT32);
  }

  // Gather and integer arithmetic on constants: folded to a constant; false for anything else.
  bool fold(const onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    if (op == "Gather" && is_int_constant(n, 0) && is_int_constant(n, 1) && int_attr(n, "axis", 0) == 0) {
      const auto data = ints_of(n, 0), indices = ints_of(n, 1);
      const auto size = static_cast<std::int64_t>(data.size());
      std::vector<std::int64_t> v;
      for (auto i : indices) {
        if (i < -size || i >= size) fail(n, fmt::format("index {} is outside [{}, {})", i, -size, size));
        v.push_back(data[static_cast<std::size_t>(i < 0 ? i + size : i)]);
      }
      const auto dims = onnx_file::dims_of(*constant(n, 1));
      set_ints(n.output(0), dims, v);
      return true;
    }
    if ((op != "Add" && op != "Sub" && op != "Mul" && op != "Div") || !is_int_constant(n, 0) ||
        !is_int_constant(n, 1))
      return false;
    const auto a = ints_of(n, 0), b = ints_of(n, 1);
    if (a.size() != b.size() && a.size() != 1 && b.size() != 1)
      fail(n, "folds integer constants of one size, or one of them a single value");
    const std::size_t size = std::max(a.size(), b.size());
    std::vector<std::int64_t> v(size);
    for (std::size_t i = 0; i < size; ++i) {
      const std::int64_t x = a[a.size() == 1 ? 0 : i], y = b[b.size() == 1 ? 0 : i];
      std::optional<std::int64_t> r;
      if (op == "Add") r = checked_add(x, y);
      if (std::int64_t d = 0; op == "Sub" && !__builtin_sub_overflow(x, y, &d)) r = d;
      if (op == "Mul") r = checked_mul(x, y);
      if (op == "Div" && y != 0 && !(x == INT64_MIN && y == -1)) r = x / y;
      if (!r) fail(n, fmt::format("folding {} {} {} does not give an int64", x, op, y));
      v[i] = *r;
    }
    const auto dims = onnx_file::dims_of(*constant(n, a.size() >= b.size() ? 0 : 1));
    set_ints(n.output(0), dims, v);
    return true;
  }

  void map_batch_norm(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    if (int_attr(n, "training_mode", 0) != 0 || n.output_size() > 1)
      fail(n, "training-mode batch normalisation is not supported; export the model in eval mode");
    std::vector<StoredArray> arrays;
    for (int i = 1; i <= 4; ++i) arrays.push_back(weight(n, i));
    add_layer(n, layer(n, OpKind::BatchNorm, {in.layer}), n.output(0), std::move(arrays),
              float_attr(n, "epsilon", 1e-5));
  }

  // Add (two inputs) and Sum (any number): a residual add of equal shapes.
  void map_add(const onnx::NodeProto& n) {
    std::vector<std::string> inputs;
    const Value first = activation(n, 0);
    for (int i = 0; i < n.input_size(); ++i) {
      const Value v = activation(n, i);
      require_unpadded(n, v);
      if (v.shape != first.shape)
        fail(n, fmt::format("adds {} and {}: only equal shapes (a residual add) are supported",
                            shape_to_string(first.shape), shape_to_string(v.shape)));
      inputs.push_back(v.layer);
    }
    if (inputs.size() == 1) return alias(n, n.input(0));
    add_layer(n, layer(n, OpKind::Add, inputs), n.output(0));
  }

  void map_mul(const onnx::NodeProto& n) {
    const Value a = activation(n, 0), b = activation(n, 1);
    require_unpadded(n, a);
    require_unpadded(n, b);
    add_layer(n, layer(n, OpKind::Mul, {a.layer, b.layer}), n.output(0));
  }

  void map_concat(const onnx::NodeProto& n) {
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

  void map_clip(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    const auto lo = scalar_of(n, 1), hi = scalar_of(n, 2);
    if (lo && *lo == 0.0f && hi && *hi == 6.0f)
      return add_layer(n, layer(n, OpKind::Relu6, {in.layer}), n.output(0));
    if (lo && *lo == 0.0f && !hi) return add_layer(n, layer(n, OpKind::Relu, {in.layer}), n.output(0));
    fail(n, fmt::format("Clip to [{}, {}]: only [0, 6] (relu6) and [0, inf) (relu) are supported",
                        lo ? fmt::format("{}", *lo) : "-inf", hi ? fmt::format("{}", *hi) : "inf"));
  }

  void map_lrn(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    Layer l = layer(n, OpKind::Lrn, {in.layer});
    l.attrs.lrn_size = int_attr(n, "size", 0);
    l.attrs.lrn_alpha = float_attr(n, "alpha", 1e-4);
    l.attrs.lrn_beta = float_attr(n, "beta", 0.75);
    l.attrs.lrn_k = float_attr(n, "bias", 1.0);
    add_layer(n, std::move(l), n.output(0));
  }

  void map_softmax(const onnx::NodeProto& n) {
    const Value in = activation(n, 0);
    // coinfer's softmax normalises the feature axis: the channels of [1, C, H, W], the last axis of
    // [1, N] and [1, T, F]. Before opset 13 Softmax flattened the trailing axes, which agrees for [1, N].
    const auto rank = static_cast<std::int64_t>(in.shape.size()) + 1;
    auto axis = int_attr(n, "axis", opset_ >= 13 ? -1 : 1);
    if (axis < 0) axis += rank;
    const std::int64_t feature = rank == 4 ? 1 : rank - 1;
    if (axis != feature || rank > 4 || (opset_ < 13 && rank != 2))
      fail(n, fmt::format(
                  "softmax over axis {} of a rank-{} tensor: coinfer normalises the channels of [1, C, H, "
                  "W] and the last axis of [1, N] or [1, T, F] (opset 13 on; before it, [1, N] only)",
                  axis, rank));
    add_layer(n, layer(n, OpKind::Softmax, {in.layer}), n.output(0));
  }

  void map_unary(const onnx::NodeProto& n, OpKind op) {
    const Value in = activation(n, 0);
    require_unpadded(n, in);
    add_layer(n, layer(n, op, {in.layer}), n.output(0));
  }

  std::string file_, dir_;
  onnx::ModelProto model_;
  std::shared_ptr<StoredWeights> weights_;
  Graph graph_;
  std::unordered_map<std::string, Value> values_;
  std::unordered_map<std::string, const onnx::ValueInfoProto*>
      onnx_shapes_;                                              // into model_, which outlives it
  std::unordered_map<std::string, int> uses_;                    // see count_uses
  std::unordered_map<std::string, std::vector<int>> consumers_;  // tensor -> the nodes reading it
  std::unordered_set<int> fused_;  // nodes already mapped: Constants, an fc's bias Add, a shuffle's tail
  std::deque<onnx::TensorProto> folded_;  // constants folded from shape arithmetic (stable addresses)
  std::int64_t opset_ = 0;
  std::unordered_set<std::string> names_;
  int node_index_ = 0;
};

}  // namespace

bool is_onnx_file(std::string_view name) { return name.ends_with(".onnx"); }

std::vector<std::string> onnx_supported_ops() { return kSupported; }

Graph import_onnx(const std::string& file) { return Importer(file, onnx_file::read_model(file)).run(); }

Graph import_onnx_bytes(const std::string& bytes, const std::string& name) {
  return Importer(name, onnx_file::parse_model(bytes, name)).run();
}

}  // namespace coinfer
