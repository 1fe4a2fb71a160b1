#include "partitioners/pipeline/compressor.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

/// Appends one inverted-residual block reading `in` (of `in_channels`): 1x1 expansion (t != 1) +
/// ReLU6, 3x3 depthwise (transposed in the decoder) of `stride` + ReLU6, 1x1 linear projection.
std::string add_block(Graph& g, const std::string& prefix, const std::string& in, std::int64_t in_channels,
                      std::int64_t out_channels, double expansion, std::int64_t stride, bool transposed) {
  auto add = [&](std::string name, OpKind op, std::string input, LayerAttrs attrs = {}) {
    g.add(Layer{name, op, {std::move(input)}, std::move(attrs), {}, 0, 0, 0});
    return name;
  };
  std::string x = in;
  std::int64_t hidden = in_channels;
  if (expansion != 1.0) {
    hidden = std::max<std::int64_t>(1, std::llround(static_cast<double>(in_channels) * expansion));
    LayerAttrs pw;
    pw.out_channels = hidden;
    x = add(prefix + "expand_act", OpKind::Relu6, add(prefix + "expand", OpKind::Conv2d, x, pw));
  }
  LayerAttrs dw;
  dw.kernel = {3, 3};
  dw.stride = {stride, stride};
  dw.padding = {1, 1};
  if (transposed) {
    dw.out_channels = hidden;
    dw.groups = hidden;  // one 3x3 filter per channel: depthwise transposed convolution
    dw.output_padding = {stride - 1, stride - 1};
    x = add(prefix + "dw_t", OpKind::ConvTranspose2d, x, dw);
  } else {
    x = add(prefix + "dw", OpKind::DepthwiseConv2d, x, dw);
  }
  x = add(prefix + "dw_act", OpKind::Relu6, x);
  LayerAttrs project;
  project.out_channels = out_channels;
  return add(prefix + "project", OpKind::Conv2d, x, project);
}

std::int64_t total_stride(const std::vector<CompressorBlock>& blocks) {
  std::int64_t s = 1;
  for (const auto& b : blocks) s *= b.stride;
  return s;
}

}  // namespace

CompressorSpec compressor_spec(std::int64_t gamma) {
  // Table I of Hu & Krishnamachari: (output channels x C, expansion ratio t, stride) per block.
  switch (gamma) {
    case 2:
      return {2, {{2, 1.0, 2}}, {{1, 0.5, 2}}};
    case 4:
      return {4, {{1, 1.0, 1}, {1, 1.0, 2}}, {{1, 1.0, 2}, {1, 1.0, 1}}};
    case 8:
      return {8, {{2, 1.0, 2}, {2, 1.0, 2}}, {{1, 0.5, 2}, {1, 1.0, 2}}};
    default:
      break;
  }
  throw InputError("", "", fmt::format("no compressor of ratio {} in Table I; expected 2, 4 or 8", gamma));
}

Graph insert_compressor(const Graph& graph, const std::string& split_layer, std::int64_t gamma,
                        InsertedCompressor* layers) {
  const CompressorSpec spec = compressor_spec(gamma);
  const long split_index = graph.index_of(split_layer);
  if (split_index < 0) throw InputError("", "", fmt::format("no layer '{}' in the model", split_layer));
  const Shape& shape = graph.layer(static_cast<std::size_t>(split_index)).output_shape;
  const std::int64_t stride = total_stride(spec.encoder);
  if (shape.size() != 3 || shape[1] % stride != 0 || shape[2] % stride != 0)
    throw InputError(
        "", "",
        fmt::format("the ratio-{} encoder cannot shrink the output {} of '{}' to exactly 1/{}: it "
                    "needs a (C, H, W) tensor with H and W multiples of {}",
                    gamma, shape_to_string(shape), split_layer, gamma, stride));
  const std::int64_t c = shape[0];
  const std::string prefix = fmt::format("ae{}.", gamma);
  Graph out(fmt::format("{}+ae{}@{}", graph.name(), gamma, split_layer));
  InsertedCompressor inserted;
  std::string decoded;
  const auto& order = graph.topological_order();
  bool after_split = false;
  for (const std::size_t index : order) {
    Layer layer = graph.layer(index);
    if (after_split)
      for (auto& in : layer.inputs)
        if (in == split_layer) in = decoded;
    out.add(layer);
    if (layer.name != split_layer) continue;
    after_split = true;
    std::string x = split_layer;
    std::int64_t channels = c;
    // The encoder's blocks, then the decoder's (transposed), each reading the previous one.
    auto stack = [&](const std::vector<CompressorBlock>& blocks, const char* part, bool transposed,
                     std::vector<std::string>& names) {
      for (std::size_t b = 0; b < blocks.size(); ++b) {
        x = add_block(out, fmt::format("{}{}{}.", prefix, part, b), x, channels, blocks[b].channels_x * c,
                      blocks[b].expansion, blocks[b].stride, transposed);
        channels = blocks[b].channels_x * c;
        names.push_back(x);
      }
    };
    stack(spec.encoder, "enc", false, inserted.encoder);
    stack(spec.decoder, "dec", true, inserted.decoder);
    decoded = x;
  }
  out.infer();
  if (layers != nullptr) *layers = std::move(inserted);
  return out;
}

}  // namespace coinfer
