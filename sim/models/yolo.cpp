// YOLO v1 "small" (Redmon et al., "You Only Look Once: Unified, Real-Time Object Detection", CVPR 2016,
// Fig. 3 convolution stack) as the Darknet YOLO-small weights used by the papers through the
// YOLO_tensorflow port (gliese581gg/YOLO_tensorflow YOLO_small_tf.py): 3x448x448 input, 24 convolutions
// with bias and LeakyReLU 0.1 ("same" padding), 4 2x2/2 max pools, then fully connected 512-4096-1470
// (the 7x7x30 detection tensor: 20 classes, 2 boxes) with dropout before the last. YOLO-small differs
// from the paper's full model in its first fc layer (512 instead of a locally connected layer).
// Parameter count derived from that configuration: 93,970,430.
#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

struct ConvSpec {
  std::int64_t channels, kernel, stride;
  bool pool_after;
};

}  // namespace

Graph make_yolo_small() {
  GraphBuilder b("yolo_small");
  auto x = b.input("data", {3, 448, 448});
  // Fig. 3 of the YOLO paper, layer by layer.
  const ConvSpec convs[] = {
      {64, 7, 2, true},    {192, 3, 1, true},   {128, 1, 1, false},  {256, 3, 1, false},  {256, 1, 1, false},
      {512, 3, 1, true},   {256, 1, 1, false},  {512, 3, 1, false},  {256, 1, 1, false},  {512, 3, 1, false},
      {256, 1, 1, false},  {512, 3, 1, false},  {256, 1, 1, false},  {512, 3, 1, false},  {512, 1, 1, false},
      {1024, 3, 1, true},  {512, 1, 1, false},  {1024, 3, 1, false}, {512, 1, 1, false},  {1024, 3, 1, false},
      {1024, 3, 1, false}, {1024, 3, 2, false}, {1024, 3, 1, false}, {1024, 3, 1, false},
  };
  int index = 1, pool = 1;
  for (const auto& c : convs) {
    x = b.conv(x, fmt::format("conv{}", index), c.channels, c.kernel, c.stride, c.kernel / 2);
    x = b.leaky_relu(x, fmt::format("conv{}_lrelu", index), 0.1);
    ++index;
    if (c.pool_after) x = b.max_pool(x, fmt::format("pool{}", pool++), 2, 2);
  }
  x = b.fc(x, "fc1", 512);
  x = b.leaky_relu(x, "fc1_lrelu", 0.1);
  x = b.fc(x, "fc2", 4096);
  x = b.leaky_relu(x, "fc2_lrelu", 0.1);
  x = b.dropout(x, "dropout", 0.5);
  b.fc(x, "detection", 1470);
  return b.build();
}

}  // namespace coinfer
