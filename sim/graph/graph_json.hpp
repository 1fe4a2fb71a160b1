#pragma once
/// The JSON model format (`coinfer model export`), documented in README "Model JSON":
///
///     {"format": "coinfer-model/1", "name": "tiny",
///      "layers": [{"name": "data", "op": "input", "shape": [3, 32, 32]},
///                 {"name": "conv1", "op": "conv2d", "inputs": ["data"], "out_channels": 16,
///                  "kernel": [3, 3], "stride": [1, 1], "padding": [1, 1], ...}]}
///
/// Attributes sit next to name/op/inputs; each op accepts only its own keys. Saving writes
/// every key of the op, so `graph_from_json(graph_to_json(g)) == g` exactly.
#include <string>

#include "sim/core/json_access.hpp"
#include "sim/graph/graph.hpp"

namespace coinfer {

inline constexpr const char* kModelFormat = "coinfer-model/1";

/// Canonical JSON of a graph (attributes only; derived values are not stored).
Json graph_to_json(const Graph& graph);
/// Parses and infers a graph; throws `InputError` with the JSON path (`layers[12].stride`).
Graph graph_from_json(const Json& json);

/// Reads a model file; errors carry the file name.
Graph load_model_file(const std::string& file);

/// `model show --json`: {"name", "input", "total_params", "total_macs", "layers": [{"name", "op",
/// "inputs", "output_shape", "params", "macs", "output_bytes"}]}. Requires an inferred graph.
Json graph_summary_json(const Graph& graph);

/// Attribute keys op `op` accepts in JSON (besides name, op, inputs, dtype).
std::vector<std::string> attribute_keys(OpKind op);

}  // namespace coinfer
