#include "sim/onnx/onnx_export.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <ostream>

#include <onnx/onnx_pb.h>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/onnx/lstm_gates.hpp"

namespace coinfer {
namespace {

class Exporter {
 public:
  Exporter(const Graph& graph, const LayerWeightSource& weights) : graph_(graph), weights_(weights) {}

  onnx::ModelProto run() {
    if (!graph_.inferred()) throw Error("export_onnx: the graph is not inferred");
    model_.set_ir_version(7);
    model_.set_producer_name("coinfer");
    model_.set_producer_version(COINFER_VERSION);
    auto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOnnxExportOpset);
    g_ = model_.mutable_graph();
    g_->set_name(graph_.name().empty() ? "coinfer" : graph_.name());
    for (std::size_t i : graph_.topological_order()) {
      index_ = i;
      emit(graph_.layer(i));
    }
    for (std::size_t i : graph_.output_layers()) {
      const Layer& l = graph_.layer(i);
      add_value(g_->add_output(), l.name, l.output_shape);
    }
    return std::move(model_);
  }

 private:
  [[noreturn]] void fail(const Layer& l, const std::string& key, const std::string& message) const {
    throw InputError("", index_path("layers", index_) + (key.empty() ? "" : "." + key),
                     fmt::format("layer '{}' ({}): {}", l.name, op_name(l.op), message));
  }

  static void add_value(onnx::ValueInfoProto* v, const std::string& name, const Shape& shape) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto_DataType_FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(1);
    for (auto d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
  }

  onnx::NodeProto& node(const std::string& op, const std::string& name, std::vector<std::string> inputs,
                        std::vector<std::string> outputs) {
    auto* n = g_->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& i : inputs) n->add_input(i);
    for (auto& o : outputs) n->add_output(o);
    return *n;
  }
  static void attr(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_INT);
    a->set_i(v);
  }
  static void attr(onnx::NodeProto& n, const std::string& name, double v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_FLOAT);
    a->set_f(static_cast<float>(v));
  }
  static void attr(onnx::NodeProto& n, const std::string& name, const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_STRING);
    a->set_s(v);
  }
  static void attr(onnx::NodeProto& n, const std::string& name, std::vector<std::int64_t> v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_INTS);
    for (auto x : v) a->add_ints(x);
  }

  // An initializer named `name`; float data moves in as raw little-endian bytes.
  const std::string& initializer(const std::string& name, const Shape& dims, std::string bytes) {
    auto* t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_FLOAT);
    for (auto d : dims) t->add_dims(d);
    t->set_raw_data(std::move(bytes));
    return t->name();
  }
  std::string floats(const std::string& name, const Shape& dims, const std::vector<float>& v) {
    return initializer(name, dims, StoredArray::of(dims, v).bytes);
  }
  std::string ints(const std::string& name, const std::vector<std::int64_t>& v) {
    auto* t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_INT64);
    t->add_dims(static_cast<std::int64_t>(v.size()));
    for (auto x : v) t->add_int64_data(x);
    return t->name();
  }

  const Shape& input_shape(const Layer& l) const { return graph_.layer_by_name(l.inputs.at(0)).output_shape; }
  StoredLayerWeights weights(const Layer& l) {
    try {
      return weights_(l, input_shape(l));
    } catch (const InputError& e) {
      fail(l, "", e.message());
    }
  }

  static void spatial(onnx::NodeProto& n, const LayerAttrs& a, bool dilation) {
    attr(n, "kernel_shape", std::vector<std::int64_t>{a.kernel[0], a.kernel[1]});
    attr(n, "strides", std::vector<std::int64_t>{a.stride[0], a.stride[1]});
    attr(n, "pads", std::vector<std::int64_t>{a.padding[0], a.padding[1], a.padding[0], a.padding[1]});
    if (dilation) attr(n, "dilations", std::vector<std::int64_t>{a.dilation[0], a.dilation[1]});
  }

  // The ONNX op of an op that maps one to one, without attributes.
  static std::string same_op(OpKind op) {
    switch (op) {
      case OpKind::GlobalAvgPool:
        return "GlobalAveragePool";
      case OpKind::Relu:
        return "Relu";
      case OpKind::Sigmoid:
        return "Sigmoid";
      case OpKind::Tanh:
        return "Tanh";
      default:
        return "Mul";
    }
  }

  void emit(const Layer& l) {
    const auto& a = l.attrs;
    if (a.dtype != DType::Fp32)
      fail(l, "dtype",
           fmt::format("a {} output has no exact ONNX form here; export it as JSON", dtype_name(a.dtype)));
    if (a.sparsity > 0.0)
      fail(l, "sparsity",
           fmt::format("sparsity {} (pruned weights) is not an ONNX attribute; export it as JSON",
                       a.sparsity));
    const std::vector<std::string> in = l.inputs;
    const std::string& out = l.name;
    switch (l.op) {
      case OpKind::Input:
        add_value(g_->add_input(), l.name, l.output_shape);
        return;
      case OpKind::Conv2d:
      case OpKind::DepthwiseConv2d:
      case OpKind::ConvTranspose2d: {
        const bool transposed = l.op == OpKind::ConvTranspose2d;
        StoredLayerWeights w = weights(l);
        std::vector<std::string> inputs{
            in[0], initializer(l.name + ".weight", w.arrays[0].shape, std::move(w.arrays[0].bytes))};
        if (a.bias)
          inputs.push_back(initializer(l.name + ".bias", w.arrays[1].shape, std::move(w.arrays[1].bytes)));
        auto& n = node(transposed ? "ConvTranspose" : "Conv", l.name, inputs, {out});
        spatial(n, a, true);
        attr(n, "group", l.op == OpKind::DepthwiseConv2d ? input_shape(l).at(0) : a.groups);
        if (transposed && (a.output_padding[0] || a.output_padding[1]))
          attr(n, "output_padding", std::vector<std::int64_t>{a.output_padding[0], a.output_padding[1]});
        return;
      }
      case OpKind::FullyConnected:
        return emit_fc(l);
      case OpKind::MaxPool:
      case OpKind::AvgPool: {
        auto& n = node(l.op == OpKind::MaxPool ? "MaxPool" : "AveragePool", l.name, in, {out});
        spatial(n, a, false);
        if (a.ceil_mode) attr(n, "ceil_mode", std::int64_t{1});
        if (l.op == OpKind::AvgPool) attr(n, "count_include_pad", std::int64_t{1});
        return;
      }
      case OpKind::GlobalAvgPool:
      case OpKind::Relu:
      case OpKind::Sigmoid:
      case OpKind::Tanh:
      case OpKind::Mul:
        node(same_op(l.op), l.name, in, {out});
        return;
      case OpKind::Relu6:
        node("Clip", l.name,
             {in[0], floats(l.name + ".min", {}, {0.0f}), floats(l.name + ".max", {}, {6.0f})}, {out});
        return;
      case OpKind::LeakyRelu:
        attr(node("LeakyRelu", l.name, in, {out}), "alpha", a.negative_slope);
        return;
      case OpKind::HardSigmoid: {
        auto& n = node("HardSigmoid", l.name, in, {out});
        attr(n, "alpha", a.slope);
        attr(n, "beta", a.offset);
        return;
      }
      case OpKind::BatchNorm: {
        StoredLayerWeights w = weights(l);
        static const char* kNames[] = {".weight", ".bias", ".running_mean", ".running_var"};
        std::vector<std::string> inputs{in[0]};
        for (std::size_t k = 0; k < 4; ++k)
          inputs.push_back(initializer(l.name + kNames[k], w.arrays[k].shape, std::move(w.arrays[k].bytes)));
        attr(node("BatchNormalization", l.name, inputs, {out}), "epsilon", w.epsilon);
        return;
      }
      case OpKind::LayerNorm:
        return emit_layer_norm(l);
      case OpKind::Attention:
        return emit_attention(l);
      case OpKind::Tokens: {  // as torchvision's ViT: Reshape [1, C, H W], Transpose (0, 2, 1)
        const Shape& x = input_shape(l);
        node("Reshape", l.name + "/flatten", {in[0], ints(l.name + ".shape", {1, x[0], x[1] * x[2]})},
             {l.name + "/flat"});
        attr(node("Transpose", l.name, {l.name + "/flat"}, {out}), "perm",
             std::vector<std::int64_t>{0, 2, 1});
        return;
      }
      case OpKind::ClassToken: {
        StoredLayerWeights w = weights(l);
        const std::string token =
            initializer(l.name + ".token", {1, 1, w.arrays[0].shape[0]}, std::move(w.arrays[0].bytes));
        attr(node("Concat", l.name, {token, in[0]}, {out}), "axis", std::int64_t{1});
        return;
      }
      case OpKind::PositionEmbedding: {
        StoredLayerWeights w = weights(l);
        Shape dims{1};
        dims.insert(dims.end(), l.output_shape.begin(), l.output_shape.end());
        node("Add", l.name, {in[0], initializer(l.name + ".embedding", dims, std::move(w.arrays[0].bytes))},
             {out});
        return;
      }
      case OpKind::Gelu: {  // PyTorch's decomposition: x (Erf(x / sqrt 2) + 1) / 2
        const std::string& x = in[0];
        node("Div", l.name + "/div", {x, floats(l.name + ".sqrt2", {}, {1.4142135f})}, {l.name + "/scaled"});
        node("Erf", l.name + "/erf", {l.name + "/scaled"}, {l.name + "/erf"});
        node("Add", l.name + "/add", {l.name + "/erf", floats(l.name + ".one", {}, {1.0f})},
             {l.name + "/plus_one"});
        node("Mul", l.name + "/mul", {x, l.name + "/plus_one"}, {l.name + "/times_x"});
        node("Mul", l.name, {l.name + "/times_x", floats(l.name + ".half", {}, {0.5f})}, {out});
        return;
      }
      case OpKind::Lrn: {
        auto& n = node("LRN", l.name, in, {out});
        attr(n, "size", a.lrn_size);
        attr(n, "alpha", a.lrn_alpha);
        attr(n, "beta", a.lrn_beta);
        attr(n, "bias", a.lrn_k);
        return;
      }
      case OpKind::Dropout:
        node("Dropout", l.name, {in[0], floats(l.name + ".ratio", {}, {static_cast<float>(a.rate)})}, {out});
        return;
      case OpKind::Softmax:  // the feature axis: channels of (C, H, W), the last axis otherwise
        attr(node("Softmax", l.name, in, {out}), "axis",
             std::int64_t{l.output_shape.size() == 3 ? 1 : static_cast<std::int64_t>(l.output_shape.size())});
        return;
      case OpKind::Flatten:
        attr(node("Flatten", l.name, in, {out}), "axis", std::int64_t{1});
        return;
      case OpKind::Add:
        node(in.size() == 2 ? "Add" : "Sum", l.name, in, {out});
        return;
      case OpKind::Concat:
        attr(node("Concat", l.name, in, {out}), "axis", a.axis + 1);
        return;
      case OpKind::Upsample: {
        const std::string scales =
            floats(l.name + ".scales", {4},
                   {1.0f, 1.0f, static_cast<float>(a.scale[0]), static_cast<float>(a.scale[1])});
        auto& n = node("Resize", l.name, {in[0], "", scales}, {out});
        if (a.mode == "nearest") {
          attr(n, "mode", std::string("nearest"));
          attr(n, "coordinate_transformation_mode", std::string("asymmetric"));
          attr(n, "nearest_mode", std::string("floor"));
        } else {
          attr(n, "mode", std::string("linear"));
          attr(n, "coordinate_transformation_mode", std::string("pytorch_half_pixel"));
        }
        return;
      }
      case OpKind::Lstm:
        return emit_lstm(l);
      case OpKind::Slice:
        node("Slice", l.name,
             {in[0], ints(l.name + ".starts", {a.start}), ints(l.name + ".ends", {a.end}),
              ints(l.name + ".axes", {a.axis + 1})},
             {out});
        return;
      case OpKind::ChannelShuffle: {  // as PyTorch writes it: Reshape to groups, Transpose, Reshape back
        const Shape& x = l.output_shape;
        node("Reshape", l.name + "/split",
             {in[0], ints(l.name + ".split_shape", {1, a.groups, x[0] / a.groups, x[1], x[2]})},
             {l.name + "/groups"});
        attr(node("Transpose", l.name + "/transpose", {l.name + "/groups"}, {l.name + "/transposed"}), "perm",
             std::vector<std::int64_t>{0, 2, 1, 3, 4});
        node("Reshape", l.name, {l.name + "/transposed", ints(l.name + ".shape", {1, x[0], x[1], x[2]})},
             {out});
        return;
      }
    }
    fail(l, "op", "has no ONNX form");
  }

  // LayerNormalization is opset 17; below it, PyTorch's decomposition over the last axis, and for a
  // (C, H, W) tensor a Transpose to channels last and back around it (as torchvision's LayerNorm2d).
  void emit_layer_norm(const Layer& l) {
    StoredLayerWeights w = weights(l);
    const bool image = l.output_shape.size() == 3;
    const std::string p = l.name + "/";
    std::string x = l.inputs.at(0);
    if (image) {
      attr(node("Transpose", p + "to_last", {x}, {p + "last"}), "perm",
           std::vector<std::int64_t>{0, 2, 3, 1});
      x = p + "last";
    }
    const auto mean = [&](const std::string& from, const std::string& to) {
      auto& n = node("ReduceMean", to, {from}, {to});
      attr(n, "axes", std::vector<std::int64_t>{-1});
      attr(n, "keepdims", std::int64_t{1});
    };
    mean(x, p + "mean");
    node("Sub", p + "sub", {x, p + "mean"}, {p + "centred"});
    node("Pow", p + "pow", {p + "centred", floats(l.name + ".two", {}, {2.0f})}, {p + "squared"});
    mean(p + "squared", p + "variance");
    node("Add", p + "add_eps",
         {p + "variance", floats(l.name + ".epsilon", {}, {static_cast<float>(l.attrs.epsilon)})},
         {p + "variance_eps"});
    node("Sqrt", p + "sqrt", {p + "variance_eps"}, {p + "deviation"});
    node("Div", p + "div", {p + "centred", p + "deviation"}, {p + "normalised"});
    const std::string scale =
        initializer(l.name + ".weight", w.arrays[0].shape, std::move(w.arrays[0].bytes));
    const std::string shift = initializer(l.name + ".bias", w.arrays[1].shape, std::move(w.arrays[1].bytes));
    node("Mul", p + "mul", {p + "normalised", scale}, {p + "scaled"});
    node("Add", l.name, {p + "scaled", shift}, {image ? p + "shifted" : l.name});  // names the layer
    if (image)
      attr(node("Transpose", p + "to_first", {p + "shifted"}, {l.name}), "perm",
           std::vector<std::int64_t>{0, 3, 1, 2});
  }

  // nn.MultiheadAttention as PyTorch 1.13 exports it (onnx_patterns.hpp), its Slice bounds constant.
  void emit_attention(const Layer& l) {
    StoredLayerWeights w = weights(l);
    const std::int64_t t = l.output_shape[0], f = l.output_shape[1], h = l.attrs.heads, d = f / h;
    const std::vector<float> weight = w.arrays[0].values(), bias = w.arrays[1].values();
    const auto part = [](const std::vector<float>& v, std::int64_t from, std::int64_t count) {
      return std::vector<float>(v.begin() + from, v.begin() + from + count);
    };
    const std::string p = l.name + "/";
    const auto perm = [&](const std::string& name, const std::string& from, std::vector<std::int64_t> order) {
      attr(node("Transpose", name, {from}, {name}), "perm", std::move(order));
      return name;
    };
    const std::string time_major = perm(p + "time_major", l.inputs.at(0), {1, 0, 2});
    const std::string in_proj =
        floats(l.name + ".in_proj_weight", {f, 3 * f},
               StoredArray::of({3 * f, f}, part(weight, 0, 3 * f * f)).transposed().values());
    node("MatMul", p + "in_proj", {time_major, in_proj}, {p + "in_proj"});
    node("Add", p + "packed",
         {p + "in_proj", floats(l.name + ".in_proj_bias", {3 * f}, part(bias, 0, 3 * f))}, {p + "packed"});
    const std::string head_shape = ints(l.name + ".head_shape", {t, h, d});
    const std::string axes = ints(l.name + ".axes", {-1});
    std::array<std::string, 3> qkv;
    for (std::int64_t k = 0; k < 3; ++k) {
      const std::string name = p + std::string(1, "qkv"[k]);
      node("Slice", name + "_slice",
           {p + "packed", ints(name + ".starts", {k * f}), ints(name + ".ends", {(k + 1) * f}), axes},
           {name + "_slice"});
      node("Reshape", name + "_heads", {name + "_slice", head_shape}, {name + "_heads"});
      qkv[static_cast<std::size_t>(k)] =
          perm(name + "_per_head", name + "_heads",
               k == 1 ? std::vector<std::int64_t>{1, 2, 0} : std::vector<std::int64_t>{1, 0, 2});
    }
    node("Div", p + "q_scaled", {qkv[0], floats(l.name + ".scale", {}, {std::sqrt(static_cast<float>(d))})},
         {p + "q_scaled"});
    node("MatMul", p + "scores", {p + "q_scaled", qkv[1]}, {p + "scores"});
    attr(node("Softmax", p + "weights", {p + "scores"}, {p + "weights"}), "axis", std::int64_t{-1});
    node("MatMul", p + "context", {p + "weights", qkv[2]}, {p + "context"});
    const std::string merged = perm(p + "merged", p + "context", {1, 0, 2});
    node("Reshape", p + "rows", {merged, ints(l.name + ".rows_shape", {t, f})}, {p + "rows"});
    attr(node("Gemm", p + "out_proj",
              {p + "rows", floats(l.name + ".out_proj_weight", {f, f}, part(weight, 3 * f * f, f * f)),
               floats(l.name + ".out_proj_bias", {f}, part(bias, 3 * f, f))},
              {p + "out_proj"}),
         "transB", std::int64_t{1});
    node("Reshape", p + "unflatten", {p + "out_proj", ints(l.name + ".sequence_shape", {t, 1, f})},
         {p + "unflatten"});
    attr(node("Transpose", l.name, {p + "unflatten"}, {l.name}), "perm", std::vector<std::int64_t>{1, 0, 2});
  }

  void emit_fc(const Layer& l) {
    const Shape& x = input_shape(l);
    StoredLayerWeights w = weights(l);
    const std::int64_t units = l.attrs.units;
    if (x.size() == 2) {  // a (T, F) sequence: MatMul by W^T [F, U], then Add the bias
      StoredArray t = w.arrays[0].transposed();
      const std::string product = l.attrs.bias ? l.name + "/matmul" : l.name;
      node("MatMul", l.name, {l.inputs[0], initializer(l.name + ".weight", t.shape, std::move(t.bytes))},
           {product});
      if (l.attrs.bias)
        node("Add", l.name + "/bias",
             {product, initializer(l.name + ".bias", {units}, std::move(w.arrays[1].bytes))}, {l.name});
      return;
    }
    std::string flat = l.inputs[0];
    if (x.size() != 1) {  // fc flattens its input: Reshape to [1, N] first
      flat = l.name + "/flat";
      node("Reshape", l.name + "/flatten", {l.inputs[0], ints(l.name + ".flat_shape", {1, -1})}, {flat});
    }
    std::vector<std::string> inputs{
        flat, initializer(l.name + ".weight", w.arrays[0].shape, std::move(w.arrays[0].bytes))};
    if (l.attrs.bias) inputs.push_back(initializer(l.name + ".bias", {units}, std::move(w.arrays[1].bytes)));
    attr(node("Gemm", l.name, inputs, {l.name}), "transB", std::int64_t{1});
  }

  // Per stacked layer: LSTM (layout 1: X [1, T, F], Y [1, T, dirs, H], Y_h [1, dirs, H]), then Reshape.
  void emit_lstm(const Layer& l) {
    const auto& a = l.attrs;
    const StoredLayerWeights w = weights(l);
    const std::int64_t dirs = a.bidirectional ? 2 : 1, h = a.units, t = input_shape(l).at(0);
    const std::size_t per_cell = a.bias ? 3 : 2;
    std::string x = l.inputs[0];
    for (std::int64_t k = 0; k < a.num_layers; ++k) {
      const bool last = k + 1 == a.num_layers;
      const std::string base =
          last ? l.name : fmt::format("{}/layer{}", l.name, k);  // the last keeps the name
      std::vector<float> wx, wh, b;
      std::int64_t f = 0;
      for (std::int64_t d = 0; d < dirs; ++d) {
        const std::size_t cell = static_cast<std::size_t>(k * dirs + d) * per_cell;
        const std::vector<float> vx = w.arrays[cell].values(), vh = w.arrays[cell + 1].values();
        f = w.arrays[cell].shape[1];
        const std::vector<float> vb = a.bias ? w.arrays[cell + 2].values() : std::vector<float>(4 * h, 0.0f);
        const auto gates = [&](std::vector<float>& to, const std::vector<float>& from, std::int64_t width) {
          const std::vector<float> ordered =
              onnx_lstm::reorder_gates(from.data(), h, width, onnx_lstm::kOnnxFromTorch);
          to.insert(to.end(), ordered.begin(), ordered.end());
        };
        gates(wx, vx, f);
        gates(wh, vh, h);
        gates(b, vb, 1);
        b.insert(b.end(), static_cast<std::size_t>(4 * h), 0.0f);  // R's bias: ONNX adds it to W's
      }
      std::vector<std::string> inputs{x, floats(base + ".W", {dirs, 4 * h, f}, wx),
                                      floats(base + ".R", {dirs, 4 * h, h}, wh)};
      if (a.bias) inputs.push_back(floats(base + ".B", {dirs, 8 * h}, b));
      const bool sequence = !last || a.return_sequences;
      auto& n = node("LSTM", base, inputs, {sequence ? base + "/Y" : "", sequence ? "" : base + "/Y_h"});
      attr(n, "hidden_size", h);
      attr(n, "direction", std::string(a.bidirectional ? "bidirectional" : "forward"));
      attr(n, "layout", std::int64_t{1});
      const std::string out = last ? l.name : base + "/out";
      node("Reshape", base + "/reshape",
           {sequence ? base + "/Y" : base + "/Y_h",
            ints(base + ".out_shape", sequence ? std::vector<std::int64_t>{1, t, dirs * h}
                                               : std::vector<std::int64_t>{1, dirs * h})},
           {out});
      x = out;
    }
  }

  const Graph& graph_;
  const LayerWeightSource& weights_;
  onnx::ModelProto model_;
  onnx::GraphProto* g_ = nullptr;
  std::size_t index_ = 0;
};

}  // namespace

namespace {

/// The model of `graph`; InputError when it is too large for one ONNX file.
onnx::ModelProto onnx_model(const Graph& graph, const LayerWeightSource& weights) {
  onnx::ModelProto model = Exporter(graph, weights).run();
  if (model.ByteSizeLong() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw InputError(
        "", "", fmt::format("model '{}' is too large for one ONNX file (protobuf's 2 GiB)", graph.name()));
  return model;
}

}  // namespace

std::string export_onnx(const Graph& graph, const LayerWeightSource& weights) {
  std::string bytes;
  if (!onnx_model(graph, weights).SerializeToString(&bytes))
    throw Error(fmt::format("cannot serialize model '{}' as ONNX", graph.name()));
  return bytes;
}

void write_onnx(const Graph& graph, const LayerWeightSource& weights, std::ostream& out) {
  if (!onnx_model(graph, weights).SerializeToOstream(&out)) out.setstate(std::ios::badbit);
}

}  // namespace coinfer
