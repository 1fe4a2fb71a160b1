#include "sim/kernels/lstm.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

// Runs one direction over x (T x F); writes h_t into columns [col, col + H) of out (T x out_cols) and
// returns the final hidden state.
Eigen::VectorXf run_direction(const ConstMatrixMap& x, const LstmCellWeights& w, bool reverse, RowMatrix& out,
                              std::int64_t col) {
  const std::int64_t t_n = x.rows(), f = x.cols(), h = w.w_hh.shape.at(1);
  if (w.w_ih.shape != Shape{4 * h, f} || w.w_hh.shape != Shape{4 * h, h} ||
      (!w.bias.empty() && w.bias.size() != 4 * h))
    throw Error(
        fmt::format("lstm: weights W_ih {}, W_hh {} do not match input features {} and hidden size {}",
                    shape_to_string(w.w_ih.shape), shape_to_string(w.w_hh.shape), f, h));
  const auto w_ih = w.w_ih.matrix(4 * h, f);
  const auto w_hh = w.w_hh.matrix(4 * h, h);
  // Input contributions of every step at once: G (T x 4H) = X W_ih^T (+ b).
  RowMatrix gates = x * w_ih.transpose();
  if (!w.bias.empty()) gates.rowwise() += w.bias.vector().transpose();
  Eigen::VectorXf hs = Eigen::VectorXf::Zero(h), cs = Eigen::VectorXf::Zero(h), z(4 * h);
  for (std::int64_t s = 0; s < t_n; ++s) {
    const std::int64_t t = reverse ? t_n - 1 - s : s;
    z.noalias() = gates.row(t).transpose() + w_hh * hs;
    const Eigen::ArrayXf i = 1.0f / (1.0f + (-z.segment(0, h).array()).exp());
    const Eigen::ArrayXf fg = 1.0f / (1.0f + (-z.segment(h, h).array()).exp());
    const Eigen::ArrayXf g = z.segment(2 * h, h).array().tanh();
    const Eigen::ArrayXf o = 1.0f / (1.0f + (-z.segment(3 * h, h).array()).exp());
    cs = (fg * cs.array() + i * g).matrix();
    hs = (o * cs.array().tanh()).matrix();
    out.block(t, col, 1, h) = hs.transpose();
  }
  return hs;
}

}  // namespace

Tensor lstm(const Tensor& input, const std::vector<LstmCellWeights>& cells, std::int64_t num_layers,
            bool bidirectional, bool return_sequences) {
  if (input.rank() != 2)
    throw Error(fmt::format("lstm: expected a (T,F) input, got {}", shape_to_string(input.shape)));
  const std::int64_t dirs = bidirectional ? 2 : 1;
  if (num_layers < 1 || static_cast<std::int64_t>(cells.size()) != num_layers * dirs)
    throw Error(fmt::format("lstm: expected {} cells ({} layers x {} directions), got {}", num_layers * dirs,
                            num_layers, dirs, cells.size()));
  const std::int64_t t_n = input.shape[0], h = cells[0].w_hh.shape.at(1);
  Tensor seq = input;
  Eigen::VectorXf last(dirs * h);
  for (std::int64_t l = 0; l < num_layers; ++l) {
    RowMatrix out(t_n, dirs * h);
    const Tensor& in = seq;
    const ConstMatrixMap x = in.matrix(in.shape[0], in.shape[1]);
    for (std::int64_t d = 0; d < dirs; ++d) {
      last.segment(d * h, h) =
          run_direction(x, cells[static_cast<std::size_t>(l * dirs + d)], d == 1, out, d * h);
    }
    seq = Tensor({t_n, dirs * h});
    seq.matrix(t_n, dirs * h) = out;
  }
  if (return_sequences) return seq;
  Tensor result({dirs * h});
  result.vector() = last;
  return result;
}

}  // namespace coinfer::kernels
