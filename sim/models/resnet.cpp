// ResNet-18/50/101/152 (He et al., "Deep Residual Learning for Image Recognition", CVPR 2016, Table 1)
// in the torchvision layout: convolutions without bias, each followed by batch norm; bottleneck
// blocks stride in the 3x3 convolution ("ResNet v1.5"); 1x1 projection shortcuts (conv + bn) where
// the shape changes; global average pool; fc 1000. torchvision's parameter counts:
// ResNet-18 11,689,512; ResNet-50 25,557,032; ResNet-101 44,549,160; ResNet-152 60,192,808.
#include <array>

#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

struct ResNetSpec {
  const char* name;
  bool bottleneck;            // BasicBlock (2 x 3x3) or Bottleneck (1x1, 3x3, 1x1 x4)
  std::array<int, 4> blocks;  // blocks per stage (layer1..layer4)
};

// conv (no bias) + batch norm, named like torchvision's modules: "<prefix>conv1", "<prefix>bn1".
std::string conv_bn(GraphBuilder& b, const std::string& in, const std::string& prefix,
                    const std::string& suffix, std::int64_t out, std::int64_t kernel, std::int64_t stride) {
  auto x = b.conv(in, prefix + "conv" + suffix, out, kernel, stride, kernel / 2, 1, false);
  return b.batch_norm(x, prefix + "bn" + suffix);
}

// One residual block; `in_channels` is updated to the block's output channels.
std::string residual_block(GraphBuilder& b, const std::string& in, const std::string& prefix, bool bottleneck,
                           std::int64_t planes, std::int64_t stride, std::int64_t& in_channels) {
  const std::int64_t out_channels = bottleneck ? 4 * planes : planes;
  std::string x;
  if (bottleneck) {
    x = b.relu(conv_bn(b, in, prefix, "1", planes, 1, 1), prefix + "relu1");
    x = b.relu(conv_bn(b, x, prefix, "2", planes, 3, stride), prefix + "relu2");
    x = conv_bn(b, x, prefix, "3", out_channels, 1, 1);
  } else {
    x = b.relu(conv_bn(b, in, prefix, "1", planes, 3, stride), prefix + "relu1");
    x = conv_bn(b, x, prefix, "2", planes, 3, 1);
  }
  std::string shortcut = in;
  if (stride != 1 || in_channels != out_channels) {
    shortcut = b.conv(in, prefix + "downsample.0", out_channels, 1, stride, 0, 1, false);
    shortcut = b.batch_norm(shortcut, prefix + "downsample.1");
  }
  in_channels = out_channels;
  x = b.add_op({x, shortcut}, prefix + "add");
  return b.relu(x, prefix + "relu_out");
}

Graph make_resnet(const ResNetSpec& spec) {
  GraphBuilder b(spec.name);
  auto x = b.input("data", {3, 224, 224});
  x = b.conv(x, "conv1", 64, 7, 2, 3, 1, false);
  x = b.batch_norm(x, "bn1");
  x = b.relu(x, "relu");
  x = b.max_pool(x, "maxpool", 3, 2, 1);
  std::int64_t channels = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t planes = std::int64_t{64} << stage;
    for (int i = 0; i < spec.blocks[stage]; ++i) {
      const std::int64_t stride = (stage > 0 && i == 0) ? 2 : 1;
      x = residual_block(b, x, fmt::format("layer{}.{}.", stage + 1, i), spec.bottleneck, planes, stride,
                         channels);
    }
  }
  x = b.global_avg_pool(x, "avgpool");
  x = b.fc(x, "fc", 1000);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace

Graph make_resnet18() { return make_resnet({"resnet18", false, {2, 2, 2, 2}}); }
Graph make_resnet50() { return make_resnet({"resnet50", true, {3, 4, 6, 3}}); }
Graph make_resnet101() { return make_resnet({"resnet101", true, {3, 4, 23, 3}}); }
Graph make_resnet152() { return make_resnet({"resnet152", true, {3, 8, 36, 3}}); }

}  // namespace coinfer
