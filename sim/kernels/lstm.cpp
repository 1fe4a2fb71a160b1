#include "sim/kernels/lstm.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::kernels {
namespace {

// What one direction's backward pass needs of its forward: per step t, the activated gates
// [i f g o] (T x 4H) and the cell state c_t (T x H). h_t is in the layer's output.
struct DirectionTrace {
  RowMatrix gates, cells;
};

// Runs one direction over x (T x F); writes h_t into columns [col, col + H) of out (T x out_cols) and
// returns the final hidden state; records the gates and cell states in `trace` when it is given.
Eigen::VectorXf run_direction(const ConstMatrixMap& x, const LstmCellWeights& w, bool reverse, RowMatrix& out,
                              std::int64_t col, DirectionTrace* trace = nullptr) {
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
  if (trace) {
    trace->gates.resize(t_n, 4 * h);
    trace->cells.resize(t_n, h);
  }
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
    if (trace) {
      trace->gates.row(t) << i.matrix().transpose(), fg.matrix().transpose(), g.matrix().transpose(),
          o.matrix().transpose();
      trace->cells.row(t) = cs.transpose();
    }
  }
  return hs;
}

void check_cells(const Tensor& input, const std::vector<LstmCellWeights>& cells, std::int64_t num_layers,
                 std::int64_t dirs) {
  if (input.rank() != 2)
    throw Error(fmt::format("lstm: expected a (T,F) input, got {}", shape_to_string(input.shape)));
  if (num_layers < 1 || static_cast<std::int64_t>(cells.size()) != num_layers * dirs)
    throw Error(fmt::format("lstm: expected {} cells ({} layers x {} directions), got {}", num_layers * dirs,
                            num_layers, dirs, cells.size()));
}

// The forward pass of every layer: outs[l] is layer l's (T x dirs*H) output (layer l + 1's input),
// traces[l * dirs + d] its gates and cells when `traces` is given; returns each direction's last h.
Eigen::VectorXf run_layers(const Tensor& input, const std::vector<LstmCellWeights>& cells,
                           std::int64_t num_layers, std::int64_t dirs, std::vector<RowMatrix>& outs,
                           std::vector<DirectionTrace>* traces) {
  check_cells(input, cells, num_layers, dirs);
  const std::int64_t t_n = input.shape[0], h = cells[0].w_hh.shape.at(1);
  Eigen::VectorXf last(dirs * h);
  outs.assign(static_cast<std::size_t>(num_layers), RowMatrix(t_n, dirs * h));
  if (traces) traces->assign(cells.size(), {});
  for (std::int64_t l = 0; l < num_layers; ++l) {
    const auto li = static_cast<std::size_t>(l);
    const ConstMatrixMap x = l == 0 ? input.matrix(t_n, input.shape[1])
                                    : ConstMatrixMap(outs[li - 1].data(), t_n, outs[li - 1].cols());
    for (std::int64_t d = 0; d < dirs; ++d) {
      const auto c = static_cast<std::size_t>(l * dirs + d);
      last.segment(d * h, h) =
          run_direction(x, cells[c], d == 1, outs[li], d * h, traces ? &(*traces)[c] : nullptr);
    }
  }
  return last;
}

// BPTT of one direction (see lstm_backward in lstm.hpp). x: the layer's input (T x F); hs: this
// direction's outputs h_t (T x H); dh_out: dL/dh_t from above (T x H). Adds dL/dx into dx.
void direction_backward(const ConstMatrixMap& x, const LstmCellWeights& w, const DirectionTrace& tr,
                        const Eigen::Ref<const RowMatrix>& hs, const Eigen::Ref<const RowMatrix>& dh_out,
                        bool reverse, LstmCellWeights& grad, RowMatrix& dx) {
  const std::int64_t t_n = x.rows(), f = x.cols(), h = w.w_hh.shape.at(1);
  const auto w_ih = w.w_ih.matrix(4 * h, f);
  const auto w_hh = w.w_hh.matrix(4 * h, h);
  RowMatrix dz(t_n, 4 * h), h_prev = RowMatrix::Zero(t_n, h);
  Eigen::VectorXf dh_next = Eigen::VectorXf::Zero(h);
  Eigen::ArrayXf dc_next = Eigen::ArrayXf::Zero(h), c_prev(h);
  for (std::int64_t s = t_n - 1; s >= 0; --s) {
    const std::int64_t t = reverse ? t_n - 1 - s : s, prev = reverse ? t + 1 : t - 1;
    if (s > 0) {
      c_prev = tr.cells.row(prev).transpose().array();
      h_prev.row(t) = hs.row(prev);
    } else {
      c_prev.setZero();
    }
    const Eigen::ArrayXf i = tr.gates.row(t).segment(0, h).transpose().array();
    const Eigen::ArrayXf fg = tr.gates.row(t).segment(h, h).transpose().array();
    const Eigen::ArrayXf g = tr.gates.row(t).segment(2 * h, h).transpose().array();
    const Eigen::ArrayXf o = tr.gates.row(t).segment(3 * h, h).transpose().array();
    const Eigen::ArrayXf tc = tr.cells.row(t).transpose().array().tanh();
    const Eigen::ArrayXf dh = dh_out.row(t).transpose().array() + dh_next.array();
    const Eigen::ArrayXf dc = dh * o * (1.0f - tc * tc) + dc_next;
    dz.row(t) << (dc * g * i * (1.0f - i)).matrix().transpose(),
        (dc * c_prev * fg * (1.0f - fg)).matrix().transpose(), (dc * i * (1.0f - g * g)).matrix().transpose(),
        (dh * tc * o * (1.0f - o)).matrix().transpose();
    dc_next = dc * fg;
    dh_next.noalias() = w_hh.transpose() * dz.row(t).transpose();
  }
  grad.w_ih = Tensor({4 * h, f});
  grad.w_ih.matrix(4 * h, f).noalias() = dz.transpose() * x;
  grad.w_hh = Tensor({4 * h, h});
  grad.w_hh.matrix(4 * h, h).noalias() = dz.transpose() * h_prev;
  if (!w.bias.empty()) {
    grad.bias = Tensor({4 * h});
    grad.bias.vector() = dz.colwise().sum().transpose();
  }
  dx.noalias() += dz * w_ih;
}

}  // namespace

Tensor lstm(const Tensor& input, const std::vector<LstmCellWeights>& cells, std::int64_t num_layers,
            bool bidirectional, bool return_sequences) {
  const std::int64_t dirs = bidirectional ? 2 : 1;
  std::vector<RowMatrix> outs;
  const Eigen::VectorXf last = run_layers(input, cells, num_layers, dirs, outs, nullptr);
  if (!return_sequences) {
    Tensor result({last.size()});
    result.vector() = last;
    return result;
  }
  Tensor seq({outs.back().rows(), outs.back().cols()});
  seq.matrix(outs.back().rows(), outs.back().cols()) = outs.back();
  return seq;
}

LstmGradients lstm_backward(const Tensor& input, const std::vector<LstmCellWeights>& cells,
                            std::int64_t num_layers, bool bidirectional, bool return_sequences,
                            const Tensor& grad_output) {
  const std::int64_t dirs = bidirectional ? 2 : 1;
  std::vector<RowMatrix> outs;
  std::vector<DirectionTrace> traces;
  run_layers(input, cells, num_layers, dirs, outs, &traces);
  const std::int64_t t_n = input.shape[0], h = cells[0].w_hh.shape.at(1);
  const Shape out_shape = return_sequences ? Shape{t_n, dirs * h} : Shape{dirs * h};
  if (grad_output.shape != out_shape)
    throw Error(fmt::format("lstm_backward: grad_output {} is not the output shape {}",
                            shape_to_string(grad_output.shape), shape_to_string(out_shape)));
  // dL/d(h_t of the top layer), every step and direction.
  RowMatrix dh = RowMatrix::Zero(t_n, dirs * h);
  if (return_sequences) {
    dh = grad_output.matrix(t_n, dirs * h);
  } else {
    dh.block(t_n - 1, 0, 1, h) = grad_output.vector().segment(0, h).transpose();
    if (dirs == 2) dh.block(0, h, 1, h) = grad_output.vector().segment(h, h).transpose();
  }
  LstmGradients grads;
  grads.cells.resize(cells.size());
  for (std::int64_t l = num_layers - 1; l >= 0; --l) {
    const auto li = static_cast<std::size_t>(l);
    const ConstMatrixMap x = l == 0 ? input.matrix(t_n, input.shape[1])
                                    : ConstMatrixMap(outs[li - 1].data(), t_n, outs[li - 1].cols());
    RowMatrix dx = RowMatrix::Zero(t_n, x.cols());
    for (std::int64_t d = 0; d < dirs; ++d) {
      const auto c = static_cast<std::size_t>(l * dirs + d);
      direction_backward(x, cells[c], traces[c], outs[li].middleCols(d * h, h), dh.middleCols(d * h, h),
                         d == 1, grads.cells[c], dx);
    }
    dh = std::move(dx);
  }
  grads.input = Tensor(input.shape);
  grads.input.matrix(t_n, input.shape[1]) = dh;
  return grads;
}

}  // namespace coinfer::kernels
