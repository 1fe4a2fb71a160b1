// Matching profile rows to layers (sim/calibration/profile_fit.hpp, step 1).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/calibration/profile_fit.hpp"
#include "sim/calibration/profile_text.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/op.hpp"

namespace coinfer {
namespace {

using Kinds = std::vector<OpKind>;

// The ops of ours a profiled op type can be, keyed by the type lowercased with torch's "aten::"
// prefix and in-place "_" suffix removed (`aten::relu_` -> relu, tflite `CONV_2D` -> conv_2d).
const std::map<std::string, Kinds>& kinds_of_type() {
  using K = OpKind;
  static const std::map<std::string, Kinds> table{
      // torch (aten ops a module's forward records at top level)
      {"conv2d", {K::Conv2d, K::DepthwiseConv2d}},
      {"convolution", {K::Conv2d, K::DepthwiseConv2d, K::ConvTranspose2d}},
      {"conv_transpose2d", {K::ConvTranspose2d}},
      {"linear", {K::FullyConnected}},
      {"addmm", {K::FullyConnected}},
      {"matmul", {K::FullyConnected}},
      {"max_pool2d", {K::MaxPool}},
      {"max_pool2d_with_indices", {K::MaxPool}},
      {"avg_pool2d", {K::AvgPool, K::GlobalAvgPool}},
      {"adaptive_avg_pool2d", {K::GlobalAvgPool, K::AvgPool}},
      {"relu", {K::Relu}},
      {"hardtanh", {K::Relu6}},
      {"relu6", {K::Relu6}},
      {"sigmoid", {K::Sigmoid}},
      {"tanh", {K::Tanh}},
      {"leaky_relu", {K::LeakyRelu}},
      {"batch_norm", {K::BatchNorm}},
      {"layer_norm", {K::LayerNorm}},
      {"gelu", {K::Gelu}},
      {"local_response_norm", {K::Lrn}},
      {"dropout", {K::Dropout}},
      {"softmax", {K::Softmax}},
      {"flatten", {K::Flatten}},
      {"view", {K::Flatten}},
      {"reshape", {K::Flatten}},
      {"add", {K::Add}},
      {"cat", {K::Concat}},
      {"lstm", {K::Lstm}},
      {"upsample_nearest2d", {K::Upsample}},
      {"upsample_bilinear2d", {K::Upsample}},
      // TFLite builtin operators
      {"conv_2d", {K::Conv2d}},
      {"depthwise_conv_2d", {K::DepthwiseConv2d}},
      {"transpose_conv", {K::ConvTranspose2d}},
      {"fully_connected", {K::FullyConnected}},
      {"max_pool_2d", {K::MaxPool}},
      {"average_pool_2d", {K::AvgPool, K::GlobalAvgPool}},
      {"mean", {K::GlobalAvgPool}},
      {"logistic", {K::Sigmoid}},
      {"local_response_normalization", {K::Lrn}},
      {"concatenation", {K::Concat}},
      {"resize_nearest_neighbor", {K::Upsample}},
      {"resize_bilinear", {K::Upsample}},
      {"unidirectional_sequence_lstm", {K::Lstm}},
  };
  return table;
}

std::string normalized_type(std::string type) {
  if (type.starts_with("aten::")) type.erase(0, 6);
  while (type.size() > 1 && type.back() == '_') type.pop_back();
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return type;
}

// Layers a profile may time inside the row before them (a conv with its batch_norm and a
// fused activation, a TFLite node with a fused RELU), or not time at all (dropout, flatten).
bool is_follower(OpKind op) {
  switch (op) {
    case OpKind::BatchNorm:
    case OpKind::Relu:
    case OpKind::Relu6:
    case OpKind::LeakyRelu:
    case OpKind::Sigmoid:
    case OpKind::HardSigmoid:
    case OpKind::Gelu:
    case OpKind::Tanh:
    case OpKind::Dropout:
    case OpKind::Flatten:
      return true;
    default:
      return false;
  }
}

std::string row_label(const ProfileRow& row) {
  return row.op_type.empty() ? fmt::format("row '{}' (line {})", row.name, row.line)
                             : fmt::format("row '{}' ({}, line {})", row.name, row.op_type, row.line);
}

std::vector<const Layer*> work_layers(const Graph& graph) {
  std::vector<const Layer*> out;
  for (std::size_t i : graph.topological_order())
    if (graph.layer(i).op != OpKind::Input) out.push_back(&graph.layer(i));
  return out;
}

MatchedRow matched(const ProfileRow& row, std::vector<std::string> layers) {
  MatchedRow m;
  m.row = row;
  m.layers = std::move(layers);
  m.measured_s = row.ms * 1e-3;
  return m;
}

// Every row names a layer with work: each row is that layer.
bool match_by_name(const ProfiledModel& in, const std::vector<const Layer*>& layers, ModelMatch& out) {
  std::set<std::string> names, seen;
  for (const auto* l : layers) names.insert(l->name);
  for (const auto& row : in.profile.rows)
    if (!names.contains(row.name)) return false;
  for (const auto& row : in.profile.rows) {
    if (!seen.insert(row.name).second)
      throw InputError(in.profile.file, line_path(row.line),
                       fmt::format("layer '{}' has a second row; expected one row per layer", row.name));
    out.rows.push_back(matched(row, {row.name}));
  }
  for (const auto* l : layers)
    if (!seen.contains(l->name)) out.unmatched.push_back(l->name);
  out.match_by = "name";
  return true;
}

bool type_matches(const ProfileRow& row, const Layer& layer) {
  if (row.op_type.empty()) return true;  // csv: no type, one row per layer in order
  const auto& table = kinds_of_type();
  const std::string type = normalized_type(row.op_type);
  auto it = table.find(type);
  if (it == table.end()) return type == op_name(layer.op);  // a profile using our own op names
  return std::find(it->second.begin(), it->second.end(), layer.op) != it->second.end();
}

// Rows in order over the layers with work. A layer the next row's type does not fit is timed
// inside the row before it (a fused follower: batch_norm, activation) or, with no row before,
// not timed (dropout, flatten); any other misfit is an error naming the row.
void match_by_order(const ProfiledModel& in, const std::vector<const Layer*>& layers, ModelMatch& out) {
  out.match_by = "order";
  const auto& rows = in.profile.rows;
  // Untyped rows (csv) carry nothing to check a position against: in order only one per layer.
  if (rows.front().op_type.empty() && rows.size() != layers.size()) {
    std::set<std::string> names;
    for (const auto* l : layers) names.insert(l->name);
    const auto stray =
        std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return !names.contains(r.name); });
    throw InputError(
        in.profile.file, line_path(stray->line),
        fmt::format("{} names no layer of model '{}', and the rows cannot be matched in order: "
                    "that needs one row per layer with work ({}, got {}); name the rows after the "
                    "layers (`coinfer model show {}`)",
                    row_label(*stray), in.model, layers.size(), rows.size(), in.model));
  }
  std::size_t next = 0;
  auto absorb_or_skip = [&](const Layer& layer, const ProfileRow* row) {
    if (!out.rows.empty() && is_follower(layer.op) && !rows.front().op_type.empty())
      out.rows.back().layers.push_back(layer.name);
    else if (is_follower(layer.op))
      out.unmatched.push_back(layer.name);
    else if (row)
      throw InputError(in.profile.file, line_path(row->line),
                       fmt::format("{} does not fit layer '{}' ({}), the next layer of model '{}' with "
                                   "work; the profile's ops differ from the model's (name the rows after "
                                   "the layers to match by name)",
                                   row_label(*row), layer.name, op_name(layer.op), in.model));
    else
      out.unmatched.push_back(layer.name);
  };
  for (const auto& row : rows) {
    while (next < layers.size() && !type_matches(row, *layers[next])) absorb_or_skip(*layers[next++], &row);
    if (next == layers.size())
      throw InputError(in.profile.file, line_path(row.line),
                       fmt::format("{} matches no layer: model '{}' has {} layers with work and none is "
                                   "left for it (expected rows in the model's layer order, or named "
                                   "after its layers)",
                                   row_label(row), in.model, layers.size()));
    out.rows.push_back(matched(row, {layers[next++]->name}));
  }
  while (next < layers.size()) absorb_or_skip(*layers[next++], nullptr);
}

}  // namespace

ModelMatch match_profile(const ProfiledModel& in) {
  const auto layers = work_layers(in.graph);
  if (in.profile.rows.empty()) throw InputError(in.profile.file, "", "expected at least one profile row");
  ModelMatch out;
  out.model = in.model;
  if (!match_by_name(in, layers, out)) match_by_order(in, layers, out);
  for (const auto& m : out.rows)
    if (m.layers.size() > 1)
      out.fused.push_back(fmt::format("{} covers {}", row_label(m.row), fmt::join(m.layers, ", ")));
  return out;
}

}  // namespace coinfer
