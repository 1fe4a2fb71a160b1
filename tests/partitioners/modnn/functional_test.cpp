// Functional mode: MoDNN's splits executed on real tensors give the single-device result.
#include "partitioners/modnn/functional.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "partitioners/modnn/fc_split.hpp"
#include "partitioners/modnn/model_stages.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/kernels/layer_runner.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

// Two conv stages with the cases halos must get right: a 5x5 stride-2 padded conv + ReLU (+ LRN)
// + 3x3/2 overlapping max pool (AlexNet-like), then a 3x3 padded conv + ReLU + 2x2/2 pool
// (VGG-like), on a non-square map so BODP cuts along the longer axis.
Graph two_stage_model(bool with_lrn) {
  GraphBuilder b("two-stage");
  auto x = b.input("data", {3, 37, 29});
  x = b.conv(x, "conv1", 6, 5, 2, 2);
  x = b.relu(x, "relu1");
  if (with_lrn) x = b.lrn(x, "norm1", 3);
  x = b.max_pool(x, "pool1", 3, 2);
  x = b.conv(x, "conv2", 5, 3, 1, 1);
  x = b.relu(x, "relu2");
  x = b.max_pool(x, "pool2", 2, 2);
  return b.build();
}

float round_to_int(float v, float scale) { return std::round(v * scale); }

struct Model {
  Graph graph;
  WeightsByLayer weights;
  Tensor input;
};

// Seeded weights and input; `integers`: rounded to small integers, so that every sum of products
// is exact in fp32 (|conv2 sums| <= 6 * 9 * 450 * 2 < 2^24) whatever the summation order.
Model make_model(bool integers) {
  Model m{two_stage_model(!integers), {}, random_normal({3, 37, 29}, 5)};
  Shape in = m.input.shape;
  for (std::size_t i = 0; i < m.graph.size(); ++i) {
    const Layer& l = m.graph.layer(i);
    m.weights.push_back(kernels::make_weights(l, i == 0 ? in : m.graph.layer(i - 1).output_shape, 11 + i));
  }
  if (integers) {
    for (auto& v : m.input.data) v = round_to_int(v, 1.5f);
    for (auto& w : m.weights)
      for (auto* t : {&w.weight, &w.bias})
        for (auto& v : t->data) v = round_to_int(v, 4.0f);
  }
  return m;
}

// Runs every stage distributed and on one device from the same stage input; returns the largest
// difference relative to the largest output magnitude.
float max_stage_error(bool integers, ConvSplit split, const std::vector<double>& capabilities) {
  const Model m = make_model(integers);
  Tensor x = m.input;
  float worst = 0.0f;
  for (const auto& stage : model_stages(m.graph)) {
    const auto nodes = split_conv_stage(m.graph, stage, split, capabilities);
    const Tensor y = run_conv_stage_split(m.graph, m.weights, stage, nodes, x);
    const Tensor ref = run_conv_stage_single(m.graph, m.weights, stage, x);
    REQUIRE(y.shape == ref.shape);
    float scale = 1e-30f;
    for (float v : ref.data) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < y.data.size(); ++i)
      worst = std::max(worst, std::abs(y.data[i] - ref.data[i]) / scale);
    x = ref;
  }
  return worst;
}

}  // namespace

TEST_CASE("modnn functional: BODP stripes with halos reproduce the conv stages bit for bit",
          "[modnn][functional]") {
  // Integer-valued data: any summation order gives the same floats, so equality means each node
  // read exactly the right halo and padding.
  CHECK(max_stage_error(true, ConvSplit::Bodp, {1.0, 2.0, 1.5}) == 0.0f);
}

TEST_CASE("modnn functional: 2-D grid tiles reproduce the conv stages bit for bit", "[modnn][functional]") {
  CHECK(max_stage_error(true, ConvSplit::Grid2d, {1, 1, 1, 1}) == 0.0f);
}

TEST_CASE("modnn functional: more nodes than rows leaves empty stripes and still covers the output",
          "[modnn][functional]") {
  // pool2's output is 4 rows high (37 -> conv1 19 -> pool1 9 -> pool2 4): six nodes, two idle.
  CHECK(max_stage_error(true, ConvSplit::Bodp, {1, 1, 1, 1, 1, 1}) == 0.0f);
}

TEST_CASE("modnn functional: with real weights and LRN the split matches within GEMM rounding",
          "[modnn][functional]") {
  // Eigen's GEMM rounds differently for different column counts: 1e-5 of the largest output.
  CHECK(max_stage_error(false, ConvSplit::Bodp, {1.0, 2.0, 1.5}) <= 1e-5f);
  CHECK(max_stage_error(false, ConvSplit::Grid2d, {1, 1, 1, 1}) <= 1e-5f);
}

namespace {

// Largest |y - y_ref| / (sum_i |w_ij x_i|) over the outputs: y from the split, y_ref the
// single-device SpMV.
double relative_fc_error(FcMethod method, std::size_t workers, double sparsity) {
  const auto w = generate_sparse_weights({120, 48, sparsity, 3, 4, 4.0, true});
  const Tensor x = random_normal({120}, 9);
  const FcRates rates{1e-9, 1e-8, 0.1};
  const auto owner =
      fc_owner(w.pattern, method, std::vector<double>(workers, 1.0), rates, rates, 43.8e6, 4, 1);
  const Tensor y = run_fc_split(w, owner, workers, x);
  const Tensor ref = run_fc_single(w, x);
  std::vector<double> mag(48, 1e-30);
  for (std::size_t e = 0; e < w.values.size(); ++e)
    mag[w.pattern.entries[e].col] += std::abs(w.values[e] * x.data[w.pattern.entries[e].row]);
  double worst = 0.0;
  for (std::size_t j = 0; j < 48; ++j) worst = std::max(worst, std::abs(y.data[j] - ref.data[j]) / mag[j]);
  return worst;
}

}  // namespace

TEST_CASE("modnn functional: fc-1d partial sums reduced at the GO match the single-device FC",
          "[modnn][functional]") {
  // Stated tolerance (functional.hpp): fp32 reordering, 1e-5 of the summed magnitudes.
  CHECK(relative_fc_error(FcMethod::Fc1d, 3, 0.8) <= 1e-5);
}

TEST_CASE("modnn functional: MSCC + FGCP blocks reduced at the GO match the single-device FC",
          "[modnn][functional]") {
  CHECK(relative_fc_error(FcMethod::MsccFgcp, 4, 0.9) <= 1e-5);
}
