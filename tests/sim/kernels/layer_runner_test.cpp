// The layer dispatcher and seeded weight generation over the graph IR.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "kernel_test_util.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/layer_runner.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

Layer inferred(Layer l, const Shape& in) {
  infer_layer(l, {&in});
  return l;
}

Layer conv_layer() {
  Layer l;
  l.name = "conv";
  l.op = OpKind::Conv2d;
  l.inputs = {"x"};
  l.attrs.out_channels = 8;
  l.attrs.kernel = {3, 3};
  l.attrs.padding = {1, 1};
  l.attrs.stride = {2, 2};
  l.attrs.groups = 2;
  return l;
}

}  // namespace

TEST_CASE("make_weights gives PyTorch-layout weights, reproducible from the seed", "[kernels][layer]") {
  const Shape in{4, 10, 10};
  const Layer l = inferred(conv_layer(), in);
  const LayerWeights w = make_weights(l, in, 5);
  CHECK(w.weight.shape == Shape{8, 2, 3, 3});  // [OC, IC / groups, KH, KW]
  CHECK(w.bias.shape == Shape{8});
  CHECK(make_weights(l, in, 5).weight == w.weight);
  CHECK_FALSE(make_weights(l, in, 6).weight == w.weight);
  // He initialisation: variance 2 / fan_in = 2 / 18 over 144 weights (loose: +-50%)
  double var = 0.0;
  for (float v : w.weight.data) var += v * v;
  CHECK(var / 144.0 == Approx(2.0 / 18.0).epsilon(0.5));
  // params from shape inference = weight elements + bias elements
  CHECK(w.weight.size() + w.bias.size() == l.params);
}

TEST_CASE("run_layer dispatches to the kernel with the layer's attributes", "[kernels][layer]") {
  const Shape in{4, 10, 10};
  const Layer l = inferred(conv_layer(), in);
  const LayerWeights w = make_weights(l, in, 5);
  const Tensor x = random_normal(in, 9);
  ConvParams p;
  p.stride = {2, 2};
  p.padding = {1, 1};
  p.groups = 2;
  const Tensor y = run_layer(l, {&x}, w);
  CHECK(y.shape == l.output_shape);
  CHECK(y == conv2d(x, w.weight, w.bias, p));
  CHECK_THROWS_AS(run_layer(l, {}, w), Error);
  CHECK_THROWS_AS(run_layer(l, {&x, &x}, w), Error);
}

TEST_CASE("a sparse fc layer is pruned to its sparsity and runs as CSR", "[kernels][layer]") {
  Layer l;
  l.name = "fc";
  l.op = OpKind::FullyConnected;
  l.inputs = {"x"};
  l.attrs.units = 30;
  l.attrs.sparsity = 0.9;
  const Shape in{2, 5, 10};
  l = inferred(l, in);
  const LayerWeights w = make_weights(l, in, 3);
  REQUIRE(w.sparse);
  CHECK(w.weight.empty());
  // round(0.1 * 100) = 10 nonzeros in each of 30 rows
  CHECK(w.sparse_weight.nonZeros() == 300);
  const Tensor x = random_normal(in, 4);
  CHECK(run_layer(l, {&x}, w).shape == Shape{30});
  // The same layer without sparsity keeps all weights; the kept sparse entries are its largest ones.
  Layer dense = l;
  dense.attrs.sparsity = 0.0;
  const LayerWeights wd = make_weights(dense, in, 3);
  CHECK_FALSE(wd.sparse);
  CHECK(wd.weight.size() == 3000);
  // every kept entry is the dense weight at the same position (both come from the same seeded draw)
  for (int r = 0; r < w.sparse_weight.outerSize(); ++r)
    for (CsrMatrix::InnerIterator it(w.sparse_weight, r); it; ++it)
      REQUIRE(it.value() == wd.weight.data[static_cast<std::size_t>(r * 100 + it.col())]);
}

TEST_CASE("a pruned conv layer has the requested fraction of zero weights", "[kernels][layer]") {
  Layer l = conv_layer();
  l.attrs.sparsity = 0.75;
  const Shape in{4, 10, 10};
  l = inferred(l, in);
  const LayerWeights w = make_weights(l, in, 8);
  const auto zeros = std::count(w.weight.data.begin(), w.weight.data.end(), 0.0f);
  CHECK(zeros == 8 * 18 - 8 * 5);  // each of 8 rows of 18 keeps round(0.25 * 18) = round(4.5) = 5
}

TEST_CASE("parameter-free layers get empty weights and batch norm gets per-channel statistics",
          "[kernels][layer]") {
  Layer bn;
  bn.name = "bn";
  bn.op = OpKind::BatchNorm;
  bn.inputs = {"x"};
  const Shape in{6, 3, 3};
  bn = inferred(bn, in);
  const LayerWeights w = make_weights(bn, in, 1);
  CHECK(w.batch_norm.mean.size() == 6);
  for (float v : w.batch_norm.variance) CHECK((v >= 0.5f && v < 1.5f));
  Layer relu;
  relu.op = OpKind::Relu;
  relu.inputs = {"x"};
  CHECK(make_weights(inferred(relu, in), in, 1).size_bytes() == 0);
}

TEST_CASE("has_backward is declared op by op: every op but sparse fc") {
  const std::set<std::string> without;
  for (const std::string& name : op_names()) {
    Layer l;
    l.name = "x";
    l.op = *op_from_name(name);
    INFO(name);
    CHECK(has_backward(l) == (without.count(name) == 0));
  }
  Layer sparse;
  sparse.op = OpKind::FullyConnected;
  sparse.attrs.sparsity = 0.5;
  CHECK_FALSE(has_backward(sparse));
}
