// Dispatch of the GEMM variants, thread settings and the generic (build-flag) variant.
#include "sim/kernels/gemm.hpp"

#include <atomic>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/gemm_isa.hpp"

#define COINFER_GEMM_NAME gemm_generic
#define COINFER_GEMV_NAME gemv_generic
#include "sim/kernels/gemm_isa.ipp"
#undef COINFER_GEMM_NAME
#undef COINFER_GEMV_NAME

namespace coinfer::kernels {
namespace {

std::atomic<int> g_threads{1};

bool host_has(KernelIsa isa) {
#ifdef COINFER_ISA_DISPATCH
  __builtin_cpu_init();
  switch (isa) {
    case KernelIsa::Avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case KernelIsa::Avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("fma");
    default:
      return true;
  }
#else
  return isa == KernelIsa::Generic;
#endif
}

std::atomic<KernelIsa>& current_isa() {
  static std::atomic<KernelIsa> isa{best_kernel_isa()};
  return isa;
}

detail::GemmFn gemm_fn() {
#ifdef COINFER_ISA_DISPATCH
  switch (current_isa().load(std::memory_order_relaxed)) {
    case KernelIsa::Avx512:
      return detail::gemm_avx512;
    case KernelIsa::Avx2:
      return detail::gemm_avx2;
    default:
      break;
  }
#endif
  return detail::gemm_generic;
}

detail::GemvFn gemv_fn() {
#ifdef COINFER_ISA_DISPATCH
  switch (current_isa().load(std::memory_order_relaxed)) {
    case KernelIsa::Avx512:
      return detail::gemv_avx512;
    case KernelIsa::Avx2:
      return detail::gemv_avx2;
    default:
      break;
  }
#endif
  return detail::gemv_generic;
}

}  // namespace

std::string_view isa_name(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::Avx2:
      return "avx2";
    case KernelIsa::Avx512:
      return "avx512";
    default:
      return "generic";
  }
}

bool isa_supported(KernelIsa isa) { return host_has(isa); }

KernelIsa best_kernel_isa() {
  for (auto isa : {KernelIsa::Avx512, KernelIsa::Avx2})
    if (host_has(isa)) return isa;
  return KernelIsa::Generic;
}

KernelIsa kernel_isa() { return current_isa().load(); }

void set_kernel_isa(KernelIsa isa) {
  if (!isa_supported(isa))
    throw Error(
        fmt::format("kernel instruction set '{}' is not available on this host or build", isa_name(isa)));
  current_isa().store(isa);
}

void set_kernel_threads(int n) {
  if (n < 1 || n > 256) throw Error(fmt::format("kernel threads must be in [1, 256], got {}", n));
  g_threads.store(n);
}

int kernel_threads() { return g_threads.load(std::memory_order_relaxed); }

std::string kernel_build_id() {
#ifdef __AVX512F__
  constexpr int native = 1;  // the generic variant itself was built with AVX-512 (COINFER_NATIVE)
#else
  constexpr int native = 0;
#endif
  return fmt::format("eigen {}.{}.{}, isa {}, native {}, threads {}", EIGEN_WORLD_VERSION,
                     EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, isa_name(kernel_isa()), native,
                     kernel_threads());
}

void gemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
          bool accumulate) {
  if (m <= 0 || n <= 0) return;
  const auto fn = gemm_fn();
  // Each thread computes a block of columns of C: C[:, j0:j1] = A * B[:, j0:j1]. Columns are split
  // in multiples of 16 floats (one AVX-512 register) so blocks stay aligned to packet boundaries.
  const std::int64_t flops_per_col = 2 * m * k;
  const std::int64_t min_cols =
      std::max<std::int64_t>(16, (1 << 22) / std::max<std::int64_t>(1, flops_per_col));
  parallel_for((n + 15) / 16, (min_cols + 15) / 16, [&](std::int64_t p0, std::int64_t p1) {
    const std::int64_t j0 = p0 * 16, j1 = std::min(n, p1 * 16);
    fn(a, b + j0, c + j0, m, j1 - j0, k, n, n, accumulate);
  });
}

void gemv(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n, bool accumulate) {
  if (m <= 0) return;
  const auto fn = gemv_fn();
  const std::int64_t min_rows = std::max<std::int64_t>(16, (1 << 20) / std::max<std::int64_t>(1, n));
  parallel_for(m, min_rows,
               [&](std::int64_t i0, std::int64_t i1) { fn(a + i0 * n, x, y + i0, i1 - i0, n, accumulate); });
}

}  // namespace coinfer::kernels
