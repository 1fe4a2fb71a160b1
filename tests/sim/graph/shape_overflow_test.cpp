// Sizes that do not fit: every derived count is overflow-checked, and one layer's output tensor or
// fp32 weights may not exceed kMaxTensorBytes = 2^40 bytes (1 TiB). Each case names the layer.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/graph/graph_json.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

constexpr std::int64_t k2(int e) { return std::int64_t{1} << e; }

// Builds `input -> op` (or more) and returns the error text of inference ("no error" if none).
template <class Fn>
std::string infer_error(Shape input, Fn add_ops) {
  GraphBuilder b("t");
  auto x = b.input("x", std::move(input));
  add_ops(b, x);
  try {
    b.build();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

LayerAttrs conv_attrs(std::int64_t out_channels, std::int64_t kernel, std::int64_t padding) {
  LayerAttrs a;
  a.out_channels = out_channels;
  a.kernel = {kernel, kernel};
  a.padding = {padding, padding};
  return a;
}

}  // namespace

TEST_CASE("shape_elements throws instead of wrapping past 2^63") {
  CHECK(shape_elements({k2(31), k2(31)}) == k2(62));
  CHECK_THROWS_AS(shape_elements({k2(32), k2(32)}), InputError);  // 2^64
  CHECK_FALSE(checked_shape_elements({k2(32), k2(32)}).has_value());
}

TEST_CASE("an input shape of 1e7 x 1e7 x 1e7 is out of range, not negative bytes") {
  // 1e21 elements overflow int64 (9.2e18); even 4e21 bytes would be far over 2^40
  const auto err = infer_error({10000000, 10000000, 10000000}, [](GraphBuilder&, auto) {});
  CHECK_THAT(err, Contains("layers[0]: layer 'x' (input): output [10000000,10000000,10000000]") &&
                      Contains("is out of range"));
}

TEST_CASE("an output of exactly 2^40 bytes is accepted, one element more is not") {
  // [2^38] fp32 = 2^40 bytes: the cap itself
  GraphBuilder b("t");
  b.input("x", {k2(38)});
  CHECK(b.build().layer(0).output_bytes == k2(40));
  CHECK_THAT(infer_error({k2(38) + 1}, [](GraphBuilder&, auto) {}),
             Contains("one tensor may hold at most 2^40 bytes"));
}

TEST_CASE("conv2d: padding 2e9 makes an output too large to hold") {
  // out = 1000 + 2*2e9 - 2 - 1 + 1 = 4,000,000,998 per side: 16 x 4e9 x 4e9 x 4 bytes = 1e21
  const auto err =
      infer_error({3, 1000, 1000}, [](GraphBuilder& b, auto x) { b.conv(x, "conv1", 16, 3, 1, 2000000000); });
  CHECK_THAT(err, Contains("layers[1]: layer 'conv1' (conv2d): output [16,4000000998,4000000998]") &&
                      Contains("out of range"));
}

TEST_CASE("conv2d: padding near 2^63 overflows the output-size formula itself") {
  // in + 2p with p = 2^62 is 2^63 + in: the height does not fit in int64
  const auto err = infer_error({3, 8, 8}, [](GraphBuilder& b, auto x) {
    b.add("conv1", OpKind::Conv2d, {x}, conv_attrs(4, 3, k2(62)));
  });
  CHECK_THAT(err, Contains("layers[1]: layer 'conv1' (conv2d): output height is out of range"));
}

TEST_CASE("conv2d: 1e12 output channels on 3x1000x1000 is out of range, not 8.55e18 MACs") {
  // 1e12 x 1000 x 1000 x 4 bytes = 4e18 bytes, over 2^40; MACs would be 2.7e19 > 2^63
  const auto err = infer_error({3, 1000, 1000},
                               [](GraphBuilder& b, auto x) { b.conv(x, "conv1", 1000000000000, 3, 1, 1); });
  CHECK_THAT(err, Contains("layers[1]: layer 'conv1' (conv2d): output [1000000000000,1000,1000]") &&
                      Contains("(4e+18 bytes) is out of range"));
}

TEST_CASE("conv2d: MACs beyond 2^63 with a holdable output are out of range") {
  // input [2^14, 2^12, 2^12] = 2^38 floats (2^40 bytes, allowed); a 1-channel conv with a 2^12 kernel
  // and padding 2^17 gives out = 2^12 + 2^18 - 2^12 + 1 = 2^18 + 1 per side (2^36 floats, fine),
  // and 2^14 * 2^24 = 2^38 MACs per output: about 2^74 in all
  const auto err = infer_error({k2(14), k2(12), k2(12)}, [](GraphBuilder& b, auto x) {
    auto a = conv_attrs(1, k2(12), k2(17));
    a.bias = false;
    b.add("conv1", OpKind::Conv2d, {x}, a);
  });
  CHECK_THAT(err, Contains("layers[1]: layer 'conv1' (conv2d): MAC count is out of range"));
}

TEST_CASE("depthwise_conv2d: a channel multiplier of 2^62 overflows the channel count") {
  // 3 channels x 2^62 = 3 * 2^62 > 2^63 - 1
  const auto err = infer_error({3, 8, 8}, [](GraphBuilder& b, auto x) {
    LayerAttrs a;
    a.kernel = {3, 3};
    a.multiplier = k2(62);
    b.add("dw", OpKind::DepthwiseConv2d, {x}, a);
  });
  CHECK_THAT(err, Contains("layers[1].multiplier: layer 'dw' (depthwise_conv2d): output channel count is out "
                           "of range"));
}

TEST_CASE("conv_transpose2d: a stride of 2^62 overflows the output-size formula") {
  // (in - 1) s = 999 * 2^62 does not fit
  const auto err = infer_error({3, 1000, 1000}, [](GraphBuilder& b, auto x) {
    LayerAttrs a = conv_attrs(4, 3, 0);
    a.stride = {k2(62), k2(62)};
    b.add("up", OpKind::ConvTranspose2d, {x}, a);
  });
  CHECK_THAT(err, Contains("layers[1]: layer 'up' (conv_transpose2d): output height is out of range"));
}

TEST_CASE("fc: weights over 2^40 bytes are out of range") {
  // 2^20 inputs x 2^20 units = 2^40 weights = 2^42 bytes
  const auto err = infer_error({k2(20)}, [](GraphBuilder& b, auto x) { b.fc(x, "fc", k2(20), false); });
  CHECK_THAT(err, Contains("layers[1]: layer 'fc' (fc): weights (1099511627776 parameters") &&
                      Contains("out of range"));
}

TEST_CASE("fc: a parameter count beyond 2^63 is out of range") {
  // 2^30 inputs x 2^40 units = 2^70
  const auto err = infer_error({k2(30)}, [](GraphBuilder& b, auto x) { b.fc(x, "fc", k2(40)); });
  CHECK_THAT(err, Contains("layers[1]: layer 'fc' (fc): parameter count is out of range"));
}

TEST_CASE("lstm: 2^41 stacked layers are out of range without looping over them") {
  // per later layer 4(HH + HH) = 2^23 weights for H = 1024: times 2^41 is 2^64, over 2^63
  const auto err = infer_error({10, 16}, [](GraphBuilder& b, auto x) { b.lstm(x, "rnn", 1024, k2(41)); });
  CHECK_THAT(err, Contains("layers[1]: layer 'rnn' (lstm): parameter count is out of range"));
}

TEST_CASE("lstm: the closed-form parameter count matches the per-layer sum") {
  // F = 16, H = 8, 3 layers, one direction: 4(16*8 + 64) + 32 = 800, then 2 x (4(8*8 + 64) + 32) = 1088
  GraphBuilder b("t");
  b.lstm(b.input("x", {5, 16}), "rnn", 8, 3);
  const Layer l = b.build().layer(1);
  CHECK(l.params == 800 + 2 * 544);
  CHECK(l.macs == 5 * (4 * (16 * 8 + 64) + 2 * 4 * (8 * 8 + 64)));  // T steps of 4(FH + HH) per layer
}

TEST_CASE("upsample: a scale of 2^62 overflows the output size") {
  const auto err = infer_error({3, 8, 8}, [](GraphBuilder& b, auto x) {
    LayerAttrs a;
    a.scale = {k2(62), 1};
    b.add("up", OpKind::Upsample, {x}, a);
  });
  CHECK_THAT(err, Contains("layers[1].scale: layer 'up' (upsample): output height is out of range"));
}

TEST_CASE("max_pool: a kernel of INT64_MAX with padding 2^62 - 1 overflows the window formula") {
  // padding <= kernel / 2 holds, but in + 2p = 8 + 2^63 - 2 does not fit
  const auto err = infer_error({3, 8, 8}, [](GraphBuilder& b, auto x) {
    LayerAttrs a;
    a.kernel = {INT64_MAX, 1};
    a.stride = {1, 1};
    a.padding = {k2(62) - 1, 0};
    b.add("pool", OpKind::MaxPool, {x}, a);
  });
  CHECK_THAT(err, Contains("layers[1]: layer 'pool' (max_pool): output height is out of range"));
}

TEST_CASE("concat: three inputs of 2^40 bytes each concatenate past the cap") {
  // each [2^38] fp32 = 2^40 bytes (allowed); together 3 * 2^40 bytes
  const auto err = infer_error({k2(38)}, [](GraphBuilder& b, auto x) {
    auto y = b.input("y", {k2(38)});
    auto z = b.input("z", {k2(38)});
    b.concat({x, y, z}, "cat");
  });
  CHECK_THAT(err,
             Contains("layers[3]: layer 'cat' (concat): output [824633720832]") && Contains("out of range"));
}

TEST_CASE("the model's total MACs may not overflow either") {
  // An lstm without biases, F = H = 2^8, 2^19 stacked layers: 4(FH + HH) = 2^19 weights per layer,
  // 2^38 in all (2^40 bytes, allowed), and 2^38 MACs per step over T = 2^24 steps: 2^62 MACs.
  // Two of them add up to 2^63: the second one is named.
  const auto err = infer_error({k2(24), k2(8)}, [](GraphBuilder& b, auto x) {
    LayerAttrs a;
    a.units = k2(8);
    a.num_layers = k2(19);
    a.bias = false;
    const auto r1 = b.add("rnn1", OpKind::Lstm, {x}, a);
    b.add("rnn2", OpKind::Lstm, {r1}, a);
  });
  CHECK_THAT(err, Contains("layers[2]: layer 'rnn2' (lstm): the model's total parameters or MACs are out of "
                           "range"));
}

TEST_CASE("an out_channels of 2^70 in a model file is 'integer out of range' at its path") {
  const Json j = Json::parse(R"({"format": "coinfer-model/1", "name": "m", "layers": [
    {"name": "x", "op": "input", "shape": [3, 8, 8]},
    {"name": "c", "op": "conv2d", "inputs": ["x"], "out_channels": 1180591620717411303424, "kernel": 3}]})");
  CHECK_THROWS_WITH(graph_from_json(j), Contains("layers[1].out_channels: integer out of range"));
}

TEST_CASE("a pair attribute holding an unsigned above INT64_MAX is not wrapped") {
  const Json j = Json::parse(R"({"format": "coinfer-model/1", "name": "m", "layers": [
    {"name": "x", "op": "input", "shape": [3, 8, 8]},
    {"name": "c", "op": "conv2d", "inputs": ["x"], "out_channels": 4, "kernel": 3,
     "padding": [1, 18446744073709551615]}]})");
  CHECK_THROWS_WITH(graph_from_json(j), Contains("layers[1].padding[1]: integer out of range"));
}
