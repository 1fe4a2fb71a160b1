// MobileNet-v2 (Sandler et al., "MobileNetV2: Inverted Residuals and Linear Bottlenecks", CVPR 2018,
// Table 2: t, c, n, s per stage), two published variants:
//
// - mobilenet_v2: the torchvision ImageNet model (width 1.0, 3x224x224, 1000 classes): 3x3/2 stem conv,
//   17 inverted residual blocks (no 1x1 expansion when t = 1; identity shortcut when stride 1 and the
//   channels match), 1x1 conv to 1280, global average pool, dropout 0.2, fc 1000; convolutions without
//   bias followed by batch norm and ReLU6. torchvision's count: 3,504,872 parameters.
// - mobilenet_v2_cifar: kuangliu/pytorch-cifar's models/mobilenetv2.py (3x32x32, 10 classes), the CIFAR
//   variant used by CIFAR papers: stem stride 2 -> 1 and stage-2 stride 2 -> 1, ReLU (not ReLU6), a 1x1
//   expansion even when t = 1, a 1x1 conv + bn projection shortcut when stride 1 and the channels differ,
//   4x4 average pool, fc 10. Its parameter count, derived by hand from that file: 2,296,922.
#include <array>

#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

struct Stage {
  std::int64_t expansion, channels, blocks, stride;  // t, c, n, s of Table 2
};

// Table 2 of Sandler et al.; `cifar` applies kuangliu's stride change of the second stage.
std::array<Stage, 7> stages(bool cifar) {
  return {{{1, 16, 1, 1},
           {6, 24, 2, cifar ? 1 : 2},
           {6, 32, 3, 2},
           {6, 64, 4, 2},
           {6, 96, 3, 1},
           {6, 160, 3, 2},
           {6, 320, 1, 1}}};
}

struct Variant {
  bool cifar;  // kuangliu's CIFAR block (always expand, ReLU, projection shortcuts)
  std::string act(GraphBuilder& b, const std::string& in, const std::string& name) const {
    return cifar ? b.relu(in, name) : b.relu6(in, name);
  }
};

std::string conv_bn(GraphBuilder& b, const std::string& in, const std::string& name, std::int64_t out,
                    std::int64_t kernel, std::int64_t stride) {
  auto x = b.conv(in, name, out, kernel, stride, kernel / 2, 1, false);
  return b.batch_norm(x, name + "_bn");
}

// Inverted residual: 1x1 expand -> 3x3 depthwise -> 1x1 linear projection (+ shortcut).
std::string inverted_residual(GraphBuilder& b, const Variant& v, const std::string& in,
                              const std::string& prefix, std::int64_t in_channels, const Stage& s,
                              std::int64_t stride) {
  const std::int64_t hidden = in_channels * s.expansion;
  std::string x = in;
  if (s.expansion != 1 || v.cifar)
    x = v.act(b, conv_bn(b, x, prefix + "expand", hidden, 1, 1), prefix + "expand_act");
  x = b.depthwise(x, prefix + "dw", 3, stride, 1, false);
  x = v.act(b, b.batch_norm(x, prefix + "dw_bn"), prefix + "dw_act");
  x = conv_bn(b, x, prefix + "project", s.channels, 1, 1);
  if (stride != 1) return x;
  if (in_channels == s.channels) return b.add_op({x, in}, prefix + "add");
  if (!v.cifar) return x;
  const auto shortcut = conv_bn(b, in, prefix + "shortcut", s.channels, 1, 1);
  return b.add_op({x, shortcut}, prefix + "add");
}

Graph make_mobilenet_v2_variant(bool cifar) {
  const Variant v{cifar};
  GraphBuilder b(cifar ? "mobilenet_v2_cifar" : "mobilenet_v2");
  const std::int64_t size = cifar ? 32 : 224;
  auto x = b.input("data", {3, size, size});
  x = v.act(b, conv_bn(b, x, "features.0.conv", 32, 3, cifar ? 1 : 2), "features.0.act");
  std::int64_t channels = 32;
  int index = 1;
  for (const Stage& s : stages(cifar)) {
    for (std::int64_t i = 0; i < s.blocks; ++i, ++index) {
      x = inverted_residual(b, v, x, fmt::format("features.{}.", index), channels, s, i == 0 ? s.stride : 1);
      channels = s.channels;
    }
  }
  x = v.act(b, conv_bn(b, x, fmt::format("features.{}.conv", index), 1280, 1, 1),
            fmt::format("features.{}.act", index));
  if (cifar) {
    x = b.avg_pool(x, "avgpool", 4, 4);
    x = b.fc(x, "classifier", 10);
  } else {
    x = b.global_avg_pool(x, "avgpool");
    x = b.dropout(x, "dropout", 0.2);
    x = b.fc(x, "classifier", 1000);
  }
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace

Graph make_mobilenet_v2() { return make_mobilenet_v2_variant(false); }
Graph make_mobilenet_v2_cifar() { return make_mobilenet_v2_variant(true); }

}  // namespace coinfer
