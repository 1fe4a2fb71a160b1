#pragma once
/// A stacked, optionally bidirectional LSTM over a (T, F) sequence, gates in PyTorch's order
/// (input i, forget f, cell g, output o):
///   [i f g o] = W_ih x_t + W_hh h_{t-1} + b;  c_t = sigmoid(f) c_{t-1} + sigmoid(i) tanh(g);
///   h_t = sigmoid(o) tanh(c_t);   h_0 = c_0 = 0.
/// Layer l > 0 reads the (T, dirs * H) output of layer l - 1 (forward and backward halves concatenated).
///
///     std::vector<LstmCellWeights> w = ...;                 // num_layers * dirs cells, layer-major
///     Tensor y = lstm(x, w, 1, false, true);                // x [T,F] -> y [T,H]
#include <vector>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// One direction of one layer: W_ih [4H, F], W_hh [4H, H], bias [4H] (empty: no bias).
struct LstmCellWeights {
  Tensor w_ih, w_hh, bias;
};

/// Returns (T, dirs * H) if `return_sequences`, else the last step (dirs * H) (for the backward
/// direction, its state after reading the whole sequence, i.e. at t = 0). Throws `Error` on
/// inconsistent weights.
Tensor lstm(const Tensor& input, const std::vector<LstmCellWeights>& cells, std::int64_t num_layers,
            bool bidirectional, bool return_sequences);

}  // namespace coinfer::kernels
