// The ONNX importer on small models built here with ONNX's protobuf classes: what maps to what, and one
// clear error for each kind of bad file. (Whole torchvision networks against PyTorch: tests/onnx.)
#include <fstream>

#include <onnx/onnx_pb.h>
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/onnx/onnx_import.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;

namespace {

void add_weight(onnx::GraphProto& g, const std::string& name, std::vector<std::int64_t> dims) {
  auto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto_DataType_FLOAT);
  std::int64_t n = 1;
  for (auto d : dims) {
    t->add_dims(d);
    n *= d;
  }
  for (std::int64_t i = 0; i < n; ++i) t->add_float_data(0.01f * static_cast<float>(i % 7));
}

onnx::NodeProto& add_node(onnx::GraphProto& g, const std::string& op, std::vector<std::string> in,
                          std::string out) {
  auto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g.node_size()));
  for (auto& i : in) n->add_input(i);
  n->add_output(out);
  return *n;
}

// A 1-D int64 initializer.
void add_int64s(onnx::GraphProto& g, const std::string& name, std::vector<std::int64_t> v) {
  auto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto_DataType_INT64);
  t->add_dims(static_cast<std::int64_t>(v.size()));
  for (auto x : v) t->add_int64_data(x);
}

// An int64 initializer 'pads' of a Pad over [N, C, H, W]: begins, then ends.
void add_pads(onnx::GraphProto& g, std::vector<std::int64_t> v) {
  auto* t = g.add_initializer();
  t->set_name("pads");
  t->set_data_type(onnx::TensorProto_DataType_INT64);
  t->add_dims(8);
  for (auto x : v) t->add_int64_data(x);
}

void add_ints(onnx::NodeProto& n, const std::string& name, std::vector<std::int64_t> v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (auto x : v) a->add_ints(x);
}

void add_int(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INT);
  a->set_i(v);
}

void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* where, const std::string& name,
               std::vector<std::int64_t> dims) {
  auto* v = where->Add();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto_DataType_FLOAT);
  for (auto d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

// input [1,3,8,8] -> Conv 4x3x3x3 (pads 1) -> Relu -> GlobalAveragePool -> Flatten -> Gemm 2x4
onnx::ModelProto tiny(std::int64_t opset = 13) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(opset);
  auto& g = *m.mutable_graph();
  g.set_name("tiny");
  add_value(g.mutable_input(), "x", {1, 3, 8, 8});
  add_weight(g, "w", {4, 3, 3, 3});
  add_weight(g, "b", {4});
  add_weight(g, "fw", {2, 4});
  add_weight(g, "fb", {2});
  auto& conv = add_node(g, "Conv", {"x", "w", "b"}, "c");
  add_ints(conv, "pads", {1, 1, 1, 1});
  add_ints(conv, "kernel_shape", {3, 3});
  add_node(g, "Relu", {"c"}, "r");
  add_node(g, "GlobalAveragePool", {"r"}, "p");
  add_node(g, "Flatten", {"p"}, "f");
  add_int(add_node(g, "Gemm", {"f", "fw", "fb"}, "y"), "transB", 1);
  add_value(g.mutable_output(), "y", {1, 2});
  return m;
}

// Drops a tensor's inline values and points it at `location` (relative to the model's folder).
void move_to_external_file(onnx::TensorProto& t, const std::string& location,
                           const std::string& offset = "") {
  t.clear_float_data();
  t.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  auto* e = t.add_external_data();
  e->set_key("location");
  e->set_value(location);
  if (offset.empty()) return;
  e = t.add_external_data();
  e->set_key("offset");
  e->set_value(offset);
}

std::string write(const test::ScratchDir& dir, const std::string& name, const std::string& bytes) {
  const auto path = dir.path() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string write(const test::ScratchDir& dir, const onnx::ModelProto& m) {
  return write(dir, "m.onnx", m.SerializeAsString());
}

std::string import_error(const std::string& file) {
  try {
    import_onnx(file);
  } catch (const InputError& e) {
    return e.file() + " | " + e.path() + " | " + e.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an ONNX conv net maps node for node to layers, with its weights", "[onnx]") {
  const test::ScratchDir dir;
  const Graph g = import_onnx(write(dir, tiny()));
  CHECK(g.name() == "m");
  REQUIRE(g.size() == 6);
  CHECK(g.layer(1).op == OpKind::Conv2d);
  CHECK(g.layer(1).attrs.padding == std::array<std::int64_t, 2>{1, 1});
  CHECK(g.layer(5).op == OpKind::FullyConnected);
  CHECK(g.layer(5).output_shape == Shape{2});
  CHECK(g.total_params() == 4 * 27 + 4 + 2 * 4 + 2);
  REQUIRE(g.stored_weights() != nullptr);
  const auto& conv = g.stored_weights()->at(g.layer(1).name);
  REQUIRE(conv.arrays.size() == 2);
  CHECK(conv.arrays[0].shape == Shape{4, 3, 3, 3});
  CHECK(conv.arrays[0].values()[8] == Approx(0.01f));  // element 8: 8 % 7 = 1
}

TEST_CASE("an ONNX zero Pad folds into the next convolution's padding", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_pads(g, {0, 0, 2, 2, 0, 0, 2, 2});
  g.mutable_node(0)->set_input(0, "xp");
  auto* pad = g.mutable_node()->Add();
  pad->set_op_type("Pad");
  pad->set_name("pad");
  pad->add_input("x");
  pad->add_input("pads");
  pad->add_output("xp");
  g.mutable_node()->SwapElements(0, g.node_size() - 1);  // Pad first, then Conv ...
  for (int i = g.node_size() - 1; i > 1; --i) g.mutable_node()->SwapElements(i, i - 1);
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  CHECK(imported.layer(1).op == OpKind::Conv2d);
  CHECK(imported.layer(1).attrs.padding == std::array<std::int64_t, 2>{3, 3});
}

TEST_CASE("an ONNX initializer shared through Identity gives every reader its weights", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_node(g, "Identity", {"fb"}, "fb2");
  g.mutable_node()->SwapElements(0, g.node_size() - 1);  // Identity first; Gemm's bias reads it...
  for (int i = g.node_size() - 1; i > 1; --i) g.mutable_node()->SwapElements(i, i - 1);
  add_int(add_node(g, "Gemm", {"f", "fw", "fb2"}, "y2"), "transB", 1);
  add_value(g.mutable_output(), "y2", {1, 2});
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  REQUIRE(imported.size() == 7);
  const auto& w = *imported.stored_weights();
  CHECK(w.at(imported.layer(5).name).arrays[1].values() == w.at(imported.layer(6).name).arrays[1].values());
}

TEST_CASE("an ONNX op coinfer does not hold is an error naming the node and the supported ops", "[onnx]") {
  auto m = tiny();
  add_node(*m.mutable_graph(), "Neg", {"y"}, "z");
  const test::ScratchDir dir;
  const auto e = import_error(write(dir, m));
  CHECK_THAT(e, Catch::Contains("graph.node[5]") && Catch::Contains("(Neg): op not supported") &&
                    Catch::Contains("Conv, ConvTranspose, Div, Dropout"));
}

TEST_CASE("an ONNX input with a dynamic batch dimension is an error", "[onnx]") {
  auto m = tiny();
  auto* dim = m.mutable_graph()
                  ->mutable_input(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->mutable_dim(0);
  dim->set_dim_param("batch");
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("graph.input[0]") && Catch::Contains("dimension 0 is dynamic ('batch')"));
}

TEST_CASE("an ONNX opset newer than the ONNX library knows is an error", "[onnx]") {
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, tiny(99))),
             Catch::Contains("opset_import") && Catch::Contains("opset 99 is newer"));
  CHECK_THAT(import_error(write(dir, tiny(7))), Catch::Contains("opset 7 is older"));
}

TEST_CASE("a truncated ONNX file is an error, not a partial model", "[onnx]") {
  const std::string bytes = tiny().SerializeAsString();
  const test::ScratchDir dir;
  const auto e = import_error(write(dir, "cut.onnx", bytes.substr(0, bytes.size() * 2 / 3)));
  CHECK_THAT(e, Catch::Contains("cut.onnx") && Catch::Contains("not an ONNX model"));
}

TEST_CASE("a protobuf that is not an ONNX model is an error", "[onnx]") {
  onnx::TensorProto t;
  t.set_name("not a model");
  t.add_dims(3);
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, "t.onnx", t.SerializeAsString())), Catch::Contains("not an ONNX model"));
  CHECK_THAT(import_error(write(dir, "text.onnx", "hello, I am text\n")),
             Catch::Contains("not an ONNX model"));
  CHECK_THAT(import_error(dir.path() + "/absent.onnx"), Catch::Contains("cannot open"));
}

TEST_CASE("an ONNX weight in a missing external-data file is an error naming the file", "[onnx]") {
  auto m = tiny();
  move_to_external_file(*m.mutable_graph()->mutable_initializer(0), "weights.bin");
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)), Catch::Contains("weights.bin") && Catch::Contains("doesn't exist"));
}

TEST_CASE("an ONNX weight in an external-data file is read from it", "[onnx]") {
  auto m = tiny();
  std::vector<float> values(108, 0.5f);
  move_to_external_file(*m.mutable_graph()->mutable_initializer(0), "weights.bin");
  const test::ScratchDir dir;
  write(dir, "weights.bin", std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  const Graph g = import_onnx(write(dir, m));
  CHECK(g.stored_weights()->at(g.layer(1).name).arrays[0].values() == values);
}

TEST_CASE("an ONNX external-data offset that is not a number in range is an error naming it", "[onnx]") {
  for (const std::string offset : {"12abc", "99999999999999999999", "-4", "500"}) {
    auto m = tiny();
    move_to_external_file(*m.mutable_graph()->mutable_initializer(0), "weights.bin", offset);
    const test::ScratchDir dir;
    write(dir, "weights.bin", std::string(432, '\0'));
    CAPTURE(offset);
    CHECK_THAT(import_error(write(dir, m)),
               Catch::Contains("tensor 'w': external data") &&
                   (Catch::Contains("offset '" + offset + "' is not a non-negative integer") ||
                    Catch::Contains("past the end")));
  }
}

TEST_CASE("an ONNX zero Pad before a max pool is an error (max pooling pads with -inf)", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_pads(g, {0, 0, 1, 1, 0, 0, 1, 1});
  add_node(g, "Pad", {"r", "pads"}, "rp");
  add_ints(add_node(g, "MaxPool", {"rp"}, "mp"), "kernel_shape", {2, 2});
  add_value(g.mutable_output(), "mp", {1, 4, 9, 9});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)), Catch::Contains("(MaxPool)") && Catch::Contains("folds Pad only"));
}

TEST_CASE("an ONNX convolution with a zero stride is an error, before ONNX's shape inference divides by it",
          "[onnx]") {
  auto m = tiny();
  add_ints(*m.mutable_graph()->mutable_node(0), "strides", {1, 0});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)), Catch::Contains("graph.node[0]") && Catch::Contains("(Conv)") &&
                                              Catch::Contains("strides must be positive, got [1, 0]"));
}

TEST_CASE("an ONNX Transpose outside ShuffleNet's channel shuffle is an error naming the pattern", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_ints(add_node(g, "Transpose", {"r"}, "t"), "perm", {0, 1, 3, 2});
  add_value(g.mutable_output(), "t", {1, 4, 8, 8});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(Transpose)") && Catch::Contains("channel shuffle"));
}

TEST_CASE("ONNX shape arithmetic (Shape, Gather, Div, Mul) folds into a Slice's bounds", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_int64s(g, "one", {1});
  add_int64s(g, "two", {2});
  add_int64s(g, "zero", {0});
  add_node(g, "Shape", {"r"}, "shape");           // [1, 4, 8, 8]
  add_node(g, "Gather", {"shape", "one"}, "ch");  // [4]
  add_node(g, "Div", {"ch", "two"}, "half");      // [2]
  add_node(g, "Mul", {"half", "one"}, "end");     // [2]
  add_node(g, "Slice", {"r", "zero", "end", "one"}, "s");
  add_value(g.mutable_output(), "s", {1, 2, 8, 8});
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  const Layer& s = imported.layer(imported.size() - 1);
  CHECK(s.op == OpKind::Slice);
  CHECK(s.attrs.axis == 0);
  CHECK(s.attrs.start == 0);
  CHECK(s.attrs.end == 2);
  CHECK(s.output_shape == Shape{2, 8, 8});
}

namespace {

void add_scalar(onnx::GraphProto& g, const std::string& name, float v) {
  auto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto_DataType_FLOAT);
  t->add_float_data(v);
}

// PyTorch's LayerNorm over the last axis below opset 17, on `x` (features `f`), into `out`.
void add_layer_norm(onnx::GraphProto& g, const std::string& x, std::int64_t f, const std::string& out) {
  const std::string p = out + ".";
  add_scalar(g, p + "two", 2.0f);
  add_scalar(g, p + "eps", 1e-6f);
  add_weight(g, p + "scale", {f});
  add_weight(g, p + "shift", {f});
  add_ints(add_node(g, "ReduceMean", {x}, p + "mean"), "axes", {-1});
  add_node(g, "Sub", {x, p + "mean"}, p + "centred");
  add_node(g, "Pow", {p + "centred", p + "two"}, p + "squared");
  add_ints(add_node(g, "ReduceMean", {p + "squared"}, p + "var"), "axes", {-1});
  add_node(g, "Add", {p + "var", p + "eps"}, p + "var_eps");
  add_node(g, "Sqrt", {p + "var_eps"}, p + "std");
  add_node(g, "Div", {p + "centred", p + "std"}, p + "normalised");
  add_node(g, "Mul", {p + "normalised", p + "scale"}, p + "scaled");
  add_node(g, "Add", {p + "scaled", p + "shift"}, out);
}

// PyTorch's exact GELU below opset 20: x (Erf(x / sqrt 2) + 1) * 0.5.
void add_gelu(onnx::GraphProto& g, const std::string& x, const std::string& out, float divisor = 1.4142135f) {
  const std::string p = out + ".";
  add_scalar(g, p + "sqrt2", divisor);
  add_scalar(g, p + "one", 1.0f);
  add_scalar(g, p + "half", 0.5f);
  add_node(g, "Div", {x, p + "sqrt2"}, p + "scaled");
  add_node(g, "Erf", {p + "scaled"}, p + "erf");
  add_node(g, "Add", {p + "erf", p + "one"}, p + "plus_one");
  add_node(g, "Mul", {x, p + "plus_one"}, p + "times_x");
  add_node(g, "Mul", {p + "times_x", p + "half"}, out);
}

// ConvNeXt's block as torchvision exports it, after tiny()'s Relu 'r' [1, 4, 8, 8]: Transpose to
// channels last, LayerNorm, Linear 4 -> 8, GELU, Linear 8 -> 4, Transpose back, layer scale, Add.
// A model of input 'x' of `dims`, and a Relu of it named 'r' when `relu`.
onnx::ModelProto bare(std::vector<std::int64_t> dims, bool relu) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  auto& g = *m.mutable_graph();
  g.set_name("bare");
  add_value(g.mutable_input(), "x", std::move(dims));
  if (relu) add_node(g, "Relu", {"x"}, "r");
  return m;
}

onnx::ModelProto convnext_block() {
  auto m = bare({1, 4, 8, 8}, true);
  auto& g = *m.mutable_graph();
  add_ints(add_node(g, "Transpose", {"r"}, "last"), "perm", {0, 2, 3, 1});
  add_layer_norm(g, "last", 4, "ln");
  add_weight(g, "w1", {4, 8});
  add_weight(g, "b1", {8});
  add_node(g, "MatMul", {"ln", "w1"}, "mm1");
  add_node(g, "Add", {"b1", "mm1"}, "fc1");
  add_gelu(g, "fc1", "act");
  add_weight(g, "w2", {8, 4});
  add_weight(g, "b2", {4});
  add_node(g, "MatMul", {"act", "w2"}, "mm2");
  add_node(g, "Add", {"b2", "mm2"}, "fc2");
  add_ints(add_node(g, "Transpose", {"fc2"}, "first"), "perm", {0, 3, 1, 2});
  add_weight(g, "gamma", {4, 1, 1});
  add_node(g, "Mul", {"gamma", "first"}, "scaled");
  add_node(g, "Add", {"scaled", "r"}, "block");
  add_value(g.mutable_output(), "block", {1, 4, 8, 8});
  return m;
}

std::vector<OpKind> ops_after_relu(const Graph& g) {
  std::vector<OpKind> ops;
  bool after = false;
  for (const auto& l : g.layers()) {
    if (after) ops.push_back(l.op);
    after = after || l.op == OpKind::Relu;
  }
  return ops;
}

}  // namespace

TEST_CASE("ONNX's channels-last ConvNeXt block maps to layer_norm, 1x1 convolutions, gelu and a layer scale",
          "[onnx]") {
  const test::ScratchDir dir;
  const Graph g = import_onnx(write(dir, convnext_block()));
  CHECK(ops_after_relu(g) == std::vector<OpKind>{OpKind::LayerNorm, OpKind::Conv2d, OpKind::Gelu,
                                                 OpKind::Conv2d, OpKind::DepthwiseConv2d, OpKind::Add});
  REQUIRE(g.size() == 8);
  const Layer& ln = g.layer(2);
  CHECK(ln.attrs.epsilon == Approx(1e-6));
  CHECK(ln.params == 8);
  const Layer& fc1 = g.layer(3);
  CHECK(fc1.attrs.out_channels == 8);
  CHECK(fc1.attrs.kernel == std::array<std::int64_t, 2>{1, 1});
  CHECK(fc1.params == 4 * 8 + 8);
  CHECK(fc1.output_shape == Shape{8, 8, 8});
  const Layer& scale = g.layer(6);
  CHECK(!scale.attrs.bias);
  CHECK(scale.params == 4);
  // the Linear weights [F, U] arrive transposed, as the conv's [U, F, 1, 1]
  const auto& stored = g.stored_weights()->at(fc1.name).arrays[0];
  CHECK(stored.shape == Shape{8, 4, 1, 1});
  CHECK(stored.values()[1] == 0.01f * static_cast<float>(8 % 7));  // w1[1][0]
}

TEST_CASE("an ONNX GELU over a sequence and a LayerNorm over its features map to gelu and layer_norm",
          "[onnx]") {
  auto m = bare({1, 5, 6}, false);
  auto& g = *m.mutable_graph();
  add_gelu(g, "x", "act");
  add_layer_norm(g, "act", 6, "ln");
  add_value(g.mutable_output(), "ln", {1, 5, 6});
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  REQUIRE(imported.size() == 3);
  CHECK(imported.layer(1).op == OpKind::Gelu);
  CHECK(imported.layer(2).op == OpKind::LayerNorm);
  CHECK(imported.layer(2).output_shape == Shape{5, 6});
}

TEST_CASE("an ONNX Div that is not GELU's by sqrt 2 is an error naming the decompositions", "[onnx]") {
  auto m = bare({1, 5, 6}, false);
  auto& g = *m.mutable_graph();
  add_gelu(g, "x", "act", 2.0f);
  add_value(g.mutable_output(), "act", {1, 5, 6});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(Div)") && Catch::Contains("LayerNorm and GELU PyTorch decomposes"));
}

TEST_CASE("an ONNX LayerNorm over the W axis of a [1, C, H, W] tensor is an error", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_layer_norm(g, "r", 8, "ln");
  add_value(g.mutable_output(), "ln", {1, 4, 8, 8});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(ReduceMean)") && Catch::Contains("last axis (W) of a [1, C, H, W] tensor"));
}

TEST_CASE("an ONNX channels-last tensor read by an op other than ConvNeXt's is an error", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_ints(add_node(g, "Transpose", {"r"}, "last"), "perm", {0, 2, 3, 1});
  add_node(g, "Relu", {"last"}, "relu_last");
  add_value(g.mutable_output(), "relu_last", {1, 8, 8, 4});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(Relu)") && Catch::Contains("[1, H, W, C] tensor"));
}

TEST_CASE("an ONNX Mul by a constant other than one value per channel is an error", "[onnx]") {
  auto m = tiny();
  auto& g = *m.mutable_graph();
  add_weight(g, "k", {4, 8, 1});
  add_node(g, "Mul", {"r", "k"}, "scaled");
  add_value(g.mutable_output(), "scaled", {1, 4, 8, 8});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(Mul)") && Catch::Contains("one value per channel [C, 1, 1]"));
}

TEST_CASE("an ONNX LayerNormalization (opset 17) over a sequence's features maps to layer_norm", "[onnx]") {
  auto m = bare({1, 5, 6}, false);
  m.mutable_opset_import(0)->set_version(17);
  auto& g = *m.mutable_graph();
  add_weight(g, "scale", {6});
  add_weight(g, "bias", {6});
  auto& ln = add_node(g, "LayerNormalization", {"x", "scale", "bias"}, "y");
  auto* eps = ln.add_attribute();
  eps->set_name("epsilon");
  eps->set_type(onnx::AttributeProto_AttributeType_FLOAT);
  eps->set_f(1e-6f);
  add_value(g.mutable_output(), "y", {1, 5, 6});
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  REQUIRE(imported.size() == 2);
  CHECK(imported.layer(1).op == OpKind::LayerNorm);
  CHECK(imported.layer(1).attrs.epsilon == Approx(1e-6));
  CHECK(imported.layer(1).params == 12);
}

TEST_CASE(
    "ONNX ViT embedding: patch tokens, an expanded class token, a position embedding, a Gather of step 0",
    "[onnx]") {
  auto m = bare({1, 4, 2, 3}, true);
  auto& g = *m.mutable_graph();
  add_int64s(g, "flat_shape", {1, 4, 6});
  add_int64s(g, "expand_shape", {1, 1, 1});
  auto* zero = g.add_initializer();
  zero->set_name("zero");
  zero->set_data_type(onnx::TensorProto_DataType_INT64);
  zero->add_int64_data(0);
  add_weight(g, "class_token", {1, 1, 4});
  add_weight(g, "pos_embedding", {1, 7, 4});
  add_node(g, "Reshape", {"r", "flat_shape"}, "flat");
  add_ints(add_node(g, "Transpose", {"flat"}, "tokens"), "perm", {0, 2, 1});
  add_node(g, "Expand", {"class_token", "expand_shape"}, "cls");
  add_int(add_node(g, "Concat", {"cls", "tokens"}, "with_cls"), "axis", 1);
  add_node(g, "Add", {"with_cls", "pos_embedding"}, "embedded");
  add_int(add_node(g, "Gather", {"embedded", "zero"}, "first"), "axis", 1);
  add_value(g.mutable_output(), "first", {1, 4});
  const test::ScratchDir dir;
  const Graph imported = import_onnx(write(dir, m));
  CHECK(ops_after_relu(imported) == std::vector<OpKind>{OpKind::Tokens, OpKind::ClassToken,
                                                        OpKind::PositionEmbedding, OpKind::Slice,
                                                        OpKind::Flatten});
  CHECK(imported.layer(imported.size() - 1).output_shape == Shape{4});
  CHECK(imported.total_params() == 4 + 7 * 4);
}

TEST_CASE("an ONNX Add of a constant that is not of the tensor's shape is an error", "[onnx]") {
  auto m = bare({1, 5, 6}, false);
  auto& g = *m.mutable_graph();
  add_weight(g, "c", {1, 5, 1});
  add_node(g, "Add", {"x", "c"}, "y");
  add_value(g.mutable_output(), "y", {1, 5, 6});
  const test::ScratchDir dir;
  CHECK_THAT(import_error(write(dir, m)),
             Catch::Contains("(Add)") && Catch::Contains("only a constant of the tensor's own shape"));
}
