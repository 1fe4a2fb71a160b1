// Whole-model forward passes in functional mode.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;

namespace {

// One graph using every op of the IR, with two inputs (an image and a sequence).
Graph every_op_graph() {
  GraphBuilder b("every_op");
  auto x = b.input("image", {4, 16, 16});
  x = b.conv(x, "conv", 8, 3, 1, 1, 2);
  x = b.batch_norm(x, "bn");
  x = b.relu(x, "relu");
  x = b.depthwise(x, "dw", 3, 1, 1);
  x = b.relu6(x, "relu6");
  x = b.lrn(x, "lrn");
  x = b.max_pool(x, "maxpool", 3, 2, 0, true);                             // 16 -> ceil(13 / 2) + 1 = 8
  auto a = b.avg_pool(x, "avgpool", 2, 2);                                 // 8 -> 4
  a = b.deconv(a, "deconv", 8, 4, 2, 1);                                   // 4 -> (4 - 1) * 2 - 2 + 3 + 1 = 8
  auto u = b.upsample(b.conv(x, "reduce", 8, 2, 2), "up", 2, "bilinear");  // 8 -> 4 -> 8
  auto c = b.concat({a, u}, "concat");                                     // 16 channels
  auto s = b.add_op({c, c}, "add");
  s = b.leaky_relu(s, "leaky");
  s = b.sigmoid(s, "sigmoid");
  s = b.tanh(s, "tanh");
  s = b.dropout(s, "drop");
  s = b.global_avg_pool(s, "gap");
  s = b.flatten(s, "flatten");
  auto seq = b.input("sequence", {5, 6});
  seq = b.lstm(seq, "lstm", 7, 2, true, false);  // -> (14)
  auto f = b.concat({s, seq}, "join");           // 16 + 14 = 30
  LayerAttrs sparse;
  sparse.units = 20;
  sparse.sparsity = 0.8;
  f = b.add("fc_sparse", OpKind::FullyConnected, {f}, sparse);
  f = b.fc(f, "fc", 10);
  b.softmax(f, "prob");
  return b.build();
}

}  // namespace

TEST_CASE("every op of the IR runs and produces its inferred shape", "[functional]") {
  const ForwardPass fp(every_op_graph(), 1);
  const auto acts = fp.run(fp.make_inputs(2));  // run() checks each output against shape inference
  const Tensor& prob = acts[static_cast<std::size_t>(fp.graph().index_of("prob"))];
  CHECK(prob.shape == Shape{10});
  CHECK(tensor_sum(prob) == Approx(1.0).margin(1e-5));
  for (const auto& t : acts)
    for (float v : t.data) REQUIRE(std::isfinite(v));
}

TEST_CASE("a forward pass is reproducible from its seeds", "[functional]") {
  const ForwardPass a(build_zoo_model("lenet5"), 3), b(build_zoo_model("lenet5"), 3),
      c(build_zoo_model("lenet5"), 4);
  const auto out = [](const ForwardPass& fp, std::uint64_t seed) {
    return fp.run(fp.make_inputs(seed)).at(fp.graph().output_layers().front());
  };
  CHECK(out(a, 9) == out(b, 9));
  CHECK_FALSE(out(a, 9) == out(c, 9));
  CHECK_FALSE(out(a, 9) == out(a, 10));
}

TEST_CASE("running a model in ranges equals running it whole", "[functional]") {
  const ForwardPass fp(every_op_graph(), 5);
  const auto inputs = fp.make_inputs(6);
  const auto whole = fp.run(inputs);
  std::vector<Tensor> acts(fp.graph().size());
  const auto in_layers = fp.graph().input_layers();
  for (std::size_t k = 0; k < in_layers.size(); ++k) acts[in_layers[k]] = inputs[k];
  const std::size_t n = fp.graph().size();
  fp.run_range(0, n / 3, acts);
  fp.run_range(n / 3, n, acts);
  CHECK(acts == whole);
  std::vector<Tensor> empty(n);
  CHECK_THROWS_AS(fp.run_range(0, n, empty), Error);  // inputs not given
}

TEST_CASE("run without keep_all frees intermediate activations", "[functional]") {
  const ForwardPass fp(build_zoo_model("lenet5"), 1);
  const auto acts = fp.run(fp.make_inputs(1), false);
  const auto out = fp.graph().output_layers().front();
  for (std::size_t i = 0; i < acts.size(); ++i) CHECK(acts[i].empty() == (i != out));
  CHECK_THROWS_AS(fp.run({}), Error);
}
