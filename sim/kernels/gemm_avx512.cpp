// Eigen's GEMM compiled for AVX-512 (F, DQ, VL, BW), selected at run time on hosts that have them (gemm.cpp).
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
#pragma GCC target("avx,avx2,fma,f16c,sse3,ssse3,sse4.1,sse4.2,popcnt,avx512f,avx512dq,avx512vl,avx512bw")
#include "sim/kernels/isa_avx2_macros.ipp"
#ifndef __AVX512F__
#define __AVX512F__ 1
#endif
#ifndef __AVX512DQ__
#define __AVX512DQ__ 1
#endif
#ifndef __AVX512VL__
#define __AVX512VL__ 1
#endif
#ifndef __AVX512BW__
#define __AVX512BW__ 1
#endif
#define Eigen coinfer_eigen_avx512
#define COINFER_GEMM_NAME gemm_avx512
#define COINFER_GEMV_NAME gemv_avx512
#include "sim/kernels/gemm_isa.ipp"
#endif
