// The JSON model format: exact round trip and errors that name the JSON path.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/graph/graph_json.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::string load_error(const Json& j) {
  try {
    graph_from_json(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

Json tiny() {
  return Json::parse(R"({"name": "tiny", "layers": [
      {"name": "data", "op": "input", "shape": [3, 8, 8]},
      {"name": "conv", "op": "conv2d", "inputs": ["data"], "out_channels": 4, "kernel": 3, "padding": 1},
      {"name": "pool", "op": "max_pool", "inputs": ["conv"], "kernel": [2, 2]},
      {"name": "fc", "op": "fc", "inputs": ["pool"], "units": 10, "sparsity": 0.9}]})");
}

}  // namespace

TEST_CASE("a model with every op survives a JSON round trip exactly") {
  GraphBuilder b("all_ops");
  auto x = b.input("x", {4, 16, 16});
  auto c = b.conv(x, "conv", 8, 3, 1, 1, 2, false, 1);
  auto d = b.depthwise(c, "dw", 3, 1, 1);
  auto t = b.deconv(d, "deconv", 8, 4, 2, 1, 0);
  auto mp = b.max_pool(t, "mp", 3, 2, 1, true);
  auto ap = b.avg_pool(mp, "ap", 2, 1);
  auto bn = b.batch_norm(ap, "bn");
  auto l = b.lrn(bn, "lrn", 3, 2e-4, 0.5, 2.0);
  auto r6 = b.relu6(l, "r6");
  auto lr = b.leaky_relu(r6, "lr", 0.2);
  auto sum = b.add_op({r6, lr}, "sum");
  auto cat = b.concat({sum, lr}, "cat");
  auto up = b.upsample(cat, "up", 2, "bilinear");
  auto g = b.global_avg_pool(up, "gap");
  auto f = b.flatten(g, "flat");
  auto dr = b.dropout(f, "drop", 0.3);
  auto fc = b.fc(dr, "fc", 12);
  auto s = b.sigmoid(fc, "sig");
  auto th = b.tanh(s, "tanh");
  auto sm = b.softmax(th, "prob");
  (void)sm;
  auto seq = b.input("seq", {5, 7});
  b.lstm(seq, "lstm", 6, 2, true, false);
  Graph original = b.build();
  Graph copy = graph_from_json(graph_to_json(original));
  CHECK(copy == original);
  CHECK(graph_summary_json(copy) == graph_summary_json(original));
}

TEST_CASE("square attributes may be written as one integer") {
  Graph g = graph_from_json(tiny());
  CHECK(g.layer_by_name("conv").attrs.kernel == std::array<std::int64_t, 2>{3, 3});
  CHECK(g.layer_by_name("conv").output_shape == Shape{4, 8, 8});
  // a pool's stride defaults to its kernel: 8 / 2 = 4
  CHECK(g.layer_by_name("pool").output_shape == Shape{4, 4, 4});
  CHECK(g.layer_by_name("fc").attrs.sparsity == 0.9);
}

TEST_CASE("a bad stride names its JSON path") {
  auto j = tiny();
  j["layers"][1]["stride"] = {1, 2, 3};
  CHECK_THAT(load_error(j), Contains("layers[1].stride: expected 1 or 2 integers"));
}

TEST_CASE("a missing key names its JSON path") {
  auto j = tiny();
  j["layers"][3].erase("units");
  CHECK_THAT(load_error(j), Contains("layers[3].units: missing key"));
}

TEST_CASE("a wrong type names its JSON path") {
  auto j = tiny();
  j["layers"][3]["units"] = "ten";
  CHECK_THAT(load_error(j), Contains("layers[3].units: expected an integer"));
}

TEST_CASE("an unknown op lists the known ones") {
  auto j = tiny();
  j["layers"][2]["op"] = "maxpool";
  CHECK_THAT(load_error(j), Contains("layers[2].op") && Contains("max_pool"));
}

TEST_CASE("a key that does not belong to the op is rejected") {
  auto j = tiny();
  j["layers"][2]["units"] = 3;
  CHECK_THAT(load_error(j), Contains("layers[2].units: unknown key"));
}

TEST_CASE("sparsity below 0 or at least 1 is rejected") {
  auto j = tiny();
  j["layers"][3]["sparsity"] = 1.0;
  CHECK_THAT(load_error(j), Contains("layers[3].sparsity"));
}
