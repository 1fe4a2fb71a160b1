#pragma once
/// Eigen view of generated sparse weights. Header-only on purpose: the partitioners library keeps
/// Eigen out of its public interface, so only code that already has Eigen on its include path
/// (the kernels / functional-mode targets, which link Eigen publicly) includes this header.
#include <Eigen/SparseCore>

#include "partitioners/modnn/sparse_weights.hpp"

namespace coinfer::modnn {

/// The weights as an `rows x cols` Eigen sparse matrix (compressed, column-major).
///
///     Eigen::SparseMatrix<float> a = to_eigen_sparse(generate_sparse_weights(spec));
inline Eigen::SparseMatrix<float> to_eigen_sparse(const SparseWeights& weights) {
  std::vector<Eigen::Triplet<float>> triplets;
  triplets.reserve(weights.values.size());
  for (std::size_t e = 0; e < weights.values.size(); ++e)
    triplets.emplace_back(static_cast<int>(weights.pattern.entries[e].row),
                          static_cast<int>(weights.pattern.entries[e].col), weights.values[e]);
  Eigen::SparseMatrix<float> m(static_cast<Eigen::Index>(weights.pattern.rows),
                               static_cast<Eigen::Index>(weights.pattern.cols));
  m.setFromTriplets(triplets.begin(), triplets.end());
  return m;
}

}  // namespace coinfer::modnn
