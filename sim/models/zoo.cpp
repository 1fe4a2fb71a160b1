#include "sim/models/zoo.hpp"
#include "sim/onnx/onnx_import.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/graph/graph_json.hpp"

namespace coinfer {

const std::vector<ZooEntry>& zoo() {
  static const std::vector<ZooEntry> entries{
      {"lenet5", "LeNet-5 (LeCun et al. 1998), 1x32x32 input, 10 classes", make_lenet5},
      {"mlp", "MNIST MLP LeNet-300-100 (LeCun et al. 1998), 784-300-100-10", make_mlp},
      {"convnet", "CIFAR-10 ConvNet, cuda-convnet layers-18pct (Caffe cifar10_full), 3x32x32", make_convnet},
      {"alexnet", "AlexNet (Krizhevsky et al. 2012), two-group Caffe model with LRN, 3x227x227",
       make_alexnet},
      {"vgg16", "VGG-16 (Simonyan & Zisserman 2015, configuration D), 3x224x224, 1000 classes", make_vgg16},
      {"nin", "Network in Network (Lin et al. 2014), ImageNet Caffe model, 3x224x224", make_nin},
      {"overfeat", "OverFeat fast model (Sermanet et al. 2014, Table 1), 3x231x231", make_overfeat},
      {"resnet18", "ResNet-18 (He et al. 2016), torchvision layout, 3x224x224", make_resnet18},
      {"resnet50", "ResNet-50 (He et al. 2016), torchvision layout, 3x224x224", make_resnet50},
      {"resnet101", "ResNet-101 (He et al. 2016), torchvision layout, 3x224x224", make_resnet101},
      {"resnet152", "ResNet-152 (He et al. 2016), torchvision layout, 3x224x224", make_resnet152},
      {"mobilenet_v2", "MobileNet-v2 (Sandler et al. 2018), torchvision, 3x224x224, 1000 classes",
       make_mobilenet_v2},
      {"mobilenet_v2_cifar", "MobileNet-v2 CIFAR-10 variant of kuangliu/pytorch-cifar, 3x32x32, 10 classes",
       make_mobilenet_v2_cifar},
      {"inception_bn", "Inception-BN (Ioffe & Szegedy 2015, Figure 5), 3x224x224", make_inception_bn},
      {"deepspeech", "Deep Speech (Hannun et al. 2014), 26 MFCC x 100 steps, BiLSTM 2048, 29 chars",
       make_deepspeech},
      {"chair", "Chair generator (Dosovitskiy et al. 2015), style+view -> 3x128x128", make_chair},
      {"pix2pix", "Pix2Pix U-Net 256 generator (Isola et al. 2017), 3x256x256", make_pix2pix},
      {"flownets", "FlowNetSimple (Dosovitskiy et al. 2015), 6x384x512 frame pair", make_flownets},
      {"flownet_dff", "DFF's FlowNet (Zhu et al. 2017), MobiEye's inter frame, 6x320x512 frame pair",
       make_flownet_dff},
      {"yolo_small", "YOLO v1 small (Redmon et al. 2016; Darknet YOLO-small), 3x448x448", make_yolo_small},
      {"digits_mlp", "MLP 64-64-10 for the 8x8 digits scikit-learn ships (`coinfer train`), 1x8x8",
       make_digits_mlp},
      {"digits_cnn", "LeNet-style CNN for the 8x8 digits: conv 3x3 x8, max pool, fc 32, fc 10; 1x8x8",
       make_digits_cnn},
      {"mxnet_mlp", "MXNet's example MLP (AdaLearner's MNIST MLP), 784-128-64-10, 109,386 parameters",
       make_mxnet_mlp},
      {"mxnet_lenet", "MXNet's example LeNet (AdaLearner's LeNet): conv 5x5 x20, x50, fc 500, 1x28x28",
       make_mxnet_lenet},
  };
  return entries;
}

bool is_zoo_model(std::string_view name) {
  for (const auto& e : zoo())
    if (e.name == name) return true;
  return false;
}

Graph build_zoo_model(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& e : zoo()) {
    if (e.name == name) return e.build();
    names.push_back(e.name);
  }
  throw InputError("", "model",
                   fmt::format("unknown model '{}'; known: {} (or a .json or .onnx model file)", name,
                               fmt::join(names, ", ")));
}

Graph load_model(const std::string& name_or_file) {
  if (is_zoo_model(name_or_file)) return build_zoo_model(name_or_file);
  if (is_onnx_file(name_or_file)) return import_onnx(name_or_file);
  if (name_or_file.find('/') != std::string::npos || name_or_file.ends_with(".json"))
    return load_model_file(name_or_file);
  return build_zoo_model(name_or_file);
}

}  // namespace coinfer
