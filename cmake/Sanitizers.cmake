# COINFER_SANITIZE: AddressSanitizer (leak detection included) + UndefinedBehaviorSanitizer on every
# target: libraries, tests and the CLI. Undefined behaviour is fatal (-fno-sanitize-recover), so a
# report fails the test, the CLI run or the fuzz input that triggered it, whatever *_OPTIONS say.
# COINFER_FUZZ: also libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link) on the
# libraries, and the fuzz/ targets, linked with -fsanitize=fuzzer. It implies COINFER_SANITIZE and needs clang, so one
# build (scripts/test.sh --sanitize, build-sanitize/) serves the sanitized suite and scripts/fuzz.sh.
#
# Build type "Sanitize" (what scripts/test.sh --sanitize uses): -O1 with line tables only, and
# assertions kept (no NDEBUG), since internal invariants are assertions and fuzzing should hit them.
if(COINFER_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "COINFER_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(COINFER_SANITIZE ON CACHE BOOL "" FORCE)
endif()

if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(coinfer_sanitize_debug_flags "-gline-tables-only")
else()
  set(coinfer_sanitize_debug_flags "-g1")
endif()
# project() already created these cache entries, empty, when CMAKE_BUILD_TYPE=Sanitize was given.
if(NOT CMAKE_CXX_FLAGS_SANITIZE)
  set(CMAKE_CXX_FLAGS_SANITIZE "-O1 ${coinfer_sanitize_debug_flags}" CACHE STRING
      "Flags of the Sanitize build type: -O1 and line tables, assertions on" FORCE)
endif()
mark_as_advanced(CMAKE_CXX_FLAGS_SANITIZE)

if(COINFER_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "coinfer: sanitizers address,undefined")
endif()

# coinfer_fuzz_coverage(<target>): libFuzzer's coverage instrumentation on the code the fuzzers
# explore (the libraries and the fuzz targets). The tests and the CLI go without it: they are never
# fuzzed, and it makes their compilation slower.
function(coinfer_fuzz_coverage target)
  if(COINFER_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
