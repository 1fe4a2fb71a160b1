// Eigen's GEMM compiled for AVX2 + FMA, selected at run time on hosts that have them (gemm.cpp).
//
// How: the standard headers are parsed first with the default target (isa_prelude.ipp); then
// `#pragma GCC target` applies to everything after it, including Eigen's templates instantiated at the
// end of this file, and the ISA macros Eigen reads to pick its packet width are defined by hand (GCC's
// pragma does not define them). Eigen's namespace is renamed so these instantiations cannot be
// merged with the generic ones by the linker.
#include "sim/kernels/isa_prelude.ipp"

#ifdef COINFER_ISA_DISPATCH
// GCC 12 flags the deliberately undefined registers of _mm512_undefined_ps() inside the intrinsics.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC target("avx,avx2,fma,f16c,sse3,ssse3,sse4.1,sse4.2,popcnt")
#include "sim/kernels/isa_avx2_macros.ipp"
#define Eigen coinfer_eigen_avx2
#define COINFER_GEMM_NAME gemm_avx2
#define COINFER_GEMV_NAME gemv_avx2
#include "sim/kernels/gemm_isa.ipp"
#endif
