// The ISA macros Eigen reads to pick its packet width, up to AVX2 + FMA, defined by hand after a
// `#pragma GCC target` that enables those instructions (GCC's pragma does not define them).
// Included by gemm_avx2.cpp and gemm_avx512.cpp.
#ifndef __SSE3__
#define __SSE3__ 1
#endif
#ifndef __SSSE3__
#define __SSSE3__ 1
#endif
#ifndef __SSE4_1__
#define __SSE4_1__ 1
#endif
#ifndef __SSE4_2__
#define __SSE4_2__ 1
#endif
#ifndef __AVX__
#define __AVX__ 1
#endif
#ifndef __AVX2__
#define __AVX2__ 1
#endif
#ifndef __FMA__
#define __FMA__ 1
#endif
