#pragma once
/// MoDNN's hybrid SpMV / GEMV choice per weight block ([MoDNN §5.1];
/// [Mao-PhD §2.2.4, eq. 2.2]).
///
/// A device is characterised by two linear regressions fitted to measurements:
///     SPT(n)    = spt.intercept_s + spt.s_per_nonzero * n                   (SpMV on n non-zeros)
///     GET(r, c) = get.intercept_s + get.s_per_element * r * c
///                 + get.s_per_row * r + get.s_per_col * c                   (GEMV on an r x c array)
/// eq. 2.2: Thld(r, c) = SPT^-1(GET(r, c)) / (r * c), the fraction of NON-ZEROS at which both take
/// the same time (clamped to [0, 1]); the dissertation's 15.8% on a Nexus 5 is this density.
///
/// Reading of the paper's wording. The papers call Thld a "sparsity level" and say SpMV is used when
/// "the sparsity is larger than Thld". Taken literally with sparsity = fraction of zeros this would
/// pick the slower kernel, so here the decision is the one eq. 2.2 is built for: SpMV exactly when
/// the block's DENSITY nnz / (r c) is BELOW Thld (equivalently its sparsity 1 - nnz/(r c) is above
/// the sparsity threshold 1 - Thld), i.e. when SPT(nnz) < GET(r, c). At equality GEMV is used
/// ("otherwise, GEMV"). This matches `SparseModel::density_threshold` in device_calibration.hpp.
#include <cstdint>

namespace coinfer::modnn {

/// SPT(n) = intercept_s + s_per_nonzero * n; s_per_nonzero must be > 0 (SPT is inverted).
struct SpmvTimeFit {
  double intercept_s = 0.0;
  double s_per_nonzero = 0.0;
};

/// GET(r, c) = intercept_s + s_per_element * r * c + s_per_row * r + s_per_col * c.
struct GemvTimeFit {
  double intercept_s = 0.0;
  double s_per_element = 0.0;
  double s_per_row = 0.0;
  double s_per_col = 0.0;
};

enum class MatVecKind { Spmv, Gemv };

double spmv_time_s(const SpmvTimeFit& spt, std::int64_t nonzeros);
double gemv_time_s(const GemvTimeFit& get, std::int64_t rows, std::int64_t cols);

/// eq. 2.2: density threshold Thld(r, c) = SPT^-1(GET(r, c)) / (r c), clamped to [0, 1].
/// Throws `Error` when rows or cols < 1, spt.s_per_nonzero <= 0 or a coefficient is not finite.
///
///     double t = spmv_density_threshold({0, 6.3e-9}, {0, 1e-9}, 4096, 4096);   // ~0.158
double spmv_density_threshold(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows,
                              std::int64_t cols);

/// 1 - spmv_density_threshold: SpMV when the block's sparsity (fraction of zeros) is above it.
double spmv_sparsity_threshold(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows,
                               std::int64_t cols);

/// SpMV when nonzeros / (rows cols) < Thld(rows, cols), else GEMV. Throws like the threshold and
/// when nonzeros is outside [0, rows * cols].
MatVecKind choose_matvec(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows, std::int64_t cols,
                         std::int64_t nonzeros);

/// Predicted time of the chosen kernel: SPT(nnz) for SpMV, GET(r, c) for GEMV (the smaller of
/// the two, up to the tie rule).
double matvec_time_s(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows, std::int64_t cols,
                     std::int64_t nonzeros);

}  // namespace coinfer::modnn
