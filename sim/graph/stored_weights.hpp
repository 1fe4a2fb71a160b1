#pragma once
/// Weights a model file brings with it (an ONNX import's initializers), by layer name. A layer listed
/// here runs with these values in functional mode; every other layer gets seeded weights
/// (sim/kernels/layer_runner.hpp). The arrays of a layer are in the order its kernels take them:
///
///     conv2d, depthwise_conv2d, fc,   weight (PyTorch layout), then bias when the layer has one
///     conv_transpose2d
///     batch_norm                      scale, shift, mean, variance (one value per channel)
///     lstm                            per cell (layer-major, forward then backward): W_ih [4H, F],
///                                     W_hh [4H, H], then bias [4H] when the layer has one; gates in
///                                     PyTorch's order (i, f, g, o)
///
/// The bytes are little-endian fp32, as ONNX stores raw tensor data, so an importer can move a
/// protobuf string in without copying it.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/graph/shape.hpp"

namespace coinfer {

struct StoredArray {
  Shape shape;
  std::string bytes;  ///< shape_elements(shape) little-endian fp32 values

  /// An array of `shape` holding `values` (copied into bytes).
  static StoredArray of(Shape shape, const std::vector<float>& values) {
    return StoredArray{std::move(shape), std::string(reinterpret_cast<const char*>(values.data()),
                                                     values.size() * sizeof(float))};
  }
  /// A 2-D array [rows, cols] transposed to [cols, rows] (an ONNX Gemm / MatMul weight to the fc layout
  /// and back).
  StoredArray transposed() const {
    const std::vector<float> v = values();
    const std::int64_t rows = shape.at(0), cols = shape.at(1);
    std::vector<float> t(v.size());
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        t[static_cast<std::size_t>(j * rows + i)] = v[static_cast<std::size_t>(i * cols + j)];
    return of({cols, rows}, t);
  }

  std::int64_t size() const { return static_cast<std::int64_t>(bytes.size() / sizeof(float)); }
  /// The values, copied out (the bytes of a std::string carry no float alignment promise).
  std::vector<float> values() const {
    std::vector<float> v(bytes.size() / sizeof(float));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
    return v;
  }
};

struct StoredLayerWeights {
  std::vector<StoredArray> arrays;
  double epsilon = 1e-5;  ///< batch_norm
};

using StoredWeights = std::unordered_map<std::string, StoredLayerWeights>;

struct Layer;

/// The shapes of the arrays `layer` takes, given its (first) input shape, in the order above. Throws
/// `InputError` for an op without weights.
std::vector<Shape> stored_weight_shapes(const Layer& layer, const Shape& input);
/// Throws `InputError` naming the layer when `stored` is not what it takes (count, or an array's size);
/// returns the shapes it takes (stored_weight_shapes).
std::vector<Shape> check_stored_weights(const Layer& layer, const Shape& input,
                                        const StoredLayerWeights& stored);
using StoredWeightsPtr = std::shared_ptr<const StoredWeights>;

}  // namespace coinfer
