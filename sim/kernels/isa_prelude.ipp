// Included first by gemm_avx2.cpp and gemm_avx512.cpp, BEFORE their `#pragma GCC target`: every
// standard header Eigen uses is parsed here with the default target, so standard-library templates
// instantiated in those files stay generic (a linker may keep any one copy of them).
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <immintrin.h>

#include "sim/kernels/gemm_isa.hpp"
