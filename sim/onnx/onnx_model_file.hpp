#pragma once
/// The file side of the ONNX importer: parsing and validating a ModelProto, and reading the values of
/// constant tensors (initializers and Constant nodes, raw or typed, inline or in an external file).
#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "sim/graph/stored_weights.hpp"

namespace coinfer::onnx_file {

/// Opsets whose node semantics the importer follows (the default domain).
inline constexpr std::int64_t kMinOpset = 11;

/// Parses `file`, checks it is an ONNX model of a supported opset, runs onnx::checker and ONNX shape
/// inference (so `graph.value_info` holds the shapes ONNX derives). Throws `InputError(file, ...)`.
onnx::ModelProto read_model(const std::string& file);

/// Protobuf's parse of `file` alone (mapped, as read_model reads it), without any check: the reference
/// the import benchmark measures against. Throws `InputError` when the file cannot be read or parsed.
onnx::ModelProto parse_file(const std::string& file);

/// The same for a model held in memory; `name` stands for the file in errors. External data is not
/// read (there is no folder to read it from).
onnx::ModelProto parse_model(const std::string& bytes, const std::string& name);

/// The default-domain opset of `model`, as read_model checked it.
std::int64_t default_opset(const onnx::ModelProto& model);

/// The highest default-domain opset this build of ONNX knows.
std::int64_t max_opset();

/// Integer values of a constant tensor (int64 or int32), for shapes, pads and axes.
std::vector<std::int64_t> int_values(const onnx::TensorProto& t, const std::string& model_dir);
/// Float values of a constant tensor (float, double or float16 not accepted: float only).
std::vector<float> float_values(const onnx::TensorProto& t, const std::string& model_dir);

/// The tensor as a StoredArray. Inline raw data is moved out of `t` (no copy), so a tensor can be
/// taken once; the caller keeps what it took. Throws `InputError` for a non-float tensor.
StoredArray take_floats(onnx::TensorProto& t, const std::string& model_dir);

/// The dimensions of a tensor.
Shape dims_of(const onnx::TensorProto& t);

}  // namespace coinfer::onnx_file
