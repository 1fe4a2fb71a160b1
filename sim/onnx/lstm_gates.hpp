#pragma once
/// The order of an LSTM's four gate blocks in coinfer's (PyTorch's) layout, (i, f, g, o), and in
/// ONNX's, (i, o, f, c), shared by the importer and the exporter so the two stay each other's inverse.
#include <array>
#include <cstdint>
#include <vector>

namespace coinfer::onnx_lstm {

/// kTorchFromOnnx[k]: the ONNX block that becomes PyTorch block k; kOnnxFromTorch the other way.
inline constexpr std::array<std::int64_t, 4> kTorchFromOnnx = {0, 2, 3, 1};
inline constexpr std::array<std::int64_t, 4> kOnnxFromTorch = {0, 3, 1, 2};

/// The four blocks of `hidden * width` values at `from`, in the order `blocks` names them.
inline std::vector<float> reorder_gates(const float* from, std::int64_t hidden, std::int64_t width,
                                        const std::array<std::int64_t, 4>& blocks) {
  std::vector<float> to;
  to.reserve(static_cast<std::size_t>(4 * hidden * width));
  for (auto g : blocks) to.insert(to.end(), from + g * hidden * width, from + (g + 1) * hidden * width);
  return to;
}

}  // namespace coinfer::onnx_lstm
