// Graph validation: every malformed graph is rejected with the layer and the problem named.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::string infer_error(GraphBuilder& b) {
  try {
    b.build();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an unknown input is named with its path") {
  GraphBuilder b("t");
  b.input("x", {3, 8, 8});
  b.relu("nope", "r");
  CHECK_THAT(infer_error(b), Contains("layers[1].inputs[0]") && Contains("unknown input 'nope'"));
}

TEST_CASE("a cycle is reported with the layers on it") {
  GraphBuilder b("t");
  b.input("x", {3, 8, 8});
  b.add_op({"x", "b"}, "a");
  b.relu("a", "b");
  CHECK_THAT(infer_error(b), Contains("cycle") && Contains("'a'") && Contains("'b'"));
}

TEST_CASE("duplicate layer names are rejected") {
  GraphBuilder b("t");
  b.input("x", {3, 8, 8});
  b.relu("x", "x");
  CHECK_THAT(infer_error(b), Contains("layers[1].name") && Contains("duplicate"));
}

TEST_CASE("add of different shapes names both inputs") {
  GraphBuilder b("t");
  auto x = b.input("x", {8, 4, 4});
  auto c = b.conv(x, "c", 4, 1);
  b.add_op({x, c}, "sum");
  CHECK_THAT(infer_error(b), Contains("layer 'sum'") && Contains("[8,4,4]") && Contains("[4,4,4]"));
}

TEST_CASE("concat inputs must agree outside the axis") {
  GraphBuilder b("t");
  auto x = b.input("x", {8, 4, 4});
  auto p = b.max_pool(x, "p", 2, 2);
  b.concat({x, p}, "cat");
  CHECK_THAT(infer_error(b), Contains("layer 'cat'") && Contains("differ outside axis 0"));
}

TEST_CASE("a zero stride is a bad attribute") {
  GraphBuilder b("t");
  auto x = b.input("x", {3, 8, 8});
  b.conv(x, "c", 4, 3, 0);
  CHECK_THAT(infer_error(b), Contains("layers[1].stride") && Contains("positive"));
}

TEST_CASE("negative output channels are rejected") {
  GraphBuilder b("t");
  auto x = b.input("x", {3, 8, 8});
  b.conv(x, "c", -4, 3);
  CHECK_THAT(infer_error(b), Contains("layers[1].out_channels"));
}

TEST_CASE("a kernel larger than the padded input is rejected") {
  GraphBuilder b("t");
  auto x = b.input("x", {3, 4, 4});
  b.conv(x, "c", 4, 7);
  CHECK_THAT(infer_error(b), Contains("layer 'c'") && Contains("does not fit"));
}

TEST_CASE("groups must divide the channels") {
  GraphBuilder b("t");
  auto x = b.input("x", {3, 8, 8});
  b.conv(x, "c", 4, 3, 1, 1, 2);
  CHECK_THAT(infer_error(b), Contains("layers[1].groups"));
}

TEST_CASE("convolution needs a C,H,W input") {
  GraphBuilder b("t");
  auto x = b.input("x", {100});
  b.conv(x, "c", 4, 3);
  CHECK_THAT(infer_error(b), Contains("rank-3"));
}

TEST_CASE("topological order is stable and puts producers first") {
  GraphBuilder b("t");
  auto x = b.input("x", {3, 8, 8});
  auto r = b.relu(x, "r");
  auto s = b.sigmoid(x, "s");
  b.add_op({r, s}, "sum");
  Graph g = b.build();
  CHECK(g.topological_order() == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(g.output_layers() == std::vector<std::size_t>{3});
  CHECK(g.consumers(0) == std::vector<std::size_t>{1, 2});
}

TEST_CASE("a layer listed before its producer is still ordered after it") {
  Graph g("t");
  Layer relu;
  relu.name = "r";
  relu.op = OpKind::Relu;
  relu.inputs = {"x"};
  Layer in;
  in.name = "x";
  in.attrs.shape = {1, 2, 2};
  g.add(relu);
  g.add(in);
  g.infer();
  CHECK(g.topological_order() == std::vector<std::size_t>{1, 0});
}
