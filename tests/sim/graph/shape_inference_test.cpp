// Shape inference of every op, with the expected numbers derived by hand in comments.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"

using namespace coinfer;

namespace {

// Builds `input -> op` and returns the inferred op layer (the last one).
template <class Fn>
Layer infer_one(Shape input, Fn add_op) {
  GraphBuilder b("t");
  auto x = b.input("x", std::move(input));
  add_op(b, x);
  Graph g = b.build();
  return g.layer(g.size() - 1);
}

}  // namespace

TEST_CASE("conv2d 3x3 same padding keeps the spatial size") {
  // out = (32 + 2*1 - 1*(3-1) - 1)/1 + 1 = 32; params = 16*3*3*3 + 16 = 448;
  // MACs = 16*32*32 outputs * 27 = 442,368; bytes = 16*32*32*4 = 65,536.
  auto l = infer_one({3, 32, 32}, [](GraphBuilder& b, auto x) { b.conv(x, "c", 16, 3, 1, 1); });
  CHECK(l.output_shape == Shape{16, 32, 32});
  CHECK(l.params == 448);
  CHECK(l.macs == 442368);
  CHECK(l.output_bytes == 65536);
}

TEST_CASE("conv2d with stride 2 rounds the output size down") {
  // out = floor((32 + 2 - 2 - 1)/2) + 1 = 15 + 1 = 16
  auto l = infer_one({3, 32, 32}, [](GraphBuilder& b, auto x) { b.conv(x, "c", 8, 3, 2, 1); });
  CHECK(l.output_shape == Shape{8, 16, 16});
}

TEST_CASE("conv2d dilation widens the receptive field") {
  // effective kernel = 2*(3-1)+1 = 5, out = 32 - 5 + 1 = 28
  auto l = infer_one({3, 32, 32}, [](GraphBuilder& b, auto x) { b.conv(x, "c", 4, 3, 1, 0, 1, true, 2); });
  CHECK(l.output_shape == Shape{4, 28, 28});
}

TEST_CASE("grouped conv2d divides the input channels among groups") {
  // params = 6 * (4/2) * 9 + 6 = 114; MACs = 6*8*8 * 18 = 6,912
  auto l = infer_one({4, 8, 8}, [](GraphBuilder& b, auto x) { b.conv(x, "c", 6, 3, 1, 1, 2); });
  CHECK(l.params == 114);
  CHECK(l.macs == 6912);
}

TEST_CASE("conv2d without bias has no bias parameters") {
  auto l = infer_one({3, 8, 8}, [](GraphBuilder& b, auto x) { b.conv(x, "c", 4, 1, 1, 0, 1, false); });
  CHECK(l.params == 12);  // 4*3*1*1
}

TEST_CASE("rectangular conv kernel uses separate height and width") {
  // out_h = (10 - 3)/1 + 1 = 8, out_w = (10 + 2*2 - 5)/2 + 1 = 5; params = 2*1*3*5 + 2 = 32
  auto l = infer_one({1, 10, 10}, [](GraphBuilder& b, auto x) {
    b.conv2(x, "c", 2, {3, 5}, {1, 2}, {0, 2});
  });
  CHECK(l.output_shape == Shape{2, 8, 5});
  CHECK(l.params == 32);
}

TEST_CASE("depthwise conv keeps the channel count") {
  // params = 8*9 + 8 = 80; MACs = 8*16*16 * 9 = 18,432
  auto l = infer_one({8, 16, 16}, [](GraphBuilder& b, auto x) { b.depthwise(x, "d", 3, 1, 1); });
  CHECK(l.output_shape == Shape{8, 16, 16});
  CHECK(l.params == 80);
  CHECK(l.macs == 18432);
}

TEST_CASE("transposed conv upsamples by its stride") {
  // out = (8-1)*2 - 2*1 + 1*(4-1) + 0 + 1 = 16; params = 4*2*16 + 2 = 130;
  // MACs = every input element (4*8*8) times out_channels*k*k (2*16) = 8,192
  auto l = infer_one({4, 8, 8}, [](GraphBuilder& b, auto x) { b.deconv(x, "t", 2, 4, 2, 1); });
  CHECK(l.output_shape == Shape{2, 16, 16});
  CHECK(l.params == 130);
  CHECK(l.macs == 8192);
}

TEST_CASE("fully connected flattens its input") {
  // in = 16*4*4 = 256; params = 256*10 + 10 = 2,570; MACs = 2,560
  auto l = infer_one({16, 4, 4}, [](GraphBuilder& b, auto x) { b.fc(x, "f", 10); });
  CHECK(l.output_shape == Shape{10});
  CHECK(l.params == 2570);
  CHECK(l.macs == 2560);
}

TEST_CASE("fully connected over a (T, F) sequence shares its weights across steps") {
  // T = 100, F = 494: params = 494*2048 + 2048 = 1,013,760; MACs = 100 * 494 * 2048 = 101,171,200
  auto l = infer_one({100, 494}, [](GraphBuilder& b, auto x) { b.fc(x, "f", 2048); });
  CHECK(l.output_shape == Shape{100, 2048});
  CHECK(l.params == 1013760);
  CHECK(l.macs == 101171200);
}

TEST_CASE("max pool 2x2 stride 2 halves height and width") {
  auto l = infer_one({16, 32, 32}, [](GraphBuilder& b, auto x) { b.max_pool(x, "p", 2, 2); });
  CHECK(l.output_shape == Shape{16, 16, 16});
  CHECK(l.params == 0);
  CHECK(l.macs == 0);
}

TEST_CASE("pool ceil mode rounds up where floor mode rounds down") {
  // 56, k3 s2: floor -> (56-3)/2 + 1 = 27; ceil -> ceil(53/2) + 1 = 28 (AlexNet/GoogLeNet in Caffe)
  auto floor_l = infer_one({1, 56, 56}, [](GraphBuilder& b, auto x) { b.max_pool(x, "p", 3, 2, 0, false); });
  auto ceil_l = infer_one({1, 56, 56}, [](GraphBuilder& b, auto x) { b.max_pool(x, "p", 3, 2, 0, true); });
  CHECK(floor_l.output_shape == Shape{1, 27, 27});
  CHECK(ceil_l.output_shape == Shape{1, 28, 28});
}

TEST_CASE("ceil-mode pool drops a window starting in the right padding") {
  // 4, k2 s2 p1: ceil((4+2-2)/2) + 1 = 3; the 3rd window starts at 2*2 = 4 = in + pad - 1 < 4 + 1: kept -> 3.
  // 3, k2 s2 p1: ceil((3+2-2)/2) + 1 = 3; the 3rd window starts at 4 >= in + pad = 4 -> dropped -> 2.
  auto a = infer_one({1, 4, 4}, [](GraphBuilder& b, auto x) { b.avg_pool(x, "p", 2, 2, 1, true); });
  auto c = infer_one({1, 3, 3}, [](GraphBuilder& b, auto x) { b.avg_pool(x, "p", 2, 2, 1, true); });
  CHECK(a.output_shape == Shape{1, 3, 3});
  CHECK(c.output_shape == Shape{1, 2, 2});
}

TEST_CASE("global average pool leaves one value per channel") {
  auto l = infer_one({2048, 7, 7}, [](GraphBuilder& b, auto x) { b.global_avg_pool(x, "g"); });
  CHECK(l.output_shape == Shape{2048, 1, 1});
}

TEST_CASE("element-wise ops preserve the shape and have no parameters") {
  for (auto op : {OpKind::Relu, OpKind::Relu6, OpKind::Sigmoid, OpKind::Tanh, OpKind::LeakyRelu, OpKind::Lrn,
                  OpKind::Dropout, OpKind::Softmax}) {
    auto l = infer_one({5, 6, 7}, [op](GraphBuilder& b, auto x) { b.add("e", op, {x}); });
    CHECK(l.output_shape == Shape{5, 6, 7});
    CHECK(l.params == 0);
  }
}

TEST_CASE("batch norm has a scale and a shift per channel") {
  auto l = infer_one({64, 8, 8}, [](GraphBuilder& b, auto x) { b.batch_norm(x, "bn"); });
  CHECK(l.output_shape == Shape{64, 8, 8});
  CHECK(l.params == 128);
}

TEST_CASE("flatten multiplies the dimensions") {
  auto l = infer_one({16, 4, 4}, [](GraphBuilder& b, auto x) { b.flatten(x, "f"); });
  CHECK(l.output_shape == Shape{256});
}

TEST_CASE("add of equal shapes keeps the shape") {
  GraphBuilder b("t");
  auto x = b.input("x", {8, 4, 4});
  auto r = b.relu(x, "r");
  b.add_op({x, r}, "sum");
  CHECK(b.build().layer_by_name("sum").output_shape == Shape{8, 4, 4});
}

TEST_CASE("concat sums the concatenated axis") {
  GraphBuilder b("t");
  auto x = b.input("x", {8, 4, 4});
  auto c = b.conv(x, "c", 4, 1);
  b.concat({x, c}, "cat");
  CHECK(b.build().layer_by_name("cat").output_shape == Shape{12, 4, 4});
}

TEST_CASE("lstm parameters and MACs per layer and direction") {
  // one layer, F=20, H=32: params = 4*(20*32 + 32*32 + 32) = 6,784; MACs = 4*(640 + 1024) * T(10) = 66,560
  auto one = infer_one({10, 20}, [](GraphBuilder& b, auto x) { b.lstm(x, "l", 32); });
  CHECK(one.output_shape == Shape{10, 32});
  CHECK(one.params == 6784);
  CHECK(one.macs == 66560);
  // two bidirectional layers: layer 1 = 2*6,784; layer 2 sees F = 64: 2*4*(64*32 + 1024 + 32) = 24,832
  auto bi = infer_one({10, 20}, [](GraphBuilder& b, auto x) { b.lstm(x, "l", 32, 2, true); });
  CHECK(bi.output_shape == Shape{10, 64});
  CHECK(bi.params == 13568 + 24832);
  auto last = infer_one({10, 20}, [](GraphBuilder& b, auto x) { b.lstm(x, "l", 32, 1, false, false); });
  CHECK(last.output_shape == Shape{32});
}

TEST_CASE("upsample multiplies height and width") {
  auto l = infer_one({4, 8, 8}, [](GraphBuilder& b, auto x) { b.upsample(x, "u", 2, "bilinear"); });
  CHECK(l.output_shape == Shape{4, 16, 16});
}

TEST_CASE("fp16 outputs take two bytes per element") {
  GraphBuilder b("t");
  auto x = b.input("x", {16, 32, 32});
  LayerAttrs a;
  a.dtype = DType::Fp16;
  b.add("h", OpKind::Relu, {x}, a);
  CHECK(b.build().layer_by_name("h").output_bytes == 32768);
}

TEST_CASE("mul broadcasts a [C,1,1] scale over a [C,H,W] map, and rejects shapes that do not broadcast") {
  GraphBuilder b("se");
  const auto x = b.input("x", {8, 5, 5});
  const auto s = b.global_avg_pool(x, "pool");
  Graph g = b.build();
  g.add(Layer{"scale", OpKind::Mul, {s, x}, {}, {}, 0, 0, 0});
  g.infer();
  CHECK(g.layer_by_name("scale").output_shape == Shape{8, 5, 5});
  g.add(Layer{"bad", OpKind::Mul, {x, "pool"}, {}, {}, 0, 0, 0});
  g.add(Layer{"flat", OpKind::Flatten, {x}, {}, {}, 0, 0, 0});
  g.add(Layer{"worse", OpKind::Mul, {x, "flat"}, {}, {}, 0, 0, 0});
  CHECK_THROWS_WITH(g.infer(), Catch::Contains("mul inputs do not broadcast"));
}

TEST_CASE("slice keeps the range start..end of its axis, and rejects a range outside it") {
  GraphBuilder b("split");
  const auto x = b.input("x", {8, 5, 5});
  LayerAttrs a;
  a.axis = 0;
  a.start = 4;
  a.end = 8;
  b.add("half", OpKind::Slice, {x}, a);
  CHECK(b.build().layer_by_name("half").output_shape == Shape{4, 5, 5});
  a.end = 9;
  GraphBuilder bad("bad");
  bad.add("over", OpKind::Slice, {bad.input("x", {8, 5, 5})}, a);
  CHECK_THROWS_WITH(bad.build(), Catch::Contains("expected 0 <= start < end <= 8"));
}

TEST_CASE("channel_shuffle keeps the shape, and its groups must divide the channels") {
  GraphBuilder b("shuffle");
  LayerAttrs a;
  a.groups = 2;
  b.add("s", OpKind::ChannelShuffle, {b.input("x", {8, 5, 5})}, a);
  CHECK(b.build().layer_by_name("s").output_shape == Shape{8, 5, 5});
  a.groups = 3;
  GraphBuilder bad("bad");
  bad.add("s", OpKind::ChannelShuffle, {bad.input("x", {8, 5, 5})}, a);
  CHECK_THROWS_WITH(bad.build(), Catch::Contains("expected a positive divisor of the 8 channels, got 3"));
}

TEST_CASE("layer_norm keeps the shape and holds a scale and a shift per feature: C of (C,H,W), F of (T,F)") {
  GraphBuilder b("ln");
  b.add("image", OpKind::LayerNorm, {b.input("x", {96, 7, 7})});
  b.add("tokens", OpKind::LayerNorm, {b.input("seq", {197, 768})});
  b.add("act", OpKind::Gelu, {"tokens"});
  const Graph g = b.build();
  CHECK(g.layer_by_name("image").output_shape == Shape{96, 7, 7});
  CHECK(g.layer_by_name("image").params == 2 * 96);
  CHECK(g.layer_by_name("tokens").params == 2 * 768);
  CHECK(g.layer_by_name("act").output_shape == Shape{197, 768});
  CHECK(g.layer_by_name("act").params == 0);
}

TEST_CASE("layer_norm rejects a non-positive epsilon") {
  GraphBuilder b("ln");
  LayerAttrs a;
  a.epsilon = 0.0;
  b.add("ln", OpKind::LayerNorm, {b.input("x", {4, 2, 2})}, a);
  CHECK_THROWS_WITH(b.build(), Catch::Contains("epsilon") && Catch::Contains("expected a positive number"));
}

TEST_CASE(
    "a vision transformer's ops: tokens, class_token, position_embedding and attention shapes, params, "
    "MACs") {
  GraphBuilder b("vit");
  b.add("patches", OpKind::Tokens, {b.input("x", {768, 14, 14})});
  b.add("cls", OpKind::ClassToken, {"patches"});
  b.add("pos", OpKind::PositionEmbedding, {"cls"});
  LayerAttrs a;
  a.heads = 12;
  b.add("att", OpKind::Attention, {"pos"}, a);
  const Graph g = b.build();
  CHECK(g.layer_by_name("patches").output_shape == Shape{196, 768});
  CHECK(g.layer_by_name("cls").output_shape == Shape{197, 768});
  CHECK(g.layer_by_name("cls").params == 768);
  CHECK(g.layer_by_name("pos").params == 197 * 768);
  const Layer& att = g.layer_by_name("att");
  CHECK(att.output_shape == Shape{197, 768});
  CHECK(att.params == 4 * 768 * 768 + 4 * 768);  // nn.MultiheadAttention's
  CHECK(att.macs == std::int64_t{4} * 197 * 768 * 768 +
                        std::int64_t{2} * 197 * 197 * 768);  // projections, scores, context
}

TEST_CASE("attention's heads must divide the features") {
  GraphBuilder b("att");
  LayerAttrs a;
  a.heads = 5;
  b.add("att", OpKind::Attention, {b.input("x", {7, 12})}, a);
  CHECK_THROWS_WITH(b.build(), Catch::Contains("expected a positive divisor of the 12 features, got 5"));
}
