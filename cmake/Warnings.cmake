add_library(coinfer_warnings INTERFACE)
target_compile_options(coinfer_warnings INTERFACE -Wall -Wextra -Wpedantic)
# GCC 12 reports false -Wrestrict positives inside std::string at -O2/-O3 (GCC bug 105329) and
# false -Wmaybe-uninitialized positives inside its own AVX-512 intrinsic headers and std::string
# copies; both are kept on for newer compilers.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(coinfer_warnings INTERFACE -Wno-restrict -Wno-maybe-uninitialized)
endif()
if(COINFER_WERROR)
  target_compile_options(coinfer_warnings INTERFACE -Werror)
endif()
