#!/usr/bin/env bash
# Configures, builds (tests, benchmarks, CLI) and runs the whole test suite with CTest.
# Usage: scripts/test.sh [--sanitize] [ctest args...]     (e.g. scripts/test.sh -R graph)
#
# --sanitize: builds with clang, AddressSanitizer (leaks included) + UndefinedBehaviorSanitizer and
# libFuzzer's instrumentation into build-sanitize/ (no benchmarks, -O1, assertions on; the fuzz/
# targets are built too, so scripts/fuzz.sh reuses the build) and runs the suite there but the notebooks,
# docs pages, scripts and a few checks that run no C++ of ours or only time processes (the plain run
# has them; see below). Any sanitizer report fails the test that caused it. Falls back to g++ (no fuzz targets) without clang.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  shift
fi

werror=OFF
if [ "${CI:-}" = "true" ]; then werror=ON; fi
jobs="$(nproc)"

if [ "$sanitize" -eq 0 ]; then
  build_dir="${COINFER_BUILD_DIR:-build}"
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCOINFER_WERROR="$werror" >/dev/null
  cmake --build "$build_dir" -j "$jobs"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
  exit 0
fi

source scripts/sanitize-env.sh
build_dir="$sanitize_build_dir"
configure_sanitized_build "$werror"
start=$(date +%s)
cmake --build "$build_dir" -j "$jobs"
echo "test.sh: sanitized build took $(( $(date +%s) - start )) s"
start=$(date +%s)
# Left to the plain run:
# - the notebooks and docs pages: they rerun whole paper scenarios through the CLI (a quarter of the
#   suite's time at -O1 under the sanitizers), and the CLI and scenario tests cover the same code;
# - the Python scripts, the formatting and the tracked-files checks: no C++ of ours runs in them, or
#   the same as in the plain run;
# - the ONNX checks: the zoo's export check writes 3 GB of ONNX files through the CLI for
#   onnx.checker, and the torchvision imports compare against PyTorch through the CLI (minutes of
#   CPU at -O1, most of it PyTorch's); the exporter's and importer's C++ runs under the sanitizers
#   in test_core's round trip of every zoo model and in the fuzzers;
# - the timing checks of `coinfer check`: they time repeated processes for seconds (a minute under
#   the sanitizers); the other check tests run the same code.
skip='^(notebooks|docs|scripts|format|onnx): |^test_cli:(no tracked file names|check: a timing )'
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -E "$skip" "$@"
echo "test.sh: sanitized tests took $(( $(date +%s) - start )) s"
