// Small networks for the 8x8 handwritten digits that scikit-learn ships (UCI optdigits; coinfer reads
// them in sim/functional/dataset.hpp), the models `coinfer train` fits in seconds. Neither is a
// published model: they are sized for 1x8x8 inputs after the classic shapes.
// - digits_mlp: 64-64-10 with ReLU, the one-hidden-layer perceptron of LeCun et al. 1998's comparison
//   ("2-layer NN") scaled to 64 inputs: 4,160 + 650 = 4,810 parameters.
// - digits_cnn: LeNet-style (LeCun et al. 1998): a 3x3 convolution (8 filters, padding 1) -> ReLU ->
//   2x2 max pooling -> fc 32 -> ReLU -> fc 10: 80 + 4,128 + 330 = 4,538 parameters.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_digits_mlp() {
  GraphBuilder b("digits_mlp");
  auto x = b.input("data", {1, 8, 8});
  x = b.flatten(x, "flatten");
  x = b.fc(x, "fc1", 64);
  x = b.relu(x, "relu1");
  x = b.fc(x, "fc2", 10);
  b.softmax(x, "prob");
  return b.build();
}

Graph make_digits_cnn() {
  GraphBuilder b("digits_cnn");
  auto x = b.input("data", {1, 8, 8});
  x = b.conv(x, "conv1", 8, 3, 1, 1);
  x = b.relu(x, "relu1");
  x = b.max_pool(x, "pool1", 2, 2);
  x = b.flatten(x, "flatten");
  x = b.fc(x, "fc1", 32);
  x = b.relu(x, "relu2");
  x = b.fc(x, "fc2", 10);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
