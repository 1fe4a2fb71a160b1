// The networks AdaLearner trained on phones ([Mao-PhD §3.6.1]:
// MXNet recompiled for Android, MLP and LeNet on MNIST, ConvNet on CIFAR-10). They are MXNet's own
// example symbols (apache/incubator-mxnet, example/image-classification/symbols/), 1x28x28 MNIST input:
// - mxnet_mlp (symbols/mlp.py): fc1 128 -> relu -> fc2 64 -> relu -> fc3 10 -> SoftmaxOutput.
//   784*128+128 = 100,480; 128*64+64 = 8,256; 64*10+10 = 650: 109,386 parameters, 437,544 bytes in fp32,
//   the "0.44 MB" model of sec. 3.6.2.
// - mxnet_lenet (symbols/lenet.py): conv 5x5 x20 -> tanh -> max pool 2/2 -> conv 5x5 x50 -> tanh ->
//   max pool 2/2 -> flatten -> fc 500 -> tanh -> fc 10 -> SoftmaxOutput.
//   20*25+20 = 520; 50*20*25+50 = 25,050; 800*500+500 = 400,500; 500*10+10 = 5,010: 431,080 parameters.
// The ConvNet (CIFAR-10) is the zoo's `convnet` (convnet.cpp); see its comment and README for why.
#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_mxnet_mlp() {
  GraphBuilder b("mxnet_mlp");
  auto x = b.input("data", {1, 28, 28});
  x = b.flatten(x, "flatten");
  x = b.fc(x, "fc1", 128);
  x = b.relu(x, "relu1");
  x = b.fc(x, "fc2", 64);
  x = b.relu(x, "relu2");
  x = b.fc(x, "fc3", 10);
  b.softmax(x, "softmax");
  return b.build();
}

Graph make_mxnet_lenet() {
  GraphBuilder b("mxnet_lenet");
  auto x = b.input("data", {1, 28, 28});
  x = b.conv(x, "conv1", 20, 5);
  x = b.tanh(x, "tanh1");
  x = b.max_pool(x, "pool1", 2, 2);
  x = b.conv(x, "conv2", 50, 5);
  x = b.tanh(x, "tanh2");
  x = b.max_pool(x, "pool2", 2, 2);
  x = b.flatten(x, "flatten");
  x = b.fc(x, "fc1", 500);
  x = b.tanh(x, "tanh3");
  x = b.fc(x, "fc2", 10);
  b.softmax(x, "softmax");
  return b.build();
}

}  // namespace coinfer
