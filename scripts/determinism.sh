#!/usr/bin/env bash
# The determinism gate: the same scenario and seed give byte-identical results files.
#   - scenarios/ci/noisy-stream.yaml (LTE bandwidth redrawn every 0.1 s) run twice: results.json and
#     frames.csv identical;
#   - scenarios/ci/determinism-sweep.yaml (20 runs) swept twice, with --jobs 2 and --jobs 1:
#     results.csv and every run's results.json identical.
#
#   scripts/determinism.sh [COINFER]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
coinfer="$(realpath "${1:-$here/../build/coinfer}")"
tmp="$(mktemp -d /tmp/coinfer-determinism.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
stream="$here/../scenarios/ci/noisy-stream.yaml"
sweep="$here/../scenarios/ci/determinism-sweep.yaml"
for run in a b; do "$coinfer" run "$stream" --quiet --out "$tmp/stream-$run"; done
cmp "$tmp/stream-a/results.json" "$tmp/stream-b/results.json"
cmp "$tmp/stream-a/frames.csv" "$tmp/stream-b/frames.csv"
"$coinfer" sweep "$sweep" --jobs 2 --out "$tmp/sweep-a" >/dev/null 2>&1
"$coinfer" sweep "$sweep" --jobs 1 --out "$tmp/sweep-b" >/dev/null 2>&1
cmp "$tmp/sweep-a/results.csv" "$tmp/sweep-b/results.csv"
runs=0
for f in "$tmp"/sweep-a/runs/*/results.json; do
  cmp "$f" "$tmp/sweep-b/runs/$(basename "$(dirname "$f")")/results.json"
  runs=$((runs + 1))
done
echo "determinism: stream twice and a $runs-run sweep with --jobs 2 and 1 gave byte-identical results"
