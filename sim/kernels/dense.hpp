#pragma once
/// Fully connected layers: dense (GEMV) and sparse (CSR SpMV), and magnitude pruning.
/// The input is flattened (Caffe's InnerProduct) unless it is a (T, F) sequence; the weight is
/// [units, inputs] row-major.
///
///     Tensor y = fully_connected(x, w, b);                 // w [10, 400], x any shape of 400 elements
///     CsrMatrix s = prune_to_csr(random_normal({10, 400}, 1), 0.9);   // 40 nonzeros kept per row
///     Tensor z = sparse_fully_connected(x, s, b);
#include <Eigen/SparseCore>

#include "sim/kernels/tensor.hpp"

namespace coinfer::kernels {

/// Compressed sparse row matrix (Eigen, row-major, 32-bit indices).
using CsrMatrix = Eigen::SparseMatrix<float, Eigen::RowMajor, std::int32_t>;

/// y = W x + b with y of shape (units). Throws `Error` if W is not [units, x.size()] or b has the
/// wrong size (an empty b means no bias). A rank-2 input is a sequence (T, F): W is [units, F], applied
/// at every step (one GEMM), and y is (T, units).
Tensor fully_connected(const Tensor& input, const Tensor& weight, const Tensor& bias);

/// Gradients of fully_connected given dL/dy (`grad_output`, the shape fully_connected returns). With X
/// the input as a T x F matrix (T = 1 unless it is a (T, F) sequence): dX = dY W, dW = dY^T X (two GEMMs),
/// db = column sums of dY (left empty when `has_bias` is false). Throws `Error` on inconsistent shapes.
///
///     Gradients g = fully_connected_backward(x, w, true, dy);   // dy [10] -> g.input ~ x, g.weight [10,
///     400]
Gradients fully_connected_backward(const Tensor& input, const Tensor& weight, bool has_bias,
                                   const Tensor& grad_output);

/// y = S x + b with S a CSR matrix of units rows (SpMV).
Tensor sparse_fully_connected(const Tensor& input, const CsrMatrix& weight, const Tensor& bias);

/// Magnitude pruning per row: keeps the round((1 - sparsity) * cols) largest-|w| entries of each row of
/// the rank-2 `dense` (equal magnitudes: the lower column wins) and returns them as CSR. Throws `Error`
/// unless 0 <= sparsity < 1.
CsrMatrix prune_to_csr(const Tensor& dense, double sparsity);

/// Bytes of a CSR matrix as stored: values (4 B) + column indices (4 B) per nonzero + row pointers.
std::int64_t csr_size_bytes(const CsrMatrix& m);

}  // namespace coinfer::kernels
