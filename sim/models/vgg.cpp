// VGG-16, configuration D of Simonyan & Zisserman (ICLR 2015), as in the Caffe model zoo
// and torchvision: 13 3x3 convolutions, 5 max pools, FC 4096-4096-1000; 138,357,544 params.
#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/blocks.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_vgg16() {
  GraphBuilder b("vgg16");
  auto x = b.input("data", {3, 224, 224});
  const int blocks[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (int s = 0; s < 5; ++s) {
    for (int i = 1; i <= blocks[s][1]; ++i) {
      x = b.conv(x, fmt::format("conv{}_{}", s + 1, i), blocks[s][0], 3, 1, 1);
      x = b.relu(x, fmt::format("relu{}_{}", s + 1, i));
    }
    x = b.max_pool(x, fmt::format("pool{}", s + 1), 2, 2);
  }
  caffe_classifier(b, x, 4096, 4096, 1000);
  return b.build();
}

}  // namespace coinfer
