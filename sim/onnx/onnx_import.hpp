#pragma once
/// Reads an ONNX model (as `torch.onnx.export` writes it) into the graph IR, with its weights.
///
///     Graph g = import_onnx("resnet18.onnx");   // g.stored_weights(): the file's initializers
///     ForwardPass fp(g, 1);                       // runs the network the file describes
///
/// The importer parses the protobuf, runs ONNX's checker and shape inference, folds what is constant
/// at inference (Identity, Constant, zero Pad, Pad into the next conv or average pool) and maps each
/// remaining node to one layer (an fc's flattening Reshape or bias Add to that fc); its shapes are then
/// checked against ONNX's own. It reads back what sim/onnx/onnx_export.hpp writes. A model
/// is one sample: the batch dimension of its input must be 1 and every dimension fixed. Anything the
/// IR does not hold (an op, an attribute value, a dynamic dimension, an opset out of range) is an
/// `InputError` naming the file, the node (`graph.node[i]`) and what is supported; never an
/// approximation. docs/guide/your-own-model.md lists what maps to what.
#include <string>
#include <string_view>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

/// True for a name ending in `.onnx`.
bool is_onnx_file(std::string_view name);

/// The inferred graph of the ONNX model in `file`, named after the file's stem, with the weights the
/// file holds. Throws `InputError` (exit 2 in the CLI) for every problem with the file.
Graph import_onnx(const std::string& file);

/// The same for the bytes of an ONNX file held in memory (the fuzz target); `name` stands for the file
/// in errors and names the graph.
Graph import_onnx_bytes(const std::string& bytes, const std::string& name);

/// The ONNX op types the importer maps, sorted (for error messages and the docs).
std::vector<std::string> onnx_supported_ops();

}  // namespace coinfer
