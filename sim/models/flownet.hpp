#pragma once
/// FlowNetSimple's encoder and refinement, shared by `flownets` (flownet.cpp) and DFF's FlowNet
/// `flownet_dff` (flownet_dff.cpp).
#include <string>

#include "sim/graph/graph_builder.hpp"

namespace coinfer {

/// Appends FlowNetSimple's ten encoder convolutions (conv1 7x7/2 64 ... conv6_1 3x3 1024, each with a
/// bias and LeakyReLU 0.1) and its four refinement levels (at each level a 3x3 flow prediction of 2
/// channels, a 4x4/2 transposed conv of the features with LeakyReLU 0.1, a 4x4/2 transposed conv
/// upsampling the flow, and a concat with the encoder features of the same size) to `frames` (the
/// stacked frame pair, 6 x H x W). `refinement_bias` gives the refinement's convolutions a bias.
/// Returns the last concat, `concat2`: 194 x H/4 x W/4.
///
///     auto concat2 = flownet_simple_trunk(b, b.input("data", {6, 384, 512}), false);   // 194x96x128
std::string flownet_simple_trunk(GraphBuilder& b, const std::string& frames, bool refinement_bias);

}  // namespace coinfer
