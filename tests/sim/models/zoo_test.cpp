// The model zoo: published parameter counts, structural invariants of every model, exact JSON round
// trips, and spot checks of output shapes and MACs.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/graph/graph_builder.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/models/zoo.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

std::vector<std::string> zoo_names() {
  std::vector<std::string> names;
  for (const auto& e : zoo()) names.push_back(e.name);
  return names;
}

const Shape& shape_of(const Graph& g, const std::string& layer) {
  return g.layer_by_name(layer).output_shape;
}

std::int64_t params_of(const Graph& g, const std::string& layer) { return g.layer_by_name(layer).params; }

}  // namespace

// ---- Published parameter counts -------------------------------------------------------------------

TEST_CASE("vgg16 has the published 138,357,544 parameters") {
  // Simonyan & Zisserman 2015 Table 2 ("138M"); torchvision's exact count.
  CHECK(build_zoo_model("vgg16").total_params() == 138357544);
}

TEST_CASE("resnet18 has torchvision's 11,689,512 parameters") {
  CHECK(build_zoo_model("resnet18").total_params() == 11689512);
}

TEST_CASE("resnet50 has torchvision's 25,557,032 parameters") {
  CHECK(build_zoo_model("resnet50").total_params() == 25557032);
}

TEST_CASE("resnet101 has torchvision's 44,549,160 parameters") {
  CHECK(build_zoo_model("resnet101").total_params() == 44549160);
}

TEST_CASE("resnet152 has torchvision's 60,192,808 parameters") {
  CHECK(build_zoo_model("resnet152").total_params() == 60192808);
}

TEST_CASE("mobilenet_v2 has torchvision's 3,504,872 parameters") {
  CHECK(build_zoo_model("mobilenet_v2").total_params() == 3504872);
}

TEST_CASE("alexnet has the two-group Caffe model's 60,965,224 parameters") {
  // conv1 96*3*121+96 = 34,944; conv2 (2 groups) 256*48*25+256 = 307,456; conv3 384*256*9+384 = 885,120;
  // conv4 (2 groups) 384*192*9+384 = 663,936; conv5 (2 groups) 256*192*9+256 = 442,624;
  // fc6 9216*4096+4096 = 37,752,832; fc7 4096*4096+4096 = 16,781,312; fc8 4096*1000+1000 = 4,097,000.
  const Graph g = build_zoo_model("alexnet");
  CHECK(params_of(g, "conv2") == 307456);
  CHECK(params_of(g, "conv4") == 663936);
  CHECK(g.total_params() == 60965224);
}

TEST_CASE("lenet5 has 61,706 parameters") {
  // conv1 6*25+6 = 156; conv2 16*6*25+16 = 2,416; conv3 120*16*25+120 = 48,120; fc1 120*84+84 = 10,164;
  // fc2 84*10+10 = 850.
  CHECK(build_zoo_model("lenet5").total_params() == 61706);
}

TEST_CASE("mlp is LeNet-300-100 with 266,610 parameters") {
  // 784*300+300 = 235,500; 300*100+100 = 30,100; 100*10+10 = 1,010.
  CHECK(build_zoo_model("mlp").total_params() == 266610);
}

TEST_CASE("convnet is Caffe's cifar10_full with 89,578 parameters") {
  // conv1 32*3*25+32 = 2,432; conv2 32*32*25+32 = 25,632; conv3 64*32*25+64 = 51,264;
  // ip1 on 64x4x4: 1024*10+10 = 10,250.
  CHECK(build_zoo_model("convnet").total_params() == 89578);
}

TEST_CASE("nin has the ImageNet Caffe model's 7,595,176 parameters") {
  // conv1 96*3*121+96 = 34,944, cccp1/2 2*(96*96+96) = 18,624; conv2 256*96*25+256 = 614,656,
  // cccp3/4 2*(256*256+256) = 131,584; conv3 384*256*9+384 = 885,120, cccp5/6 2*(384*384+384) = 295,680;
  // conv4 1024*384*9+1024 = 3,539,968, cccp7 1024*1024+1024 = 1,049,600, cccp8 1000*1024+1000 = 1,025,000.
  CHECK(build_zoo_model("nin").total_params() == 7595176);
}

TEST_CASE("overfeat fast model has the 145,920,872 parameters of its Table 1 layers") {
  // conv1 96*3*121+96 = 34,944; conv2 256*96*25+256 = 614,656; conv3 512*256*9+512 = 1,180,160;
  // conv4 1024*512*9+1024 = 4,719,616; conv5 1024*1024*9+1024 = 9,438,208; fc6 on 1024x6x6:
  // 36864*3072+3072 = 113,249,280; fc7 3072*4096+4096 = 12,587,008; fc8 4096*1000+1000 = 4,097,000.
  const Graph g = build_zoo_model("overfeat");
  CHECK(params_of(g, "fc6") == 113249280);
  CHECK(g.total_params() == 145920872);
}

TEST_CASE("digits_mlp is 64-64-10 with 4,810 parameters") {
  // fc1 64 x 64 + 64 = 4,160; fc2 64 x 10 + 10 = 650.
  const Graph g = build_zoo_model("digits_mlp");
  CHECK(params_of(g, "fc1") == 4160);
  CHECK(g.total_params() == 4810);
}

TEST_CASE("digits_cnn has 4,538 parameters and an 8x4x4 feature map before its fc layers") {
  // conv1 8 x 1 x 3 x 3 + 8 = 80 (padding 1 keeps 8x8, pooling halves it); fc1 128 x 32 + 32 = 4,128;
  // fc2 32 x 10 + 10 = 330.
  const Graph g = build_zoo_model("digits_cnn");
  CHECK(shape_of(g, "pool1") == Shape{8, 4, 4});
  CHECK(params_of(g, "fc1") == 4128);
  CHECK(g.total_params() == 4538);
}

TEST_CASE("mobilenet_v2_cifar has kuangliu's 2,296,922 parameters") {
  // Differences from torchvision's 3,504,872: fc 1280*10+10 instead of 1280*1000+1000 (-1,268,190);
  // the t = 1 block's extra 1x1 expansion 32*32 + bn 64 (+1,088); projection shortcuts (conv + bn) in the
  // stride-1 blocks whose channels change: 32->16 (512+32), 16->24 (384+48), 64->96 (6,144+192),
  // 160->320 (51,200+640) (+59,152). 3,504,872 - 1,268,190 + 1,088 + 59,152 = 2,296,922.
  CHECK(build_zoo_model("mobilenet_v2_cifar").total_params() == 2296922);
}

TEST_CASE("pix2pix unet_256 has 54,413,955 parameters (printed as 54.414 M by the authors' code)") {
  // Encoder convs (4x4, no bias): 3*64*16 + 64*128*16 + 128*256*16 + 256*512*16 + 4*512*512*16 = 19,532,800;
  // encoder bn: 2*(128+256+512+512+512+512) = 4,864. Decoder transposed convs: 512*512*16 (innermost)
  // + 3*1024*512*16 + 1024*256*16 + 512*128*16 + 256*64*16 = 34,865,152, outermost 128*3*16+3 = 6,147;
  // decoder bn: 2*(512*4+256+128+64) = 4,992. Sum: 54,413,955 / 1e6 = 54.414 M.
  CHECK(build_zoo_model("pix2pix").total_params() == 54413955);
}

TEST_CASE("flownets has the 38,675,536 parameters of the FlowNetS port") {
  // Encoder (3x3 unless stated, with bias): conv1 7x7 64*6*49+64 = 18,880; conv2 5x5 128*64*25+128 = 204,928;
  // conv3 5x5 256*128*25+256 = 819,456; conv3_1 590,080; conv4 1,180,160; conv4_1, conv5, conv5_1
  // 3*2,359,808; conv6 4,719,616; conv6_1 9,438,208. Deconvs (4x4, no bias): 16*(1024*512 + 1026*256 +
  // 770*128 + 386*64) = 14,563,328; flow predictions (no bias): 18*(1024+1026+770+386+194) = 61,200; flow
  // upsampling 4*64 = 256.
  CHECK(build_zoo_model("flownets").total_params() == 38675536);
}

TEST_CASE("flownet_dff has the 38,876,194 parameters of DFF's released FlowNet") {
  // Encoder as flownets: 24,050,752. Refinement with biases: flow predictions 3x3 -> 2,
  // 18*(1024+1026+770+386) + 4*2 = 57,716; deconvs 4x4, 16*(1024*512 + 1026*256 + 770*128 + 386*64)
  // + (512+256+128+64) = 14,564,288; flow upsampling 4*(2*2*16 + 2) = 264. Heads on the pooled concat2
  // (194 channels): predict_flow 194*2*9 + 2 = 3,494, scale_map 194*1024 + 1024 = 199,680.
  // 24,050,752 + 57,716 + 14,564,288 + 264 + 3,494 + 199,680 = 38,876,194.
  CHECK(build_zoo_model("flownet_dff").total_params() == 38876194);
}

TEST_CASE("flownet_dff gives the flow at 1/8 of its input (1/16 of the frame), with no upsampling") {
  // 6x320x512 (a 600x1000 frame halved and padded to multiples of 64): conv6_1 at 1/64 = 5x8,
  // concat2 at 1/4 = 80x128, pooled to 1/8: flow 2x40x64 and the scale map 1024x40x64.
  const Graph g = build_zoo_model("flownet_dff");
  CHECK(shape_of(g, "conv6_1") == Shape{1024, 5, 8});
  CHECK(shape_of(g, "concat2") == Shape{194, 80, 128});
  CHECK(shape_of(g, "predict_flow") == Shape{2, 40, 64});
  CHECK(shape_of(g, "scale_map") == Shape{1024, 40, 64});
  const auto outputs = g.output_layers();
  REQUIRE(outputs.size() == 2);
  CHECK(g.layer(outputs.front()).name == "predict_flow");
}

TEST_CASE("deepspeech runs its recurrent layer as one bidirectional lstm over the sequence") {
  const Graph g = build_zoo_model("deepspeech");
  const Layer& brnn = g.layer_by_name("brnn4");
  CHECK(brnn.op == OpKind::Lstm);
  CHECK(brnn.attrs.bidirectional);
  // 2 directions * 4 gates * (2048*2048 input + 2048*2048 recurrent + 2048 bias).
  CHECK(brnn.params == 67125248);
  CHECK(brnn.macs == 2LL * 4 * (2048 * 2048 + 2048 * 2048) * 100);
  CHECK(brnn.output_shape == Shape{100, 4096});
}

TEST_CASE("alexnet, vgg16 and nin have JointDNN's Table 2 layer counts") {
  // JointDNN [JointDNN Table 2] lists AlexNet 21, VGG16 37 and NiN 29 layers:
  // every layer but the input and dropout (identity at inference) counts, softmax included.
  auto counted = [](const std::string& name) {
    const Graph g = build_zoo_model(name);
    return std::count_if(g.layers().begin(), g.layers().end(),
                         [](const Layer& l) { return l.op != OpKind::Input && l.op != OpKind::Dropout; });
  };
  CHECK(counted("alexnet") == 21);
  CHECK(counted("vgg16") == 37);
  CHECK(counted("nin") == 29);
}

TEST_CASE("mxnet_mlp is MXNet's example 784-128-64-10 MLP, 109,386 parameters (0.44 MB)") {
  // fc1 784*128+128 = 100,480; fc2 128*64+64 = 8,256; fc3 64*10+10 = 650. 109,386 x 4 bytes = 437,544
  // bytes, the 0.44 MB of the dissertation's sec. 3.6.2.
  const Graph g = build_zoo_model("mxnet_mlp");
  CHECK(params_of(g, "fc1") == 100480);
  CHECK(g.total_params() == 109386);
  CHECK(g.total_params() * 4 == 437544);
}

TEST_CASE("mxnet_lenet is MXNet's example LeNet: 20 and 50 5x5 filters, fc 500, 431,080 parameters") {
  // conv1 20*25+20 = 520 (28 -> 24, pool -> 12); conv2 50*20*25+50 = 25,050 (12 -> 8, pool -> 4);
  // fc1 50*4*4*500+500 = 400,500; fc2 500*10+10 = 5,010.
  const Graph g = build_zoo_model("mxnet_lenet");
  CHECK(shape_of(g, "pool2") == Shape{50, 4, 4});
  CHECK(params_of(g, "conv2") == 25050);
  CHECK(params_of(g, "fc1") == 400500);
  CHECK(g.total_params() == 431080);
}

// ---- Every zoo model ------------------------------------------------------------------------------------

TEST_CASE("zoo names are unique and every model is named after its zoo entry") {
  std::set<std::string> seen;
  for (const auto& e : zoo()) {
    INFO(e.name);
    CHECK(seen.insert(e.name).second);
    CHECK_FALSE(e.summary.empty());
    CHECK(e.build().name() == e.name);
  }
  CHECK(seen.size() == 24);
}

TEST_CASE("every zoo model builds with one input, unique names and a complete topological order") {
  const std::string name = GENERATE(from_range(zoo_names()));
  INFO(name);
  const Graph g = build_zoo_model(name);
  REQUIRE(g.inferred());
  CHECK(g.input_layers().size() == 1);
  CHECK(g.output_layers().size() >= 1);
  CHECK(g.total_params() > 0);
  CHECK(g.total_macs() > 0);

  std::set<std::string> names;
  for (const auto& l : g.layers()) names.insert(l.name);
  CHECK(names.size() == g.size());

  // The order is a permutation of all layers in which every layer comes after its inputs.
  const auto& order = g.topological_order();
  REQUIRE(order.size() == g.size());
  std::vector<long> position(g.size(), -1);
  for (std::size_t i = 0; i < order.size(); ++i) position.at(order[i]) = static_cast<long>(i);
  CHECK(std::count(position.begin(), position.end(), -1) == 0);
  for (std::size_t i = 0; i < g.size(); ++i)
    for (const auto& in : g.layer(i).inputs) CHECK(position[g.index_of(in)] < position[i]);
}

TEST_CASE("every zoo model survives a JSON round trip exactly") {
  const std::string name = GENERATE(from_range(zoo_names()));
  INFO(name);
  const Graph g = build_zoo_model(name);
  const Graph back = graph_from_json(Json::parse(graph_to_json(g).dump()));
  CHECK(back == g);
  CHECK(graph_summary_json(back) == graph_summary_json(g));
}

TEST_CASE("an unknown zoo name lists the known models") {
  try {
    build_zoo_model("resnet34");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(),
               Contains("unknown model 'resnet34'") && Contains("resnet50") && Contains("yolo_small"));
  }
}

// ---- Shape and MAC spot checks -----------------------------------------------------------------------

TEST_CASE("alexnet feature maps are 55, 27, 13 and 6 pixels wide") {
  // conv1: (227 - 11)/4 + 1 = 55; 3x3/2 pools: 55 -> 27 -> 13 -> 6.
  const Graph g = build_zoo_model("alexnet");
  CHECK(shape_of(g, "conv1") == Shape{96, 55, 55});
  CHECK(shape_of(g, "pool1") == Shape{96, 27, 27});
  CHECK(shape_of(g, "conv3") == Shape{384, 13, 13});
  CHECK(shape_of(g, "pool5") == Shape{256, 6, 6});
  CHECK(g.layer_by_name("conv1").macs == 105415200);  // 96*55*55 outputs * 3*11*11
}

TEST_CASE("resnet50 ends in a 2048x7x7 feature map and costs 4.09 GMACs") {
  const Graph g = build_zoo_model("resnet50");
  CHECK(shape_of(g, "maxpool") == Shape{64, 56, 56});
  CHECK(shape_of(g, "layer1.0.downsample.1") == Shape{256, 56, 56});
  CHECK(shape_of(g, "layer4.2.relu_out") == Shape{2048, 7, 7});
  CHECK(shape_of(g, "fc") == Shape{1000});
  CHECK(g.total_macs() == 4089184256);  // torchvision's "4.09 GFLOPS" (multiply-accumulates)
}

TEST_CASE("resnet18 uses basic blocks with projection shortcuts only where the shape changes") {
  const Graph g = build_zoo_model("resnet18");
  CHECK(g.layer_by_name_or_null("layer1.0.downsample.0") == nullptr);
  CHECK(shape_of(g, "layer2.0.downsample.0") == Shape{128, 28, 28});
  CHECK(shape_of(g, "layer4.1.relu_out") == Shape{512, 7, 7});
}

TEST_CASE("mobilenet_v2 reaches 1280x7x7 at 224 input and 1280x4x4 in the CIFAR variant") {
  const Graph imagenet = build_zoo_model("mobilenet_v2");
  CHECK(shape_of(imagenet, "features.0.conv") == Shape{32, 112, 112});
  CHECK(shape_of(imagenet, "features.18.conv") == Shape{1280, 7, 7});
  CHECK(imagenet.total_macs() == 300774272);  // the paper's "300M multiply-adds"
  const Graph cifar = build_zoo_model("mobilenet_v2_cifar");
  CHECK(shape_of(cifar, "features.0.conv") == Shape{32, 32, 32});
  CHECK(shape_of(cifar, "features.3.project") == Shape{24, 32, 32});  // stage-2 stride 1 for CIFAR
  CHECK(shape_of(cifar, "features.18.conv") == Shape{1280, 4, 4});
  CHECK(shape_of(cifar, "classifier") == Shape{10});
}

TEST_CASE("inception_bn modules have Figure 5's output sizes") {
  // Figure 5 of Ioffe & Szegedy: 3a 256x28x28, 3c 576x14x14, 4e 1056x7x7, 5b 1024x7x7.
  const Graph g = build_zoo_model("inception_bn");
  CHECK(shape_of(g, "pool2_3x3_s2") == Shape{192, 28, 28});
  CHECK(shape_of(g, "inception_3a.output") == Shape{256, 28, 28});
  CHECK(shape_of(g, "inception_3c.output") == Shape{576, 14, 14});
  CHECK(shape_of(g, "inception_4e.output") == Shape{1056, 7, 7});  // 192 + 256 + 608 passed through
  CHECK(shape_of(g, "inception_5b.output") == Shape{1024, 7, 7});
}

TEST_CASE("generative and encoder-decoder models produce full-size images") {
  const Graph chair = build_zoo_model("chair");
  CHECK(shape_of(chair, "fc5") == Shape{256, 8, 8});
  CHECK(shape_of(chair, "uconv4.conv") == Shape{3, 128, 128});
  const Graph pix = build_zoo_model("pix2pix");
  CHECK(shape_of(pix, "down8.conv") == Shape{512, 1, 1});
  CHECK(shape_of(pix, "up2.concat") == Shape{128, 128, 128});
  CHECK(shape_of(pix, "tanh") == Shape{3, 256, 256});
  const Graph flow = build_zoo_model("flownets");
  CHECK(shape_of(flow, "conv6_1") == Shape{1024, 6, 8});
  CHECK(shape_of(flow, "concat2") == Shape{194, 96, 128});
  CHECK(shape_of(flow, "upsample_flow") == Shape{2, 384, 512});
}

TEST_CASE("yolo_small, nin, overfeat, convnet and deepspeech have their documented shapes") {
  CHECK(shape_of(build_zoo_model("yolo_small"), "conv24") == Shape{1024, 7, 7});
  CHECK(shape_of(build_zoo_model("yolo_small"), "detection") == Shape{1470});  // 7*7*(20 + 2*5)
  CHECK(shape_of(build_zoo_model("nin"), "pool4") == Shape{1000, 1, 1});
  CHECK(shape_of(build_zoo_model("overfeat"), "pool5") == Shape{1024, 6, 6});
  CHECK(shape_of(build_zoo_model("convnet"), "pool3") == Shape{64, 4, 4});
  const Graph ds = build_zoo_model("deepspeech");
  CHECK(shape_of(ds, "mfcc") == Shape{100, 494});  // 100 steps of 19 x 26 MFCC context windows
  CHECK(shape_of(ds, "fc1") == Shape{100, 2048});
  CHECK(shape_of(ds, "prob") == Shape{100, 29});
}
