#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/dense.hpp"

namespace coinfer::kernels {

Tensor sparse_fully_connected(const Tensor& input, const CsrMatrix& weight, const Tensor& bias) {
  if (weight.cols() != input.size())
    throw Error(
        fmt::format("sparse fc: weight has {} columns, input has {} elements", weight.cols(), input.size()));
  const std::int64_t units = weight.rows();
  if (!bias.empty() && bias.size() != units) throw Error("sparse fc: bias must have one value per unit");
  Tensor out({units});
  auto y = out.vector();
  y.noalias() = weight * input.vector();  // row-major CSR times dense vector: one dot product per row
  if (!bias.empty()) y += bias.vector();
  return out;
}

CsrMatrix prune_to_csr(const Tensor& dense, double sparsity) {
  if (dense.rank() != 2) throw Error("prune_to_csr: expected a rank-2 weight");
  if (!(sparsity >= 0.0 && sparsity < 1.0))
    throw Error(fmt::format("prune_to_csr: sparsity must be in [0, 1), got {}", sparsity));
  const std::int64_t rows = dense.shape[0], cols = dense.shape[1];
  const auto keep = static_cast<std::int64_t>(std::llround((1.0 - sparsity) * static_cast<double>(cols)));
  CsrMatrix m(rows, cols);
  m.reserve(Eigen::VectorXi::Constant(rows, static_cast<int>(keep)));
  std::vector<std::int32_t> idx(static_cast<std::size_t>(cols));
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = dense.ptr() + r * cols;
    std::iota(idx.begin(), idx.end(), 0);
    // The `keep` largest magnitudes (equal magnitudes: lower column first), then back to column order.
    auto larger = [row](std::int32_t a, std::int32_t b) {
      const float ma = std::abs(row[a]), mb = std::abs(row[b]);
      return ma > mb || (ma == mb && a < b);
    };
    if (keep < cols) std::nth_element(idx.begin(), idx.begin() + keep, idx.end(), larger);
    std::sort(idx.begin(), idx.begin() + keep);
    for (std::int64_t i = 0; i < keep; ++i)
      m.insert(r, idx[static_cast<std::size_t>(i)]) = row[idx[static_cast<std::size_t>(i)]];
  }
  m.makeCompressed();
  return m;
}

std::int64_t csr_size_bytes(const CsrMatrix& m) {
  return static_cast<std::int64_t>(m.nonZeros()) * 8 + (m.rows() + 1) * 4;
}

}  // namespace coinfer::kernels
