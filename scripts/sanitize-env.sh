# Sourced by scripts/test.sh --sanitize and scripts/fuzz.sh: the sanitized build's folder and
# configuration (one build serves both), and the sanitizer run-time options.
# shellcheck shell=bash

sanitize_build_dir="${COINFER_SANITIZE_BUILD_DIR:-build-sanitize}"

# Undefined behaviour is already fatal in the binaries (-fno-sanitize-recover=undefined) and ASan
# always stops at its first report; these add stack traces and keep leak detection on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0:print_summary=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-print_suppressions=0}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
  if symbolizer="$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer)"; then
    export ASAN_SYMBOLIZER_PATH="$symbolizer"
  fi
fi

# configure_sanitized_build WERROR: configures $sanitize_build_dir (clang with the fuzz targets,
# or g++ without them when clang is missing). -O1, line tables, assertions on, no benchmarks.
configure_sanitized_build() {
  local werror="$1" cxx
  local args=(-DCMAKE_BUILD_TYPE=Sanitize -DCOINFER_SANITIZE=ON -DCOINFER_BUILD_BENCH=OFF
              -DCOINFER_WERROR="$werror")
  if cxx="$(command -v clang++-14 || command -v clang++)"; then
    args+=(-DCMAKE_CXX_COMPILER="$cxx" -DCOINFER_FUZZ=ON)
  else
    echo "sanitize: clang++ not found; sanitizing with g++, without the fuzz targets" >&2
  fi
  if command -v ccache >/dev/null; then args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B "$sanitize_build_dir" "${args[@]}" >/dev/null
}
