// The GEMM / GEMV bodies, compiled once per instruction set. The including file defines
// COINFER_GEMM_NAME and COINFER_GEMV_NAME (and, for the ISA variants, renames the Eigen namespace
// so that its templates, compiled with different vector widths, never merge at link time).
#include <cstdint>

#include <Eigen/Core>

namespace coinfer::kernels::detail {

void COINFER_GEMM_NAME(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n,
                       std::int64_t k, std::int64_t ldb, std::int64_t ldc, bool accumulate) {
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<const Mat> am(a, m, k);
  Eigen::Map<const Mat, 0, Stride> bm(b, k, n, Stride(ldb));
  Eigen::Map<Mat, 0, Stride> cm(c, m, n, Stride(ldc));
  if (accumulate)
    cm.noalias() += am * bm;
  else
    cm.noalias() = am * bm;
}

void COINFER_GEMV_NAME(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n,
                       bool accumulate) {
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Mat> am(a, m, n);
  Eigen::Map<const Eigen::VectorXf> xv(x, n);
  Eigen::Map<Eigen::VectorXf> yv(y, m);
  if (accumulate)
    yv.noalias() += am * xv;
  else
    yv.noalias() = am * xv;
}

}  // namespace coinfer::kernels::detail
