#pragma once
/// MoDNN's model processor scan (thesis sec. 6, Fig. 8): the model, a chain of layers, is cut into
/// stages. A CONV stage starts at a convolution and takes the following layers that keep the
/// spatial layout (ReLU-like activations, batch norm, LRN, dropout, pooling), which run on the same
/// stripe (sec. 4.2). An FC stage starts at a fully connected layer and takes the following
/// vector layers (activations, dropout, softmax, flatten), which the GO runs after the reduce. A
/// flatten right before an fc layer opens that fc's stage (an fc flattens its input anyway: the
/// element order is the same), as in PyTorch models (`torch.flatten` before the classifier).
///
///     auto stages = model_stages(graph);   // VGG-16: conv1_1 .. conv5_3 (13), fc6, fc7, fc8
#include <cstddef>
#include <string>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer::modnn {

enum class StageKind { Conv, Fc };

struct Stage {
  StageKind kind = StageKind::Conv;
  std::size_t first = 0;  ///< topological positions [first, last]
  std::size_t last = 0;
  std::size_t head = 0;  ///< the conv or fc layer's position: `first`, or after a leading flatten
  std::string name;      ///< the head layer's name (labels the stage's tasks)
};

/// Throws `InputError` (path `model`) when the graph is not a single-input chain, or holds a
/// layer that neither starts nor continues a stage (e.g. a residual add, or a pooling layer
/// before any convolution), naming the layer.
std::vector<Stage> model_stages(const Graph& graph);

/// The layer at topological position `position`.
const Layer& layer_at_position(const Graph& graph, std::size_t position);

}  // namespace coinfer::modnn
