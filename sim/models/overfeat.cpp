// OverFeat "fast" model (Sermanet et al., "OverFeat: Integrated Recognition, Localization and Detection
// using Convolutional Networks", ICLR 2014, Table 1): 3x231x231 input, 5 convolutions (96 11x11/4,
// 256 5x5, 512/1024/1024 3x3 padded), 2x2/2 max pools after layers 1, 2 and 5, fully connected
// 3072-4096-1000 with ReLU and dropout. Parameter count derived from Table 1: 145,920,872.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/blocks.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_overfeat() {
  GraphBuilder b("overfeat");
  auto x = b.input("data", {3, 231, 231});
  x = b.conv(x, "conv1", 96, 11, 4);
  x = b.relu(x, "relu1");
  x = b.max_pool(x, "pool1", 2, 2);
  x = b.conv(x, "conv2", 256, 5);
  x = b.relu(x, "relu2");
  x = b.max_pool(x, "pool2", 2, 2);
  x = b.conv(x, "conv3", 512, 3, 1, 1);
  x = b.relu(x, "relu3");
  x = b.conv(x, "conv4", 1024, 3, 1, 1);
  x = b.relu(x, "relu4");
  x = b.conv(x, "conv5", 1024, 3, 1, 1);
  x = b.relu(x, "relu5");
  x = b.max_pool(x, "pool5", 2, 2);
  caffe_classifier(b, x, 3072, 4096, 1000);
  return b.build();
}

}  // namespace coinfer
