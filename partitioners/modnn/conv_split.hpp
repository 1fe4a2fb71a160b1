#pragma once
/// Spatial split of one conv stage (model_stages.hpp) over k nodes, as BODP or as the 2-D grid
/// baseline. The split is made on the stage's LAST output (after pooling), so that each node's
/// stripe or tile of the stage output is what it holds for the next stage; every earlier layer's
/// region is the receptive field of the region after it (bodp.hpp `receptive_range`, per axis),
/// so a node may recompute a row of a pooled layer's input that a neighbour also computes when a
/// pooling window straddles the cut (never with VGG-style 2x2 / stride 2 pools on even cuts).
///
/// - BODP (thesis sec. 4.2): cut along the longer of the stage input's height and width (ties:
///   height) into stripes proportional to the capabilities CA (largest remainder).
/// - 2-D grid (sec. 4.1, Coates et al.): `near_square_grid(k)` tiles, the larger count along the
///   longer axis, even sizes; node = grid_row * grid_cols + grid_col.
///
///     auto nodes = split_conv_stage(g, stages[1], ConvSplit::Bodp, {1, 1, 1, 1});
///     nodes[2].outputs.back();   // rows [28, 42) x cols [0, 56) of pool1 (VGG-16 conv1_2 stage)
#include <cstdint>
#include <vector>

#include "partitioners/modnn/bodp.hpp"
#include "partitioners/modnn/model_stages.hpp"

namespace coinfer::modnn {

enum class ConvSplit { Bodp, Grid2d };

struct Region {
  IndexRange rows, cols;
  std::int64_t area() const { return rows.size() * cols.size(); }
  bool operator==(const Region&) const = default;
};

struct NodeRegions {
  std::vector<Region> outputs;  ///< per layer of the stage (index: position - stage.first)
  Region input;                 ///< the part of the stage input (real indices) it reads
};

/// Throws `InputError` (path `model`) for a stage layer MoDNN cannot split (dilated or grouped
/// convolution, a non-(C,H,W) shape), and `Error` for bad capabilities.
std::vector<NodeRegions> split_conv_stage(const Graph& graph, const Stage& stage, ConvSplit split,
                                          const std::vector<double>& capabilities);

/// The (C, H, W) shape of the stage's input.
Shape stage_input_shape(const Graph& graph, const Stage& stage);

}  // namespace coinfer::modnn
