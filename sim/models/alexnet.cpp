// AlexNet as the original two-group Caffe model (bvlc_alexnet deploy.prototxt; Krizhevsky et al.,
// "ImageNet Classification with Deep Convolutional Neural Networks", NIPS 2012), the version the
// partitioning papers profile: 3x227x227 input, conv2/conv4/conv5 split in 2 groups, LRN after conv1
// and conv2 (size 5, alpha 1e-4, beta 0.75), 3x3/2 max pools with Caffe's ceil rounding, FC
// 4096-4096-1000. Caffe's parameter count with groups: 60,965,224.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/blocks.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_alexnet() {
  GraphBuilder b("alexnet");
  auto x = b.input("data", {3, 227, 227});
  x = b.conv(x, "conv1", 96, 11, 4);
  x = b.relu(x, "relu1");
  x = b.lrn(x, "norm1", 5, 1e-4, 0.75);
  x = b.max_pool(x, "pool1", 3, 2, 0, true);
  x = b.conv(x, "conv2", 256, 5, 1, 2, 2);
  x = b.relu(x, "relu2");
  x = b.lrn(x, "norm2", 5, 1e-4, 0.75);
  x = b.max_pool(x, "pool2", 3, 2, 0, true);
  x = b.conv(x, "conv3", 384, 3, 1, 1);
  x = b.relu(x, "relu3");
  x = b.conv(x, "conv4", 384, 3, 1, 1, 2);
  x = b.relu(x, "relu4");
  x = b.conv(x, "conv5", 256, 3, 1, 1, 2);
  x = b.relu(x, "relu5");
  x = b.max_pool(x, "pool5", 3, 2, 0, true);
  caffe_classifier(b, x, 4096, 4096, 1000);
  return b.build();
}

}  // namespace coinfer
