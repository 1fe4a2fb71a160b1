// The ONNX exporter: every zoo model imports back (sim/onnx/onnx_import.hpp) as the same layers, shapes,
// parameters and MACs; what ONNX cannot hold is an error naming the layer. (That the exported files pass
// onnx.checker and ONNX's shape inference: tests/onnx/zoo_export_check.py; that they compute what the
// graph computes: tests/sim/functional/onnx_round_trip_test.cpp.)
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/models/zoo.hpp"
#include "sim/onnx/onnx_export.hpp"
#include "sim/onnx/onnx_import.hpp"

#include <sstream>

using namespace coinfer;

namespace {

// Zero weights of the right sizes: the structure is what round-trips here.
StoredLayerWeights zeros(const Layer& l, const Shape& in) {
  StoredLayerWeights w;
  for (const Shape& s : stored_weight_shapes(l, in))
    w.arrays.push_back(StoredArray{s, std::string(static_cast<std::size_t>(shape_elements(s)) * 4, '\0')});
  return w;
}

// Attributes as ONNX stores them: its float attributes are fp32.
LayerAttrs as_fp32(LayerAttrs a) {
  for (double* x : {&a.negative_slope, &a.slope, &a.offset, &a.lrn_alpha, &a.lrn_beta, &a.lrn_k, &a.rate})
    *x = static_cast<float>(*x);
  return a;
}

}  // namespace

TEST_CASE("every zoo model round-trips through ONNX as the same layers, shapes, params and MACs", "[onnx]") {
  for (const auto& entry : zoo()) {
    CAPTURE(entry.name);
    const Graph g = entry.build();
    const Graph back = import_onnx_bytes(export_onnx(g, zeros), entry.name + ".onnx");
    CHECK(back.name() == g.name());
    REQUIRE(back.size() == g.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
      const Layer &a = g.layer(i), &b = back.layer_by_name(g.layer(i).name);
      CAPTURE(a.name);
      CHECK(b.op == a.op);
      CHECK(b.inputs == a.inputs);
      CHECK(as_fp32(b.attrs) == as_fp32(a.attrs));
      CHECK(b.output_shape == a.output_shape);
      CHECK(b.params == a.params);
      CHECK(b.macs == a.macs);
      CHECK(b.output_bytes == a.output_bytes);
    }
  }
}

TEST_CASE("a stacked LSTM exports as one ONNX LSTM per layer and imports back as single-layer lstm layers",
          "[onnx]") {
  const Graph g = graph_from_json(Json::parse(R"({"format": "coinfer-model/1", "name": "stack", "layers": [
      {"name": "x", "op": "input", "shape": [5, 3]},
      {"name": "rnn", "op": "lstm", "inputs": ["x"], "units": 4, "num_layers": 2, "bidirectional": true}]})"));
  const Graph back = import_onnx_bytes(export_onnx(g, zeros), "stack.onnx");
  REQUIRE(back.size() == 3);
  CHECK(back.total_params() == g.total_params());
  CHECK(back.total_macs() == g.total_macs());
  CHECK(back.layer(back.output_layers().at(0)).output_shape == Shape{5, 8});
}

TEST_CASE("a sparse layer is an ONNX export error naming the layer and its sparsity", "[onnx]") {
  const Graph g = graph_from_json(Json::parse(R"({"format": "coinfer-model/1", "name": "sparse", "layers": [
      {"name": "x", "op": "input", "shape": [8]},
      {"name": "fc", "op": "fc", "inputs": ["x"], "units": 4, "sparsity": 0.5}]})"));
  try {
    export_onnx(g, zeros);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.path() == "layers[1].sparsity");
    CHECK_THAT(e.message(), Catch::Contains("layer 'fc' (fc)") && Catch::Contains("export it as JSON"));
  }
}

TEST_CASE("an fp16 layer is an ONNX export error naming the layer and its dtype", "[onnx]") {
  Graph g = graph_from_json(Json::parse(R"({"format": "coinfer-model/1", "name": "half", "layers": [
      {"name": "x", "op": "input", "shape": [8]},
      {"name": "r", "op": "relu", "inputs": ["x"], "dtype": "fp16"}]})"));
  CHECK_THROWS_WITH(export_onnx(g, zeros), Catch::Contains("layer 'r' (relu)") && Catch::Contains("fp16"));
}

TEST_CASE("a model written to a stream as ONNX is byte for byte its exported bytes", "[onnx]") {
  const Graph g = build_zoo_model("mobilenet_v2");
  std::ostringstream out;
  write_onnx(g, zeros, out);
  CHECK(out.str() == export_onnx(g, zeros));
}
