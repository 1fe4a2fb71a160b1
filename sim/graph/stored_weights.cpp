#include "sim/graph/stored_weights.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/graph/layer.hpp"

namespace coinfer {

std::vector<Shape> stored_weight_shapes(const Layer& l, const Shape& in) {
  const auto& a = l.attrs;
  const auto with_bias = [&](Shape weight, std::int64_t n) {
    std::vector<Shape> s{std::move(weight)};
    if (a.bias) s.push_back({n});
    return s;
  };
  switch (l.op) {
    case OpKind::Conv2d:
      return with_bias({a.out_channels, in.at(0) / a.groups, a.kernel[0], a.kernel[1]}, a.out_channels);
    case OpKind::DepthwiseConv2d: {
      const std::int64_t c = in.at(0) * a.multiplier;
      return with_bias({c, 1, a.kernel[0], a.kernel[1]}, c);
    }
    case OpKind::FullyConnected:
      return with_bias({a.units, in.size() == 2 ? in[1] : shape_elements(in)}, a.units);
    case OpKind::ConvTranspose2d:
      return with_bias({in.at(0), a.out_channels / a.groups, a.kernel[0], a.kernel[1]}, a.out_channels);
    case OpKind::BatchNorm:
      return {{in.at(0)}, {in.at(0)}, {in.at(0)}, {in.at(0)}};
    case OpKind::LayerNorm:  // scale, shift
      return {{layer_norm_features(in)}, {layer_norm_features(in)}};
    case OpKind::ClassToken:
      return {{in.at(1)}};
    case OpKind::PositionEmbedding:
      return {in};
    case OpKind::Attention: {  // in_proj (q, k, v rows) and out_proj packed (kernels/packed_attention.hpp)
      const std::int64_t f = in.at(1);
      return {{4 * f, f}, {4 * f}};
    }
    case OpKind::Lstm: {
      const std::int64_t dirs = a.bidirectional ? 2 : 1, h = a.units;
      std::vector<Shape> s;
      for (std::int64_t layer = 0; layer < a.num_layers; ++layer)
        for (std::int64_t d = 0; d < dirs; ++d) {
          s.push_back({4 * h, layer == 0 ? in.at(1) : dirs * h});
          s.push_back({4 * h, h});
          if (a.bias) s.push_back({4 * h});
        }
      return s;
    }
    default:
      throw InputError("", "", fmt::format("layer '{}' ({}) takes no stored weights", l.name, op_name(l.op)));
  }
}

std::vector<Shape> check_stored_weights(const Layer& l, const Shape& in, const StoredLayerWeights& stored) {
  const std::vector<Shape> want = stored_weight_shapes(l, in);
  if (stored.arrays.size() != want.size())
    throw InputError("", "",
                     fmt::format("layer '{}' ({}) takes {} weight arrays, the file gives {}", l.name,
                                 op_name(l.op), want.size(), stored.arrays.size()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const StoredArray& a = stored.arrays[i];
    const auto n = checked_shape_elements(a.shape);
    if (!n || *n != shape_elements(want[i]) || a.size() != *n)
      throw InputError("", "",
                       fmt::format("layer '{}' ({}): weight array {} is {}, the layer takes {}", l.name,
                                   op_name(l.op), i, shape_to_string(a.shape), shape_to_string(want[i])));
  }
  return want;
}

}  // namespace coinfer
