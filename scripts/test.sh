#!/usr/bin/env bash
# Configures, builds (tests, benchmarks, CLI) and runs the whole test suite with CTest.
# Usage: scripts/test.sh [ctest args...]     (e.g. scripts/test.sh -R graph)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${COINFER_BUILD_DIR:-build}"
werror=OFF
if [ "${CI:-}" = "true" ]; then werror=ON; fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCOINFER_WERROR="$werror" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@"
