#include "partitioners/modnn/spmv_threshold.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

void check_fits(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows, std::int64_t cols) {
  if (rows < 1 || cols < 1)
    throw Error(fmt::format("spmv threshold: block must be at least 1 x 1, got {} x {}", rows, cols));
  if (!(spt.s_per_nonzero > 0.0) || !std::isfinite(spt.s_per_nonzero) || !std::isfinite(spt.intercept_s))
    throw Error(fmt::format("spmv threshold: SPT slope must be finite and > 0, got {}", spt.s_per_nonzero));
  for (const double v : {get.intercept_s, get.s_per_element, get.s_per_row, get.s_per_col})
    if (!std::isfinite(v)) throw Error("spmv threshold: GET coefficients must be finite");
}

}  // namespace

double spmv_time_s(const SpmvTimeFit& spt, std::int64_t nonzeros) {
  return spt.intercept_s + spt.s_per_nonzero * double(nonzeros);
}

double gemv_time_s(const GemvTimeFit& get, std::int64_t rows, std::int64_t cols) {
  return get.intercept_s + get.s_per_element * double(rows) * double(cols) + get.s_per_row * double(rows) +
         get.s_per_col * double(cols);
}

double spmv_density_threshold(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows,
                              std::int64_t cols) {
  check_fits(spt, get, rows, cols);
  // eq. 2.2: n* = SPT^-1(GET(r, c)) = (GET(r, c) - intercept) / slope; Thld = n* / (r c).
  const double n_star = (gemv_time_s(get, rows, cols) - spt.intercept_s) / spt.s_per_nonzero;
  return std::clamp(n_star / (double(rows) * double(cols)), 0.0, 1.0);
}

double spmv_sparsity_threshold(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows,
                               std::int64_t cols) {
  return 1.0 - spmv_density_threshold(spt, get, rows, cols);
}

MatVecKind choose_matvec(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows, std::int64_t cols,
                         std::int64_t nonzeros) {
  const double threshold = spmv_density_threshold(spt, get, rows, cols);
  if (nonzeros < 0 || double(nonzeros) > double(rows) * double(cols))
    throw Error(fmt::format("spmv threshold: {} non-zeros in a {} x {} block", nonzeros, rows, cols));
  const double density = double(nonzeros) / (double(rows) * double(cols));
  return density < threshold ? MatVecKind::Spmv : MatVecKind::Gemv;
}

double matvec_time_s(const SpmvTimeFit& spt, const GemvTimeFit& get, std::int64_t rows, std::int64_t cols,
                     std::int64_t nonzeros) {
  return choose_matvec(spt, get, rows, cols, nonzeros) == MatVecKind::Spmv ? spmv_time_s(spt, nonzeros)
                                                                           : gemv_time_s(get, rows, cols);
}

}  // namespace coinfer::modnn
