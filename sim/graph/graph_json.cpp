#include "sim/graph/graph_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using Pair = std::array<std::int64_t, 2>;

const std::vector<std::string> kSpatial{"kernel", "stride", "padding", "dilation"};

std::vector<std::string> concat_keys(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Json pair_json(const Pair& p) { return Json::array({p[0], p[1]}); }

// A pair attribute is written as one integer (square) or a list of one or two integers.
Pair read_pair(const Json& obj, const char* key, const std::string& path, Pair fallback) {
  const Json* v = json_find(obj, key, path);
  if (!v) return fallback;
  const auto p = join_path(path, key);
  const auto expectation = "expected 1 or 2 integers";
  if (v->is_number()) {
    const auto x = json_as_int(*v, p);
    return {x, x};
  }
  if (!v->is_array() || v->empty() || v->size() > 2) throw InputError("", p, expectation);
  // json_as_int, not get<int64_t>(): an integer beyond int64 (2^70, or an unsigned above INT64_MAX)
  // is "integer out of range", never wrapped.
  const auto element = [&](std::size_t i) {
    const Json& e = (*v)[i];
    const bool integral =
        e.is_number_integer() || (e.is_number_float() && std::floor(e.get<double>()) == e.get<double>());
    if (!integral) throw InputError("", p, expectation);
    return json_as_int(e, index_path(p, i));
  };
  const auto a = element(0);
  return {a, v->size() == 2 ? element(1) : a};
}

DType read_dtype(const Json& obj, const std::string& path) {
  const Json* v = json_find(obj, "dtype", path);
  if (!v) return DType::Fp32;
  const auto s = json_enum(obj, "dtype", path, {"fp32", "fp16", "int8"});
  return s == "fp16" ? DType::Fp16 : s == "int8" ? DType::Int8 : DType::Fp32;
}

LayerAttrs read_attrs(OpKind op, const Json& j, const std::string& path) {
  LayerAttrs a;
  auto pos = [&](const char* key) { return json_int(j, key, path, 1); };
  switch (op) {
    case OpKind::Input: {
      const auto shape = json_int_array(j, "shape", path, -1, 1);
      if (shape.empty())
        throw InputError("", join_path(path, "shape"), "expected a non-empty list of dimensions");
      a.shape = shape;
      break;
    }
    case OpKind::Conv2d:
    case OpKind::ConvTranspose2d:
      a.out_channels = pos("out_channels");
      a.groups = json_int_or(j, "groups", path, 1, 1);
      [[fallthrough]];
    case OpKind::DepthwiseConv2d:
      if (!json_find(j, "kernel", path)) throw InputError("", join_path(path, "kernel"), "missing key");
      a.kernel = read_pair(j, "kernel", path, a.kernel);
      a.stride = read_pair(j, "stride", path, a.stride);
      a.padding = read_pair(j, "padding", path, a.padding);
      a.dilation = read_pair(j, "dilation", path, a.dilation);
      a.output_padding = read_pair(j, "output_padding", path, a.output_padding);
      a.multiplier = json_int_or(j, "multiplier", path, 1, 1);
      a.bias = json_bool_or(j, "bias", path, true);
      a.sparsity = json_number_or(j, "sparsity", path, 0.0);
      break;
    case OpKind::FullyConnected:
      a.units = pos("units");
      a.bias = json_bool_or(j, "bias", path, true);
      a.sparsity = json_number_or(j, "sparsity", path, 0.0);
      break;
    case OpKind::MaxPool:
    case OpKind::AvgPool:
      if (!json_find(j, "kernel", path)) throw InputError("", join_path(path, "kernel"), "missing key");
      a.kernel = read_pair(j, "kernel", path, a.kernel);
      a.stride = read_pair(j, "stride", path, a.kernel);  // a pool's stride defaults to its kernel
      a.padding = read_pair(j, "padding", path, a.padding);
      a.ceil_mode = json_bool_or(j, "ceil_mode", path, false);
      break;
    case OpKind::LeakyRelu:
      a.negative_slope = json_number_or(j, "negative_slope", path, 0.01);
      break;
    case OpKind::HardSigmoid:
      a.slope = json_number_or(j, "slope", path, 0.2);
      a.offset = json_number_or(j, "offset", path, 0.5);
      break;
    case OpKind::Lrn:
      a.lrn_size = json_int_or(j, "size", path, 5);
      a.lrn_alpha = json_number_or(j, "alpha", path, 1e-4);
      a.lrn_beta = json_number_or(j, "beta", path, 0.75);
      a.lrn_k = json_number_or(j, "k", path, 1.0);
      break;
    case OpKind::Dropout:
      a.rate = json_number_or(j, "rate", path, 0.5);
      break;
    case OpKind::Concat:
      a.axis = json_int_or(j, "axis", path, 0);
      break;
    case OpKind::Slice:
      a.axis = json_int_or(j, "axis", path, 0);
      a.start = json_int(j, "start", path);
      a.end = json_int(j, "end", path);
      break;
    case OpKind::ChannelShuffle:
      a.groups = json_int(j, "groups", path, 1);
      break;
    case OpKind::LayerNorm:
      a.epsilon = json_number_or(j, "epsilon", path, 1e-5);
      break;
    case OpKind::Attention:
      a.heads = json_int(j, "heads", path, 1);
      break;
    case OpKind::Lstm:
      a.units = pos("units");
      a.num_layers = json_int_or(j, "num_layers", path, 1, 1);
      a.bidirectional = json_bool_or(j, "bidirectional", path, false);
      a.return_sequences = json_bool_or(j, "return_sequences", path, true);
      a.bias = json_bool_or(j, "bias", path, true);
      break;
    case OpKind::Upsample:
      a.scale = read_pair(j, "scale", path, a.scale);
      a.mode = json_string_or(j, "mode", path, "nearest");
      break;
    default:
      break;
  }
  a.dtype = read_dtype(j, path);
  return a;
}

void write_attrs(const Layer& l, Json& j) {
  const auto& a = l.attrs;
  for (const auto& key : attribute_keys(l.op)) {
    if (key == "shape")
      j[key] = a.shape;
    else if (key == "out_channels")
      j[key] = a.out_channels;
    else if (key == "kernel")
      j[key] = pair_json(a.kernel);
    else if (key == "stride")
      j[key] = pair_json(a.stride);
    else if (key == "padding")
      j[key] = pair_json(a.padding);
    else if (key == "dilation")
      j[key] = pair_json(a.dilation);
    else if (key == "output_padding")
      j[key] = pair_json(a.output_padding);
    else if (key == "groups")
      j[key] = a.groups;
    else if (key == "multiplier")
      j[key] = a.multiplier;
    else if (key == "bias")
      j[key] = a.bias;
    else if (key == "sparsity") {
      if (a.sparsity != 0.0) j[key] = a.sparsity;
    } else if (key == "units")
      j[key] = a.units;
    else if (key == "ceil_mode")
      j[key] = a.ceil_mode;
    else if (key == "negative_slope")
      j[key] = a.negative_slope;
    else if (key == "slope")
      j[key] = a.slope;
    else if (key == "offset")
      j[key] = a.offset;
    else if (key == "size")
      j[key] = a.lrn_size;
    else if (key == "alpha")
      j[key] = a.lrn_alpha;
    else if (key == "beta")
      j[key] = a.lrn_beta;
    else if (key == "k")
      j[key] = a.lrn_k;
    else if (key == "rate")
      j[key] = a.rate;
    else if (key == "epsilon")
      j[key] = a.epsilon;
    else if (key == "heads")
      j[key] = a.heads;
    else if (key == "axis")
      j[key] = a.axis;
    else if (key == "start")
      j[key] = a.start;
    else if (key == "end")
      j[key] = a.end;
    else if (key == "num_layers")
      j[key] = a.num_layers;
    else if (key == "bidirectional")
      j[key] = a.bidirectional;
    else if (key == "return_sequences")
      j[key] = a.return_sequences;
    else if (key == "scale")
      j[key] = pair_json(a.scale);
    else if (key == "mode")
      j[key] = a.mode;
  }
  if (a.dtype != DType::Fp32) j["dtype"] = dtype_name(a.dtype);
}

Layer read_layer(const Json& j, const std::string& path) {
  Layer l;
  l.name = json_string(j, "name", path);
  const auto op_text = json_string(j, "op", path);
  const auto op = op_from_name(op_text);
  if (!op)
    throw InputError(
        "", join_path(path, "op"),
        fmt::format("unknown op '{}'; expected one of {}", op_text, fmt::join(op_names(), ", ")));
  l.op = *op;
  json_reject_unknown_keys(j, path, concat_keys({"name", "op", "inputs", "dtype"}, attribute_keys(l.op)));
  if (const Json* ins = json_find(j, "inputs", path)) {
    const auto p = join_path(path, "inputs");
    if (!ins->is_array()) throw InputError("", p, "expected a list of layer names");
    for (std::size_t i = 0; i < ins->size(); ++i) {
      if (!(*ins)[i].is_string()) throw InputError("", index_path(p, i), "expected a layer name");
      l.inputs.push_back((*ins)[i].get<std::string>());
    }
  }
  l.attrs = read_attrs(l.op, j, path);
  return l;
}

}  // namespace

std::vector<std::string> attribute_keys(OpKind op) {
  switch (op) {
    case OpKind::Input:
      return {"shape"};
    case OpKind::Conv2d:
      return concat_keys(concat_keys({"out_channels"}, kSpatial), {"groups", "bias", "sparsity"});
    case OpKind::DepthwiseConv2d:
      return concat_keys(kSpatial, {"multiplier", "bias", "sparsity"});
    case OpKind::ConvTranspose2d:
      return concat_keys(concat_keys({"out_channels"}, kSpatial),
                         {"output_padding", "groups", "bias", "sparsity"});
    case OpKind::FullyConnected:
      return {"units", "bias", "sparsity"};
    case OpKind::MaxPool:
    case OpKind::AvgPool:
      return {"kernel", "stride", "padding", "ceil_mode"};
    case OpKind::LeakyRelu:
      return {"negative_slope"};
    case OpKind::HardSigmoid:
      return {"slope", "offset"};
    case OpKind::Lrn:
      return {"size", "alpha", "beta", "k"};
    case OpKind::Dropout:
      return {"rate"};
    case OpKind::Concat:
      return {"axis"};
    case OpKind::Slice:
      return {"axis", "start", "end"};
    case OpKind::ChannelShuffle:
      return {"groups"};
    case OpKind::LayerNorm:
      return {"epsilon"};
    case OpKind::Attention:
      return {"heads"};
    case OpKind::Lstm:
      return {"units", "num_layers", "bidirectional", "return_sequences", "bias"};
    case OpKind::Upsample:
      return {"scale", "mode"};
    default:
      return {};
  }
}

Json graph_to_json(const Graph& graph) {
  Json layers = Json::array();
  for (const auto& l : graph.layers()) {
    Json j;
    j["name"] = l.name;
    j["op"] = op_name(l.op);
    if (l.op != OpKind::Input) j["inputs"] = l.inputs;
    write_attrs(l, j);
    layers.push_back(std::move(j));
  }
  return Json{{"format", kModelFormat}, {"name", graph.name()}, {"layers", std::move(layers)}};
}

Graph graph_from_json(const Json& json) {
  json_reject_unknown_keys(json, "", {"format", "name", "layers"});
  if (const Json* f = json_find(json, "format", ""); f && *f != kModelFormat)
    throw InputError("", "format", fmt::format("expected \"{}\"", kModelFormat));
  Graph g(json_string(json, "name", ""));
  const Json& layers = json_at(json, "layers", "");
  if (!layers.is_array()) throw InputError("", "layers", "expected a list of layers");
  for (std::size_t i = 0; i < layers.size(); ++i) g.add(read_layer(layers[i], index_path("layers", i)));
  g.infer();
  return g;
}

Graph load_model_file(const std::string& file) {
  const Json j = read_json_file(file);
  try {
    return graph_from_json(j);
  } catch (const InputError& e) {
    throw e.with_file(file);
  }
}

Json graph_summary_json(const Graph& graph) {
  Json layers = Json::array();
  for (const auto& l : graph.layers())
    layers.push_back({{"name", l.name},
                      {"op", op_name(l.op)},
                      {"inputs", l.inputs},
                      {"output_shape", l.output_shape},
                      {"params", l.params},
                      {"macs", l.macs},
                      {"output_bytes", l.output_bytes}});
  const auto inputs = graph.input_layers();
  Json input = inputs.empty() ? Json::array() : Json(graph.layer(inputs.front()).output_shape);
  return Json{{"name", graph.name()},
              {"input", std::move(input)},
              {"total_params", graph.total_params()},
              {"total_macs", graph.total_macs()},
              {"layers", std::move(layers)}};
}

}  // namespace coinfer
