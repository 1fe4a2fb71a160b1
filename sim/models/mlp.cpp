// MNIST multi-layer perceptron LeNet-300-100 (LeCun et al. 1998, "2-layer NN, 300+100 hidden units";
// the MLP of Han et al.'s Deep Compression and the Caffe lenet_300_100 model): 1x28x28 input,
// fully connected 784-300-100-10 with ReLU, softmax. Parameter count: 266,610.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_mlp() {
  GraphBuilder b("mlp");
  auto x = b.input("data", {1, 28, 28});
  x = b.flatten(x, "flatten");
  x = b.fc(x, "ip1", 300);
  x = b.relu(x, "relu1");
  x = b.fc(x, "ip2", 100);
  x = b.relu(x, "relu2");
  x = b.fc(x, "ip3", 10);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
