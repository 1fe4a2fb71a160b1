// FlowNetSimple (Dosovitskiy et al., "FlowNet: Learning Optical Flow with Convolutional Networks",
// ICCV 2015, Fig. 2 and 3) in the layout of the released model as ported to PyTorch
// (ClementPinard/FlowNetPytorch models/FlowNetS.py, batchNorm=False): the two RGB frames stacked as a
// 6x384x512 input; encoder conv1 7x7/2 64, conv2 5x5/2 128, conv3 5x5/2 256, conv3_1, conv4/2 512,
// conv4_1, conv5/2 512, conv5_1, conv6/2 1024, conv6_1 (3x3, bias, LeakyReLU 0.1); refinement: at each
// of 4 levels a 3x3 flow prediction (2 channels, no bias), a 4x4/2 transposed conv of the features
// (no bias, LeakyReLU 0.1), a 4x4/2 transposed conv upsampling the flow, and a channel concat with the
// encoder features of the same size; a final flow prediction at 1/4 resolution (96x128).
// Simplifications: the training-time multi-scale flow outputs are internal layers (only flow2 is an
// output), and the deploy-time x4 bilinear upsampling of flow2 to 384x512 is an `upsample` layer.
// Parameter count of the port, derived by hand from that file: 38,675,536.
#include <array>

#include <fmt/format.h>

#include "sim/models/flownet.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

std::string conv_lrelu(GraphBuilder& b, const std::string& in, const std::string& name, std::int64_t out,
                       std::int64_t kernel, std::int64_t stride) {
  auto x = b.conv(in, name, out, kernel, stride, (kernel - 1) / 2);
  return b.leaky_relu(x, name + "_lrelu", 0.1);
}

}  // namespace

std::string flownet_simple_trunk(GraphBuilder& b, const std::string& frames, bool refinement_bias) {
  auto x = conv_lrelu(b, frames, "conv1", 64, 7, 2);
  const auto conv2 = conv_lrelu(b, x, "conv2", 128, 5, 2);
  x = conv_lrelu(b, conv2, "conv3", 256, 5, 2);
  const auto conv3 = conv_lrelu(b, x, "conv3_1", 256, 3, 1);
  x = conv_lrelu(b, conv3, "conv4", 512, 3, 2);
  const auto conv4 = conv_lrelu(b, x, "conv4_1", 512, 3, 1);
  x = conv_lrelu(b, conv4, "conv5", 512, 3, 2);
  const auto conv5 = conv_lrelu(b, x, "conv5_1", 512, 3, 1);
  x = conv_lrelu(b, conv5, "conv6", 1024, 3, 2);
  x = conv_lrelu(b, x, "conv6_1", 1024, 3, 1);

  // Refinement, level 6 -> 2: concat(encoder skip, deconv(features), upsampled flow).
  const std::array<std::string, 4> skips = {conv5, conv4, conv3, conv2};
  const std::array<std::int64_t, 4> deconv_channels = {512, 256, 128, 64};
  for (int i = 0; i < 4; ++i) {
    const int level = 6 - i;
    const auto flow = b.conv(x, fmt::format("predict_flow{}", level), 2, 3, 1, 1, 1, refinement_bias);
    const auto flow_up = b.deconv(flow, fmt::format("upsampled_flow{}_to_{}", level, level - 1), 2, 4, 2, 1,
                                  0, refinement_bias);
    auto features =
        b.deconv(x, fmt::format("deconv{}", level - 1), deconv_channels[i], 4, 2, 1, 0, refinement_bias);
    features = b.leaky_relu(features, fmt::format("deconv{}_lrelu", level - 1), 0.1);
    x = b.concat({skips[i], features, flow_up}, fmt::format("concat{}", level - 1));
  }
  return x;
}

Graph make_flownets() {
  GraphBuilder b("flownets");
  const auto concat2 = flownet_simple_trunk(b, b.input("data", {6, 384, 512}), false);
  const auto flow = b.conv(concat2, "predict_flow2", 2, 3, 1, 1, 1, false);
  b.upsample(flow, "upsample_flow", 4, "bilinear");
  return b.build();
}

}  // namespace coinfer
