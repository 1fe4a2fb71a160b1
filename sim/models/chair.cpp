// "Chair" generator of Dosovitskiy, Springenberg & Brox, "Learning to Generate Chairs with Convolutional
// Neural Networks", CVPR 2015 (arXiv:1411.5928, Fig. 2), the generative benchmark of JointDNN
// (Table 2): from a chair style (one-hot over 809 models) and a viewpoint (sin/cos of azimuth and
// elevation) it generates a 3x128x128 RGB image. Fully connected FC-1..FC-4 (512+512 per input
// stream, then 1024, 1024), FC-5 to a 256x8x8 map, and four "up-convolutions" (2x unpooling then
// 5x5 convolution) to 256x16x16, 92x32x32, 48x64x64 and 3x128x128; ReLU after each hidden layer.
// Simplifications (our IR has one input tensor and no reshape): the two input vectors arrive
// concatenated as one 813x1x1 tensor and the fully connected layers are 1x1 convolutions on it (same
// weights and MACs as fc layers); FC-1 is one dense 813->1024 layer (the paper's two 512-unit streams
// are block-diagonal inside it), FC-2 keeps the two streams as a 2-group 1x1 convolution; FC-5 plus
// the reshape is an 8x8 transposed convolution from 1x1 (identical weights, 256 instead of 16,384
// biases); unpooling (zero-filled) is a nearest `upsample` (same output size); the optional
// transformation input and the segmentation-mask stream are left out. Parameters: 22,577,119.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_chair() {
  constexpr std::int64_t kStyles = 809, kView = 4;
  GraphBuilder b("chair");
  auto x = b.input("style_view", {kStyles + kView, 1, 1});
  x = b.relu(b.conv(x, "fc1", 1024, 1), "relu1");
  x = b.relu(b.conv(x, "fc2", 1024, 1, 1, 0, 2), "relu2");
  x = b.relu(b.conv(x, "fc3", 1024, 1), "relu3");
  x = b.relu(b.conv(x, "fc4", 1024, 1), "relu4");
  x = b.relu(b.deconv(x, "fc5", 256, 8), "relu5");
  const std::int64_t channels[4] = {256, 92, 48, 3};
  for (int i = 0; i < 4; ++i) {
    const std::string p = "uconv" + std::to_string(i + 1);
    x = b.upsample(x, p + ".unpool", 2);
    x = b.conv(x, p + ".conv", channels[i], 5, 1, 2);
    if (i < 3) x = b.relu(x, p + ".relu");
  }
  return b.build();
}

}  // namespace coinfer
