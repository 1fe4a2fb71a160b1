// Autoencoder compressors of Hu & Krishnamachari (Table I) as real graph layers.
#include "partitioners/pipeline/compressor.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;

namespace {

/// A small (24, 8, 8) tensor, like an early MobileNet-v2 block's output, and a conv reading it.
Graph small_model() {
  GraphBuilder b("small");
  auto x = b.input("data", {3, 8, 8});
  x = b.conv(x, "conv1", 24, 3, 1, 1);
  x = b.relu(x, "act1");
  x = b.conv(x, "conv2", 16, 3, 1, 1);
  b.fc(x, "fc", 10);
  return b.build();
}

}  // namespace

TEST_CASE("compressor: the code is exactly 1/gamma and the decoder restores the split tensor", "[pipeline]") {
  // act1 outputs (24, 8, 8) = 1536 floats. gamma 2: (48, 4, 4) = 768; gamma 4: (24, 4, 4) = 384;
  // gamma 8: (48, 2, 2) = 192 (Table I's channels and strides); the decoder gives (24, 8, 8) back.
  const Graph g = small_model();
  for (const std::int64_t gamma : {2, 4, 8}) {
    INFO("gamma " << gamma);
    InsertedCompressor layers;
    const Graph fused = insert_compressor(g, "act1", gamma, &layers);
    const auto& code = fused.layer_by_name(layers.encoder.back());
    CHECK(shape_elements(code.output_shape) * gamma == 24 * 8 * 8);
    CHECK(fused.layer_by_name(layers.decoder.back()).output_shape == Shape{24, 8, 8});
    // conv2 now reads the decoder output; the rest of the model is unchanged.
    CHECK(fused.layer_by_name("conv2").inputs == std::vector<std::string>{layers.decoder.back()});
    CHECK(fused.layer_by_name("fc").output_shape == Shape{10});
    CHECK(fused.size() > g.size());
  }
}

TEST_CASE("compressor: Table I's layers are depthwise and depthwise transposed convolutions", "[pipeline]") {
  InsertedCompressor layers;
  const Graph fused = insert_compressor(small_model(), "act1", 8, &layers);
  int depthwise = 0, transposed = 0;
  for (const auto& l : fused.layers()) {
    if (l.op == OpKind::DepthwiseConv2d) ++depthwise;
    if (l.op == OpKind::ConvTranspose2d) {
      ++transposed;
      CHECK(l.attrs.groups == l.attrs.out_channels);  // one filter per channel
    }
  }
  CHECK(depthwise == 2);   // two encoder blocks
  CHECK(transposed == 2);  // two decoder blocks
  CHECK(layers.encoder.size() == 2);
  CHECK(layers.decoder.size() == 2);
}

TEST_CASE("compressor: a tensor the encoder cannot shrink exactly is refused", "[pipeline]") {
  GraphBuilder b("odd");
  auto x = b.input("data", {3, 6, 6});
  x = b.conv(x, "conv1", 8, 3, 1, 1);  // (8, 6, 6): 6 is a multiple of 2 but not of 4
  b.fc(x, "fc", 10);
  const Graph g = b.build();
  CHECK_NOTHROW(insert_compressor(g, "conv1", 2));
  CHECK_THROWS_WITH(insert_compressor(g, "conv1", 8), Catch::Contains("cannot shrink"));
  CHECK_THROWS_WITH(insert_compressor(g, "fc", 2), Catch::Contains("(C, H, W)"));
  CHECK_THROWS_WITH(insert_compressor(g, "conv1", 3), Catch::Contains("expected 2, 4 or 8"));
}

TEST_CASE("compressor: a forward pass through MobileNet-v2 with a compressor runs", "[pipeline]") {
  // Seeded weights, no accuracy claim: every layer runs its real kernel and the output is finite.
  const Graph g = build_zoo_model("mobilenet_v2_cifar");
  InsertedCompressor layers;
  const Graph fused = insert_compressor(g, "features.3.add", 4, &layers);
  ForwardPass fp(fused, 7);
  const auto acts = fp.run(fp.make_inputs(3));
  const auto& code = acts[static_cast<std::size_t>(fused.index_of(layers.encoder.back()))];
  const auto& split = acts[static_cast<std::size_t>(fused.index_of("features.3.add"))];
  CHECK(code.data.size() * 4 == split.data.size());
  const auto& out = acts[fused.output_layers().front()];
  REQUIRE(out.data.size() == 10);
  for (float v : out.data) CHECK(std::isfinite(v));
}
