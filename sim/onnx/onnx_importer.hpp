#pragma once
/// The ONNX importer's state and mapping steps (onnx_import.hpp is the interface). One class, its
/// definitions split by what they map: onnx_import.cpp (values, layers, errors, the node loop),
/// onnx_import_layers.cpp (convolutions, pools, dense and recurrent layers, element-wise ops),
/// onnx_import_fold.cpp (constants and PyTorch's shape arithmetic) and onnx_import_transformer.cpp
/// (what PyTorch decomposes: LayerNorm, GELU, attention; ConvNeXt's and ViT's layouts).
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "sim/graph/graph.hpp"
#include "sim/graph/stored_weights.hpp"
#include "sim/onnx/onnx_patterns.hpp"

namespace coinfer::onnx_import_detail {

// What an ONNX tensor name stands for while the nodes are mapped: a layer's output (an activation,
// possibly seen through a pending zero Pad that the next conv or average pool absorbs) or a constant.
struct Value {
  std::string layer;  // producing layer; empty for a constant
  Shape shape;        // coinfer's shape (no batch dimension)
  std::array<std::int64_t, 2> pad{0, 0};
  onnx::TensorProto* constant = nullptr;
  bool lstm_output = false;  // an LSTM's Y or Y_h: read only through a Reshape to coinfer's shape
  // ONNX holds the (C, H, W) tensor of `layer` as [1, H, W, C] (after a Transpose (0, 2, 3, 1), as
  // ConvNeXt's blocks run their LayerNorm and Linear layers); read only by the ops that know it.
  bool channels_last = false;
  // Set for the packed q, k, v of an attention (its layer mapped later): the ONNX shape Shape reads.
  Shape onnx_dims = {};
  bool is_activation() const { return !layer.empty(); }
};

// Padding beyond any real network's (a guard against sums that overflow).
constexpr std::int64_t kMaxPad = std::int64_t{1} << 20;

/// The ONNX op types the importer maps, sorted.
extern const std::vector<std::string> kSupported;

class Importer {
 public:
  Importer(std::string file, onnx::ModelProto model)
      : file_(std::move(file)),
        dir_(std::filesystem::path(file_).parent_path().string()),
        model_(std::move(model)),
        weights_(std::make_shared<StoredWeights>()) {}

  Graph run();

 private:
  // How many nodes read each tensor, through Identity chains (the exporter dedups equal initializers
  // into Identity nodes of one), keyed by the tensor the chain starts from.
  void count_uses(const onnx::GraphProto& g);

  // ---- errors and attributes ----
  [[noreturn]] void fail_at(const std::string& path, const std::string& message) const;
  [[noreturn]] void fail(const onnx::NodeProto& n, const std::string& message) const;

  static const onnx::AttributeProto* attr(const onnx::NodeProto& n, const std::string& name);
  static std::int64_t int_attr(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback);
  static double float_attr(const onnx::NodeProto& n, const std::string& name, double fallback);
  static std::vector<std::int64_t> ints_attr(const onnx::NodeProto& n, const std::string& name);
  static std::string string_attr(const onnx::NodeProto& n, const std::string& name, std::string fallback);

  // ---- values ----
  Value& value(const std::string& name);
  const Value& activation(const onnx::NodeProto& n, int input);
  onnx::TensorProto* constant(const onnx::NodeProto& n, int input);
  // A weight array. An initializer read by one node moves its bytes out of the protobuf (no copy); one
  // shared by several nodes is copied for each.
  StoredArray weight(const onnx::NodeProto& n, int input);
  std::vector<std::int64_t> ints_of(const onnx::NodeProto& n, int input);
  std::optional<float> scalar_of(const onnx::NodeProto& n, int input);
  void alias(const onnx::NodeProto& n, const std::string& from) { values_[n.output(0)] = value(from); }

  // ---- layers ----
  std::string layer_name(const onnx::NodeProto& n);

  // Adds `l` (inputs and attributes set), derives its shape and checks it against ONNX's.
  void add_layer(const onnx::NodeProto& n, Layer l, const std::string& output,
                 std::vector<StoredArray> arrays = {}, double epsilon = 1e-5, bool channels_last = false);
  Layer layer(const onnx::NodeProto& n, OpKind op, const std::vector<std::string>& inputs);

  void check_shape(const onnx::NodeProto& n, const std::string& output, const Shape& ours,
                   bool channels_last = false);

  void add_input(const onnx::ValueInfoProto& vi, int index);

  // pads [b0, b1, e0, e1] of a 2-D op: symmetric, plus a pending Pad on its input.
  std::array<std::int64_t, 2> spatial_pads(const onnx::NodeProto& n, const Value& in);
  static std::array<std::int64_t, 2> pair(const std::vector<std::int64_t>& v, std::int64_t fallback);
  void require_2d(const onnx::NodeProto& n, const Value& in);
  void require_unpadded(const onnx::NodeProto& n, const Value& in);

  // ---- the nodes ----
  void map_node(onnx::NodeProto& n);

  void map_constant(onnx::NodeProto& n);

  // A dropout layer (the identity at inference), its rate from `ratio` (an input from opset 12).
  void map_dropout(const onnx::NodeProto& n);

  // Every node reading `tensor` has op type `op` (and there is one at least).
  bool only_read_by(const std::string& tensor, const std::string& op) const;

  void map_pad(const onnx::NodeProto& n);

  void map_conv(const onnx::NodeProto& n);

  // What Conv and ConvTranspose share: the kernel (the weight's, as kernel_shape says), strides,
  // dilations and pads.
  void spatial_attrs(const onnx::NodeProto& n, const Value& in, const StoredArray& w, LayerAttrs& a);

  // Adds a conv-like layer with its weight `w`, and its bias (input 2) when the node has one.
  void add_weighted(const onnx::NodeProto& n, Layer l, StoredArray w);

  void map_conv_transpose(const onnx::NodeProto& n);

  // MatMul of a [1, T, F] sequence by a constant [F, U]: an fc layer over the sequence (as PyTorch's
  // Linear on a 3-D input exports), taking the bias from an Add of a constant [U] that alone reads it.
  //
  // On a channels-last [1, H, W, C] view (ConvNeXt's pointwise Linear) the same product is a 1x1
  // convolution of the (C, H, W) tensor, whose output stays channels last.
  void map_matmul(const onnx::NodeProto& n);

  // The bias of `n`'s product: an Add of a constant of `units` values that alone reads n's output
  // (marked mapped), and the Add's output; nullopt when there is none.
  std::optional<std::pair<StoredArray, std::string>> fused_bias(const onnx::NodeProto& n, std::int64_t units);

  // Resize by integer factors: nearest as PyTorch exports it (asymmetric, floor), or linear with half-pixel
  // centres (align_corners = false).
  void map_resize(const onnx::NodeProto& n);

  // LSTM with layout 1 (batch first, as coinfer exports): one lstm layer; its Y [1, T, dirs, H] or Y_h
  // [1, dirs, H] is read through a Reshape to coinfer's (T, dirs H) or (dirs H).
  void map_lstm(const onnx::NodeProto& n);

  void map_gemm(const onnx::NodeProto& n);

  void map_pool(const onnx::NodeProto& n);

  void map_global_pool(const onnx::NodeProto& n, bool keepdims);

  void map_reduce_mean(const onnx::NodeProto& n);

  void map_flatten(const onnx::NodeProto& n);

  // The shape a Reshape node asks for, its 0s (copy) and -1 (the rest) resolved against `dims` (batch
  // included); a product past int64 leaves the -1 unresolved (the shape then matches nothing).
  std::vector<std::int64_t> reshape_target(const onnx::NodeProto& n, const Shape& dims);

  // The only node reading `tensor`, if it is one of type `op`; else -1.
  int sole_reader(const std::string& tensor, const std::string& op) const;

  // ShuffleNet's channel shuffle as PyTorch exports it: Reshape [1, C, H, W] to [1, g, C/g, H, W],
  // Transpose (0, 2, 1, 3, 4), Reshape back to [1, C, H, W]. Maps the three to one channel_shuffle
  // layer (named as the last Reshape) and returns true; false when `n` does not start that pattern.
  bool map_channel_shuffle(const onnx::NodeProto& n, const Value& in,
                           const std::vector<std::int64_t>& target);

  void map_reshape(const onnx::NodeProto& n);

  // Slice of one axis (not the batch), step 1: a slice layer; the whole axis folds away.
  void map_slice(const onnx::NodeProto& n);

  // ---- constant folding: the shape arithmetic PyTorch writes (Shape, Gather, + - * / of integers) ----
  void set_ints(const std::string& name, const Shape& dims, const std::vector<std::int64_t>& v);

  void map_shape(const onnx::NodeProto& n);

  bool is_int_constant(const onnx::NodeProto& n, int input);

  // Gather and integer arithmetic on constants: folded to a constant; false for anything else.
  bool fold(const onnx::NodeProto& n);

  // ConstantOfShape of an integer shape with an integer value (PyTorch's expand(-1) arithmetic).
  bool fold_constant_of_shape(const onnx::NodeProto& n);

  // Expand of a constant by a shape that leaves it as it is (PyTorch's expand(1, -1, -1) of ViT's class
  // token for a batch of 1): the same constant.
  bool fold_expand(const onnx::NodeProto& n);

  void map_batch_norm(const onnx::NodeProto& n);

  // Add (two inputs) and Sum (any number): a residual add of equal shapes.
  void map_add(const onnx::NodeProto& n);

  void map_mul(const onnx::NodeProto& n);

  // A [1, C, H, W] tensor times a constant [C, 1, 1] (ConvNeXt's layer scale): a 1x1 depthwise
  // convolution without bias, which computes exactly that.
  void map_channel_scale(const onnx::NodeProto& n);
  // A binary node of one computed tensor and one constant: the tensor, the constant, and the constant's
  // dimensions with a leading 1 dropped when it has one axis more than the tensor (the batch).
  struct TensorAndConstant {
    Value tensor;
    StoredArray constant;
    Shape dims;
  };
  TensorAndConstant tensor_and_constant(const onnx::NodeProto& n);
  // Checks that each array holds one value per feature (`f`) and shapes it [f].
  void per_feature(const onnx::NodeProto& n, std::vector<StoredArray>& arrays, std::int64_t f);

  void map_concat(const onnx::NodeProto& n);

  void map_clip(const onnx::NodeProto& n);

  void map_lrn(const onnx::NodeProto& n);

  void map_softmax(const onnx::NodeProto& n);

  // ---- what PyTorch decomposes: LayerNorm, GELU (onnx_patterns.hpp), and ConvNeXt's channels-last view ----
  onnx_patterns::GraphView view();

  // The index of `tensor` among n's inputs.
  int input_index(const onnx::NodeProto& n, const std::string& tensor) const;

  // A LayerNorm over the feature axis: the channels of a channels-last [1, H, W, C] view, the last axis
  // of [1, T, F] or [1, F]. Named as the node that writes its output (PyTorch's last Add).
  void map_layer_norm(const onnx::NodeProto& n, const onnx_patterns::LayerNorm& m);

  // LayerNormalization (opset 17) over the last axis, with its scale and bias.
  void map_layer_normalization(const onnx::NodeProto& n);

  void map_gelu(const onnx::NodeProto& n, const onnx_patterns::Gelu& m);

  // Transpose (0, 2, 3, 1) of [1, C, H, W] and back (0, 3, 1, 2): no layer, the view changes. A
  // Transpose (1, 0, 2) of a [1, T, F] sequence starts an attention.
  void map_transpose(const onnx::NodeProto& n);

  // ---- ViT: nn.MultiheadAttention (onnx_patterns.hpp), patch tokens, class token, position embedding ----

  // At the attention's first Transpose: the inner nodes wait (marked mapped); the packed q, k, v stand
  // for Shape nodes; the layer is mapped at the last Transpose, when the Slices' bounds have folded.
  void begin_attention(const onnx::NodeProto& n, const onnx_patterns::Attention& m);

  void map_attention(const onnx::NodeProto& last, const onnx_patterns::Attention& m);

  // Reshape [1, C, H, W] to [1, C, H W] read only by a Transpose (0, 2, 1): the (H W, C) tokens.
  bool map_tokens(const onnx::NodeProto& n, const Value& in, const std::vector<std::int64_t>& target);

  // Concat of a constant [1, 1, F] (expanded or not) before a [1, T, F] sequence: ViT's class token.
  void map_class_token(const onnx::NodeProto& n);

  // Add of a computed tensor and a constant of its shape: a learned position embedding.
  void map_position_embedding(const onnx::NodeProto& n);

  // Gather of one index along the steps of a [1, T, F] sequence (ViT's class token out): slice + flatten.
  void map_gather(const onnx::NodeProto& n);

  void map_unary(const onnx::NodeProto& n, OpKind op);

  std::string file_, dir_;
  onnx::ModelProto model_;
  std::shared_ptr<StoredWeights> weights_;
  Graph graph_;
  std::unordered_map<std::string, Value> values_;
  std::unordered_map<std::string, const onnx::ValueInfoProto*>
      onnx_shapes_;                                                   // into model_, which outlives it
  std::unordered_map<std::string, int> uses_;                         // see count_uses
  std::unordered_map<std::string, std::vector<int>> consumers_;       // tensor -> the nodes reading it
  std::unordered_map<int, onnx_patterns::Attention> attention_ends_;  // last node -> the attention
  std::unordered_set<int> fused_;  // nodes already mapped: Constants, an fc's bias Add, a shuffle's tail
  std::deque<onnx::TensorProto> folded_;  // constants folded from shape arithmetic (stable addresses)
  std::int64_t opset_ = 0;
  std::unordered_set<std::string> names_;
  int node_index_ = 0;
};

}  // namespace coinfer::onnx_import_detail
