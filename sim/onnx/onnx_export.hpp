#pragma once
/// Writes a graph of the IR as an ONNX model (opset 14) with its weights, so a zoo or JSON model opens
/// in other tools (Netron, onnxruntime) and imports back as the same layers:
///
///     const Graph g = build_zoo_model("resnet18");
///     write_file_atomic("resnet18.onnx", [&](std::ostream& out) { write_onnx(g, weights, out); });
///
/// One layer is one node, except where ONNX needs more than one to say the same thing: an fc layer
/// over a (C, H, W) input is Reshape to [1, N] + Gemm, over a (T, F) sequence MatMul + Add (its bias),
/// relu6 is Clip with constant bounds, channel_shuffle is Reshape + Transpose + Reshape (as PyTorch
/// writes it), and each stacked LSTM layer is an LSTM node (layout 1, batch
/// first) + Reshape of its [1, T, dirs, H] output to [1, T, dirs H]. The importer folds each of these
/// back (sim/onnx/onnx_import.hpp). Tensors carry the batch dimension 1 in front of coinfer's shapes.
/// What ONNX does not hold (a sparse layer, an fp16/int8 output) is an `InputError` naming the layer.
#include <functional>
#include <ostream>
#include <string>

#include "sim/graph/graph.hpp"

namespace coinfer {

/// The weights of one layer that takes them, in the layouts of sim/graph/stored_weights.hpp.
using LayerWeightSource = std::function<StoredLayerWeights(const Layer& layer, const Shape& input)>;

/// The ONNX opset the exporter writes.
inline constexpr std::int64_t kOnnxExportOpset = 14;

/// `graph` (inferred) as the bytes of an ONNX model file.
std::string export_onnx(const Graph& graph, const LayerWeightSource& weights);
/// The same bytes written to `out`, never held whole in memory a second time (the model's weights,
/// hundreds of MB for VGG-16, are then in memory once). A write that fails leaves `out` failed, for
/// its owner to report with the file's name (write_file_atomic does).
void write_onnx(const Graph& graph, const LayerWeightSource& weights, std::ostream& out);

}  // namespace coinfer
