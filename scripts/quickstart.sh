#!/usr/bin/env bash
# README's first command: installs the Debian dependencies, builds coinfer and runs the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target coinfer
./build/coinfer run scenarios/quickstart.yaml
