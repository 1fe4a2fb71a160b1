#pragma once
/// Dense matrix products (the inner loop of convolution and fully connected layers) and the
/// execution settings every kernel follows: thread count and instruction set.
///
/// Kernels run single-threaded by default so that host timings are reproducible;
/// `set_kernel_threads(4)` lets GEMM-based kernels split their columns over 4 threads.
/// The GEMM is Eigen's, compiled three times (generic x86-64, AVX2+FMA, AVX-512) and chosen at run
/// time from the host CPU, so a portable build still runs at the host's speed:
///
///     coinfer::kernels::set_kernel_threads(1);
///     coinfer::kernels::gemm(a, b, c, m, n, k);        // c = a * b, row-major
///     std::string key = coinfer::kernels::kernel_build_id();   // for profile caches
#include <cstdint>
#include <string>
#include <string_view>

namespace coinfer::kernels {

/// Instruction set of the GEMM variant in use. `Generic` is whatever the build flags allow
/// (SSE2 on a default x86-64 build, everything with COINFER_NATIVE=ON).
enum class KernelIsa { Generic, Avx2, Avx512 };

std::string_view isa_name(KernelIsa isa);
/// True when this build has a variant for `isa` and the host CPU can run it.
bool isa_supported(KernelIsa isa);
/// The fastest supported variant (chosen at start-up unless `set_kernel_isa` was called).
KernelIsa best_kernel_isa();
KernelIsa kernel_isa();
/// Forces a variant (benchmarks compare them); throws `Error` if `isa_supported(isa)` is false.
void set_kernel_isa(KernelIsa isa);

/// Threads used by GEMM-based kernels (default 1). Throws `Error` unless 1 <= n <= 256.
void set_kernel_threads(int n);
int kernel_threads();

/// Identifies the kernel build for profile caches, e.g. "eigen 3.4.0, isa avx512, native 0, threads 1".
std::string kernel_build_id();

/// C = A * B (or C += A * B when `accumulate`), row-major: A is m x k, B is k x n, C is m x n, all
/// contiguous. Runs on `kernel_threads()` threads (columns of C split evenly).
void gemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
          bool accumulate = false);
/// y = A x (or y += A x), A row-major m x n.
void gemv(const float* a, const float* x, float* y, std::int64_t m, std::int64_t n, bool accumulate = false);

/// Runs `body(begin, end)` over [0, n) split into `kernel_threads()` contiguous chunks (the calling
/// thread takes the first one). Chunks are at least `min_chunk` long.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t min_chunk, Body&& body);

}  // namespace coinfer::kernels

#include "sim/kernels/parallel_for.ipp"
