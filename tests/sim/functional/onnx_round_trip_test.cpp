// A model exported as ONNX with the weights functional mode runs it with computes, once imported, what
// the model computes: bit for bit, op for op (every op of the IR that ONNX holds), and for zoo models.
#include <catch2/catch.hpp>

#include "sim/functional/forward_pass.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/models/zoo.hpp"
#include "sim/onnx/onnx_export.hpp"
#include "sim/onnx/onnx_import.hpp"

using namespace coinfer;

namespace {

constexpr std::uint64_t kSeed = 7;

// The outputs of `g` and of import(export(g)) on the same seeded input.
void check_same_outputs(const Graph& g) {
  const std::string bytes =
      export_onnx(g, [&](const Layer& l, const Shape& in) { return kernels::file_weights(g, l, in, kSeed); });
  const ForwardPass ours(g, kSeed), theirs(import_onnx_bytes(bytes, g.name() + ".onnx"), kSeed);
  const std::vector<Tensor> x = ours.make_inputs(3);
  REQUIRE(theirs.make_inputs(3).size() == x.size());
  const auto a = ours.run(x), b = theirs.run(x);
  for (std::size_t i = 0; i < g.size(); ++i) {  // every layer's output, by name
    const std::string& name = g.layer(i).name;
    CAPTURE(name);
    const long j = theirs.graph().index_of(name);
    REQUIRE(j >= 0);
    CHECK(b[static_cast<std::size_t>(j)].shape == a[i].shape);
    CHECK(b[static_cast<std::size_t>(j)].data == a[i].data);
  }
}

}  // namespace

TEST_CASE("every op exported as ONNX computes what it computes in coinfer, once imported", "[onnx]") {
  // Each op of the IR, with attributes off their defaults where ONNX spells them.
  const Graph g = graph_from_json(Json::parse(R"({"format": "coinfer-model/1", "name": "every_op", "layers": [
    {"name": "x", "op": "input", "shape": [4, 6, 6]},
    {"name": "conv", "op": "conv2d", "inputs": ["x"], "out_channels": 6, "kernel": [3, 3], "padding": [1, 1], "groups": 2},
    {"name": "bn", "op": "batch_norm", "inputs": ["conv"]},
    {"name": "patches", "op": "tokens", "inputs": ["conv"]},
    {"name": "cls", "op": "class_token", "inputs": ["patches"]},
    {"name": "pos", "op": "position_embedding", "inputs": ["cls"]},
    {"name": "att", "op": "attention", "inputs": ["pos"], "heads": 2},
    {"name": "att_ln", "op": "layer_norm", "inputs": ["att"]},
    {"name": "r6", "op": "relu6", "inputs": ["bn"]},
    {"name": "dw", "op": "depthwise_conv2d", "inputs": ["r6"], "kernel": [3, 3], "padding": [1, 1], "multiplier": 2, "bias": false},
    {"name": "lrn", "op": "lrn", "inputs": ["dw"], "size": 3, "alpha": 0.001, "beta": 0.5, "k": 2},
    {"name": "leaky", "op": "leaky_relu", "inputs": ["lrn"], "negative_slope": 0.2},
    {"name": "hs", "op": "hard_sigmoid", "inputs": ["leaky"], "slope": 0.1666666, "offset": 0.5},
    {"name": "gate", "op": "global_avg_pool", "inputs": ["hs"]},
    {"name": "sig", "op": "sigmoid", "inputs": ["gate"]},
    {"name": "scaled", "op": "mul", "inputs": ["leaky", "sig"]},
    {"name": "mp", "op": "max_pool", "inputs": ["scaled"], "kernel": [3, 3], "stride": [2, 2], "ceil_mode": true},
    {"name": "ap", "op": "avg_pool", "inputs": ["scaled"], "kernel": [3, 3], "stride": [2, 2], "padding": [1, 1]},
    {"name": "sum", "op": "add", "inputs": ["mp", "ap", "mp"]},
    {"name": "up", "op": "upsample", "inputs": ["sum"], "scale": [2, 3]},
    {"name": "bil", "op": "upsample", "inputs": ["sum"], "scale": [2, 3], "mode": "bilinear"},
    {"name": "cat", "op": "concat", "inputs": ["up", "bil"], "axis": 2},
    {"name": "half", "op": "slice", "inputs": ["cat"], "axis": 2, "start": 2, "end": 9},
    {"name": "shuffled", "op": "channel_shuffle", "inputs": ["half"], "groups": 2},
    {"name": "deconv", "op": "conv_transpose2d", "inputs": ["shuffled"], "out_channels": 4, "kernel": [3, 3], "stride": [2, 2], "padding": [1, 1], "output_padding": [1, 0], "groups": 2},
    {"name": "ln", "op": "layer_norm", "inputs": ["deconv"], "epsilon": 1e-6},
    {"name": "gelu", "op": "gelu", "inputs": ["ln"]},
    {"name": "t", "op": "tanh", "inputs": ["gelu"]},
    {"name": "sm", "op": "softmax", "inputs": ["t"]},
    {"name": "drop", "op": "dropout", "inputs": ["sm"], "rate": 0.3},
    {"name": "fc", "op": "fc", "inputs": ["drop"], "units": 5},
    {"name": "relu", "op": "relu", "inputs": ["fc"]},
    {"name": "flat", "op": "flatten", "inputs": ["t"]},
    {"name": "fc2", "op": "fc", "inputs": ["flat"], "units": 3, "bias": false},
    {"name": "prob", "op": "softmax", "inputs": ["fc2"]},
    {"name": "seq", "op": "input", "shape": [5, 3]},
    {"name": "rnn", "op": "lstm", "inputs": ["seq"], "units": 4, "num_layers": 2, "bidirectional": true},
    {"name": "proj", "op": "fc", "inputs": ["rnn"], "units": 6},
    {"name": "seq_ln", "op": "layer_norm", "inputs": ["proj"]},
    {"name": "seq_gelu", "op": "gelu", "inputs": ["seq_ln"]},
    {"name": "seq_sm", "op": "softmax", "inputs": ["seq_gelu"]},
    {"name": "last", "op": "lstm", "inputs": ["seq"], "units": 3, "return_sequences": false, "bias": false}]})"));
  check_same_outputs(g);
}

TEST_CASE("zoo models exported as ONNX compute what they compute in coinfer, once imported", "[onnx]") {
  for (const char* name : {"lenet5", "mlp", "convnet", "digits_cnn", "mxnet_lenet"}) {
    CAPTURE(name);
    check_same_outputs(build_zoo_model(name));
  }
}
