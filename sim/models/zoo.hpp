#pragma once
/// The model zoo: named builders for the networks the source papers use.
///
///     Graph g = build_zoo_model("vgg16");          // shape-inferred
///     Graph h = load_model("models/tiny.json");    // a zoo name or a JSON model file
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

struct ZooEntry {
  std::string name;
  std::string summary;  ///< which published architecture it follows
  std::function<Graph()> build;
};

/// Every zoo model, in the order `coinfer models` lists them.
const std::vector<ZooEntry>& zoo();
bool is_zoo_model(std::string_view name);
/// Throws `InputError("", "model", "unknown model 'x'; known: ...")` for an unknown name.
Graph build_zoo_model(std::string_view name);
/// A zoo name, or else a path to a JSON model file.
Graph load_model(const std::string& name_or_file);

// One builder per architecture family (sim/models/<family>.cpp); each file's top comment names the
// published architecture it follows and its parameter count.
Graph make_lenet5();    // lenet.cpp
Graph make_mlp();       // mlp.cpp: LeNet-300-100
Graph make_convnet();   // convnet.cpp: cuda-convnet CIFAR-10 (Caffe cifar10_full)
Graph make_alexnet();   // alexnet.cpp: two-group Caffe AlexNet
Graph make_vgg16();     // vgg.cpp
Graph make_nin();       // nin.cpp: Network in Network, ImageNet
Graph make_overfeat();  // overfeat.cpp: OverFeat fast
Graph make_resnet18();  // resnet.cpp (torchvision layout)
Graph make_resnet50();
Graph make_resnet101();
Graph make_resnet152();
Graph make_mobilenet_v2();        // mobilenet.cpp: torchvision ImageNet model
Graph make_mobilenet_v2_cifar();  // mobilenet.cpp: kuangliu/pytorch-cifar CIFAR-10 variant
Graph make_inception_bn();        // inception_bn.cpp: BN-Inception
Graph make_deepspeech();          // deepspeech.cpp: Deep Speech (Hannun et al. 2014)
Graph make_chair();               // chair.cpp: chair generator (Dosovitskiy et al. 2015)
Graph make_pix2pix();             // pix2pix.cpp: U-Net 256 generator
Graph make_flownets();            // flownet.cpp: FlowNetSimple
Graph make_flownet_dff();         // flownet_dff.cpp: DFF's FlowNet (MobiEye's inter frame)
Graph make_yolo_small();          // yolo.cpp: YOLO v1 small
Graph make_digits_mlp();          // digits.cpp: 64-64-10 MLP for the 8x8 digits
Graph make_digits_cnn();          // digits.cpp: LeNet-style CNN for the 8x8 digits
Graph make_mxnet_mlp();           // mxnet_examples.cpp: MXNet's example MLP (AdaLearner)
Graph make_mxnet_lenet();         // mxnet_examples.cpp: MXNet's example LeNet (AdaLearner)

}  // namespace coinfer
