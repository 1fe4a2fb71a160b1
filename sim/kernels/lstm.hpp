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

/// What `lstm_backward` returns: dL/dx (T, F) and dL/d(every cell's W_ih, W_hh, bias), cell for cell as
/// the forward's `cells` (a bias gradient only where the cell has a bias).
struct LstmGradients {
  Tensor input;
  std::vector<LstmCellWeights> cells;
};

/// Backpropagation through time of `lstm` given dL/dy (`grad_output`, the shape lstm returns). The
/// forward is run again, keeping each step's gates and cell state; then each layer, top first, and each
/// direction walks its steps in reverse processing order with z = [i f g o] pre-activations:
///   dh = dL/dh_t (from above) + W_hh^T dz_{next};   dc = dh o (1 - tanh^2 c_t) + dc_{next} f_{next}
///   dz = [dc g i(1-i), dc c_{t-1} f(1-f), dc i (1-g^2), dh tanh(c_t) o(1-o)]
/// and, over all steps at once, dW_ih = dZ^T X, dW_hh = dZ^T H_prev, db = sum_t dz_t, dX = dZ W_ih
/// (the two directions' dX summed; dX of layer l is dL/dy of layer l - 1). Without
/// `return_sequences` only the last processed step receives dL/dy (t = T - 1 forward, t = 0 backward).
/// Throws `Error` as lstm does, and when grad_output is not lstm's output shape.
///
///     LstmGradients g = lstm_backward(x, w, 1, true, true, dy);   // dy [T,2H] -> g.input [T,F]
LstmGradients lstm_backward(const Tensor& input, const std::vector<LstmCellWeights>& cells,
                            std::int64_t num_layers, bool bidirectional, bool return_sequences,
                            const Tensor& grad_output);

}  // namespace coinfer::kernels
