#include "partitioners/modnn/conv_split.hpp"

#include <fmt/format.h>

#include "partitioners/modnn/grid2d.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

bool windowed(OpKind op) { return op == OpKind::Conv2d || op == OpKind::MaxPool || op == OpKind::AvgPool; }

void check_splittable(const Layer& l, const Shape& in) {
  if (in.size() != 3 || l.output_shape.size() != 3)
    throw InputError("", "model",
                     fmt::format("layer '{}': MoDNN splits (C, H, W) feature maps only", l.name));
  if (l.op == OpKind::Conv2d &&
      (l.attrs.groups != 1 || l.attrs.dilation != std::array<std::int64_t, 2>{1, 1}))
    throw InputError(
        "", "model",
        fmt::format("layer '{}': MoDNN splits plain convolutions (groups 1, dilation 1)", l.name));
}

// The input region a layer reads to produce `out` (per axis, the receptive field).
Region input_region(const Layer& l, const Shape& in, const Region& out) {
  if (!windowed(l.op)) return out;
  const auto& a = l.attrs;
  return {receptive_range(out.rows, a.kernel[0], a.stride[0], a.padding[0], in[1]),
          receptive_range(out.cols, a.kernel[1], a.stride[1], a.padding[1], in[2])};
}

std::vector<Region> final_regions(const Shape& in, const Shape& out, ConvSplit split,
                                  const std::vector<double>& capabilities) {
  const auto k = static_cast<std::int64_t>(capabilities.size());
  const bool by_rows = in[1] >= in[2];  // the longer input axis; ties: height
  std::vector<Region> regions;
  if (split == ConvSplit::Bodp) {
    for (const auto& r : proportional_split(by_rows ? out[1] : out[2], capabilities))
      regions.push_back(by_rows ? Region{r, {0, out[2]}} : Region{{0, out[1]}, r});
    return regions;
  }
  const auto [small, large] = near_square_grid(k);
  const auto grid_rows = by_rows ? large : small;
  const auto grid_cols = by_rows ? small : large;
  const auto rows = proportional_split(out[1], std::vector<double>(static_cast<std::size_t>(grid_rows), 1.0));
  const auto cols = proportional_split(out[2], std::vector<double>(static_cast<std::size_t>(grid_cols), 1.0));
  for (const auto& r : rows)
    for (const auto& c : cols) regions.push_back({r, c});
  return regions;
}

}  // namespace

Shape stage_input_shape(const Graph& graph, const Stage& stage) {
  return layer_at_position(graph, stage.first - 1).output_shape;
}

std::vector<NodeRegions> split_conv_stage(const Graph& graph, const Stage& stage, ConvSplit split,
                                          const std::vector<double>& capabilities) {
  check_capabilities(capabilities);
  const std::size_t layers = stage.last - stage.first + 1;
  std::vector<Shape> inputs(layers);
  for (std::size_t j = 0; j < layers; ++j) {
    inputs[j] = layer_at_position(graph, stage.first + j - 1).output_shape;
    check_splittable(layer_at_position(graph, stage.first + j), inputs[j]);
  }
  const auto finals =
      final_regions(inputs.front(), layer_at_position(graph, stage.last).output_shape, split, capabilities);
  std::vector<NodeRegions> nodes(finals.size());
  for (std::size_t n = 0; n < finals.size(); ++n) {
    nodes[n].outputs.resize(layers);
    Region out = finals[n];
    for (std::size_t j = layers; j-- > 0;) {
      nodes[n].outputs[j] = out;
      out = input_region(layer_at_position(graph, stage.first + j), inputs[j], out);
    }
    nodes[n].input = out;
  }
  return nodes;
}

}  // namespace coinfer::modnn
