// Network in Network (Lin et al., ICLR 2014) as the ImageNet Caffe model-zoo model ("nin_imagenet",
// 3x224x224): four mlpconv blocks, each a spatial convolution followed by two 1x1 "cccp"
// convolutions with ReLU, 3x3/2 max pools (Caffe ceil rounding) after the first three, dropout, and
// a 6x6 global average pool over the 1000 class maps instead of fully connected layers. Parameter
// count derived from the prototxt: 7,595,176.
#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

struct MlpConv {
  std::int64_t channels, kernel, stride, padding, cccp_channels;
};

}  // namespace

Graph make_nin() {
  GraphBuilder b("nin");
  auto x = b.input("data", {3, 224, 224});
  const MlpConv blocks[4] = {
      {96, 11, 4, 0, 96}, {256, 5, 1, 2, 256}, {384, 3, 1, 1, 384}, {1024, 3, 1, 1, 1000}};
  int relu = 0, cccp = 1;
  for (int i = 0; i < 4; ++i) {
    const auto& m = blocks[i];
    if (i == 3) x = b.dropout(x, "drop");
    x = b.conv(x, i == 3 ? "conv4-1024" : fmt::format("conv{}", i + 1), m.channels, m.kernel, m.stride,
               m.padding);
    x = b.relu(x, fmt::format("relu{}", relu++));
    for (int j = 0; j < 2; ++j, ++cccp) {
      const std::int64_t out = (i == 3 && j == 0) ? 1024 : (j == 1 ? m.cccp_channels : m.channels);
      x = b.conv(x, fmt::format("cccp{}", cccp), out, 1);
      x = b.relu(x, fmt::format("relu{}", relu++));
    }
    if (i < 3) x = b.max_pool(x, fmt::format("pool{}", i), 3, 2, 0, true);
  }
  x = b.avg_pool(x, "pool4", 6, 1);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
