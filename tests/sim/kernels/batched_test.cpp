// The batched layer runner: B samples run together give what B single-sample runs give.
#include <catch2/catch.hpp>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/kernels/batched.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

// Every layer of `g` run at batch B on B random samples against B run_layer calls, layer by layer
// (each batched layer reads the batched output of its producers).
void check_graph(const Graph& g, std::int64_t batch) {
  std::vector<Tensor> batched(g.size());
  std::vector<std::vector<Tensor>> single(g.size());
  for (std::size_t i : g.topological_order()) {
    const Layer& l = g.layer(i);
    INFO(l.name << " (" << op_name(l.op) << ") batch " << batch);
    std::vector<const Tensor*> ins;
    LayerWeights w;
    if (l.op == OpKind::Input) {
      Shape s{batch};
      s.insert(s.end(), l.output_shape.begin(), l.output_shape.end());
      batched[i] = random_normal(s, 7);
      for (std::int64_t b = 0; b < batch; ++b) single[i].push_back(batch_sample(batched[i], b));
      continue;
    }
    std::vector<std::size_t> producers;
    for (const auto& name : l.inputs) producers.push_back(static_cast<std::size_t>(g.index_of(name)));
    w = make_weights(l, g.layer(producers[0]).output_shape, derive_seed(3, l.name));
    for (auto p : producers) ins.push_back(&batched[p]);
    batched[i] = run_layer_batch(l, ins, w, batch);
    for (std::int64_t b = 0; b < batch; ++b) {
      std::vector<const Tensor*> one;
      for (auto p : producers) one.push_back(&single[p][static_cast<std::size_t>(b)]);
      single[i].push_back(run_layer(l, one, w));
      CHECK(test::max_rel_error(batch_sample(batched[i], b), single[i].back()) < 1e-4);
    }
  }
}

}  // namespace

TEST_CASE("a batched conv net equals its samples run one by one", "[kernels][batch]") {
  // Grouped, strided and padded convolutions, a pointwise one, LRN, pooling, flatten, fc, softmax.
  GraphBuilder b("small_conv");
  auto x = b.input("data", {4, 13, 11});
  x = b.conv(x, "conv0", 6, 3, 1, 1, 2);  // two groups
  x = b.conv(x, "conv1", 8, 3, 2, 1);
  x = b.relu(x, "relu1");
  x = b.lrn(x, "norm1");
  auto y = b.conv(x, "conv2", 8, 1);
  x = b.add_op({x, y}, "sum");
  x = b.max_pool(x, "pool", 2, 2);
  x = b.flatten(x, "flat");
  x = b.fc(x, "fc1", 12);
  x = b.fc(x, "fc2", 5);
  b.softmax(x, "prob");
  const Graph g = b.build();
  check_graph(g, GENERATE(1, 3, 8));
}

TEST_CASE("a batched fc over sequences equals its samples run one by one", "[kernels][batch]") {
  GraphBuilder b("seq");
  auto x = b.input("data", {6, 10});
  x = b.fc(x, "fc", 7);
  b.lstm(x, "lstm", 4);
  check_graph(b.build(), 4);
}

TEST_CASE("a batched input without B samples is rejected", "[kernels][batch]") {
  Layer l;
  l.name = "r";
  l.op = OpKind::Relu;
  l.inputs = {"x"};
  const Tensor x = random_normal({3, 4}, 1);
  CHECK_THROWS_AS(run_layer_batch(l, {&x}, {}, 2), Error);
}

TEST_CASE("stack_batch then batch_sample gives back every sample", "[kernels][batch]") {
  const Tensor a = random_normal({2, 3}, 1), b = random_normal({2, 3}, 2), c = random_normal({2, 3}, 3);
  const Tensor xb = stack_batch({&a, &b, &c});
  CHECK(xb.shape == Shape{3, 2, 3});
  const Tensor* samples[] = {&a, &b, &c};
  for (std::int64_t n = 0; n < 3; ++n) {
    const Tensor back = batch_sample(xb, n);
    CHECK(back.shape == samples[n]->shape);
    CHECK(back.data == samples[n]->data);  // copies, bit for bit
  }
}

TEST_CASE("stack_batch refuses samples of different shapes, naming both", "[kernels][batch]") {
  const Tensor a = random_normal({2, 3}, 1), b = random_normal({3, 2}, 2);
  CHECK_THROWS_WITH(stack_batch({&a, &a, &b}), Catch::Contains("sample 2 has shape [3,2], sample 0 [2,3]"));
  CHECK_THROWS_WITH(stack_batch({}), Catch::Contains("no samples"));
  CHECK_THROWS_WITH(stack_batch({&a, nullptr}), Catch::Contains("sample 1 is missing"));
}
