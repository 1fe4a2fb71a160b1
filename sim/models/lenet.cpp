// LeNet-5 as in LeCun et al. 1998 ("Gradient-based learning applied to document recognition"),
// with full C3 connectivity (as every modern re-implementation): 61,706 parameters.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_lenet5() {
  GraphBuilder b("lenet5");
  auto x = b.input("data", {1, 32, 32});
  x = b.conv(x, "conv1", 6, 5);
  x = b.tanh(x, "tanh1");
  x = b.avg_pool(x, "pool1", 2, 2);
  x = b.conv(x, "conv2", 16, 5);
  x = b.tanh(x, "tanh2");
  x = b.avg_pool(x, "pool2", 2, 2);
  x = b.conv(x, "conv3", 120, 5);
  x = b.tanh(x, "tanh3");
  x = b.fc(x, "fc1", 84);
  x = b.tanh(x, "tanh4");
  x = b.fc(x, "fc2", 10);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
