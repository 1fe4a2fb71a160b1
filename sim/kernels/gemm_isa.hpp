#pragma once
// Internal: the per-ISA GEMM entry points (sim/kernels/gemm_{generic,avx2,avx512}.cpp).
#include <cstdint>

// ISA variants need GCC's `#pragma GCC target` on x86-64; elsewhere only the generic one exists.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(COINFER_NO_ISA_DISPATCH)
#define COINFER_ISA_DISPATCH 1
#endif

namespace coinfer::kernels::detail {

using GemmFn = void (*)(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t,
                        std::int64_t, std::int64_t, bool);
using GemvFn = void (*)(const float*, const float*, float*, std::int64_t, std::int64_t, bool);

void gemm_generic(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
                  std::int64_t ldb, std::int64_t ldc, bool accumulate);
void gemv_generic(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n, bool accumulate);
#ifdef COINFER_ISA_DISPATCH
void gemm_avx2(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
               std::int64_t ldb, std::int64_t ldc, bool accumulate);
void gemv_avx2(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n, bool accumulate);
void gemm_avx512(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
                 std::int64_t ldb, std::int64_t ldc, bool accumulate);
void gemv_avx512(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n, bool accumulate);
#endif

}  // namespace coinfer::kernels::detail
