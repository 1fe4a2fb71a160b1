#pragma once
/// Patterns of several nodes that PyTorch's ONNX export writes for one operation, recognised before
/// the importer maps them, so that each becomes one layer: its LayerNorm below opset 17 and its GELU
/// below opset 20, which the export decomposes into element-wise nodes, and nn.MultiheadAttention:
///
///     layer norm: m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(d ^ 2, [-1]);
///                 y = d / Sqrt(v + eps) * scale + shift
///     gelu:       y = x * (Erf(x / sqrt 2) + 1) * 0.5
///     attention:  [1, T, F] -Transpose-> [T, 1, F] -MatMul, Add-> P [T, 1, 3F]; q, k, v = three
///                 Slices of P, each Reshape [T, H, d] and Transpose (k to [H, d, T]); q / sqrt d;
///                 MatMul q k, Softmax, MatMul v; Transpose, Reshape [T, F], Gemm, Reshape
///                 [T, 1, F], Transpose back to [1, T, F]
///
/// A match needs every intermediate tensor read only inside the pattern, so that no value a later node
/// reads is lost when the nodes fold into one layer.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <onnx/onnx_pb.h>

namespace coinfer::onnx_patterns {

/// What the matchers read of the graph as the importer holds it.
struct GraphView {
  const onnx::GraphProto& graph;
  const std::unordered_map<std::string, std::vector<int>>& readers;  ///< tensor -> the nodes reading it
  /// The value of a constant holding one float, else nullopt.
  std::function<std::optional<float>(const std::string&)> scalar;
  /// Whether a tensor is a constant (an initializer or a Constant node's output).
  std::function<bool(const std::string&)> is_constant;
};

/// A LayerNorm over the last axis, as the nodes `nodes` (the ReduceMean it starts from first).
struct LayerNorm {
  std::vector<int> nodes;
  std::string input, output;
  std::string scale, shift;  ///< the constants
  double epsilon = 0.0;
};

/// The LayerNorm whose first ReduceMean is node `reduce_mean`, if the nodes after it form one.
std::optional<LayerNorm> layer_norm_at(const GraphView& g, int reduce_mean);

/// A GELU (the exact, erf form) as the nodes `nodes` (the Div it starts from first).
struct Gelu {
  std::vector<int> nodes;
  std::string input, output;
};

/// The GELU whose Div by sqrt 2 is node `div`, if the nodes after it form one.
std::optional<Gelu> gelu_at(const GraphView& g, int div);

/// nn.MultiheadAttention's self-attention as PyTorch 1.13 exports it (torchvision's ViT): the nodes by
/// role. The Slices' bounds, the Reshapes' targets and the scale are checked by the importer, which
/// knows the constants (folded from shape arithmetic that reads `packed` through Shape nodes).
struct Attention {
  std::string input, output;
  int transpose_in = -1, in_proj = -1, in_bias = -1;
  std::string packed;                                     ///< P = [q k v], [T, 1, 3F]
  std::array<int, 3> slices{}, reshapes{}, transposes{};  ///< q, k, v
  int scale = -1, scores = -1, softmax = -1, context = -1;
  int transpose_out = -1, reshape_out = -1, out_proj = -1, reshape_back = -1, transpose_back = -1;

  /// Every node above but the last (transpose_back, which the layer is mapped at).
  std::vector<int> inner_nodes() const;
};

/// The attention whose first Transpose (1, 0, 2) is node `transpose`, if the nodes after it form one.
std::optional<Attention> attention_at(const GraphView& g, int transpose);

}  // namespace coinfer::onnx_patterns
