// CIFAR-10 ConvNet: Krizhevsky's cuda-convnet "layers-18pct" network as ported to Caffe
// (examples/cifar10/cifar10_full.prototxt): 3x32x32 input, three 5x5 convolutions (32, 32, 64
// channels, pad 2), 3x3/2 pools (max then average, Caffe ceil rounding), local response normalization
// (size 3, alpha 5e-5, beta 0.75; Caffe normalizes within channel, our lrn op across channels), fc 10.
// Parameter count derived from the prototxt: 89,578.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_convnet() {
  GraphBuilder b("convnet");
  auto x = b.input("data", {3, 32, 32});
  x = b.conv(x, "conv1", 32, 5, 1, 2);
  x = b.max_pool(x, "pool1", 3, 2, 0, true);
  x = b.relu(x, "relu1");
  x = b.lrn(x, "norm1", 3, 5e-5, 0.75);
  x = b.conv(x, "conv2", 32, 5, 1, 2);
  x = b.relu(x, "relu2");
  x = b.avg_pool(x, "pool2", 3, 2, 0, true);
  x = b.lrn(x, "norm2", 3, 5e-5, 0.75);
  x = b.conv(x, "conv3", 64, 5, 1, 2);
  x = b.relu(x, "relu3");
  x = b.avg_pool(x, "pool3", 3, 2, 0, true);
  x = b.fc(x, "ip1", 10);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
