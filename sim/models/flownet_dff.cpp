// DFF's FlowNet (Zhu et al., "Deep Feature Flow for Video Recognition", CVPR 2017), the inter-frame
// network of MobiEye [Mao-PhD §4.5.4, Fig. 4.11], in the layout of DFF's released MXNet model
// (msracver/Deep-Feature-Flow, dff_rfcn/symbols/resnet_v1_101_flownet_rfcn.py, get_flownet): the frame
// pair, halved by DFF before the network, stacked as 6 x H/2 x W/2; FlowNetSimple's encoder (conv1 and
// conv2 one conv each, conv3-conv6 two: the six groups of [Mao-PhD §4.5.4], down to 1/64 of the input,
// h/128 x w/128 of the frame) and its four refinement levels to 1/4 of the input, every refinement
// convolution with a bias; then a 2x2 average pool to 1/8 of the input (h/16 x w/16 of the frame,
// ResNet-101's feature stride in R-FCN) feeding two heads: a 3x3 flow prediction of 2 channels and a
// 1x1 convolution giving the 1024-channel scale map DFF multiplies the warped features by.
// Default input 6x320x512: a 600x1000 frame halved (300x500) and padded to multiples of 64; outputs
// `predict_flow` 2x40x64 and `scale_map` 1024x40x64. There is no final upsampling. Left out: the
// halving itself (an average pool of the two frames before the network) and the flow's x2.5 scaling.
// Parameter count, derived by hand from that file: 38,876,194.
#include "sim/models/flownet.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {

Graph make_flownet_dff() {
  GraphBuilder b("flownet_dff");
  const auto concat2 = flownet_simple_trunk(b, b.input("data", {6, 320, 512}), true);
  const auto pooled = b.avg_pool(concat2, "resize_concat2", 2, 2);
  b.conv(pooled, "predict_flow", 2, 3, 1, 1);
  b.conv(pooled, "scale_map", 1024, 1);
  return b.build();
}

}  // namespace coinfer
