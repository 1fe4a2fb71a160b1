#!/usr/bin/env bash
# The determinism gate: the same scenario and seed give byte-identical results files.
#   - scenarios/ci/noisy-stream.yaml (LTE bandwidth redrawn every 0.1 s) run twice: results.json and
#     frames.csv identical;
#   - scenarios/ci/determinism-sweep.yaml (20 runs) swept twice, with --jobs 2 and --jobs 1:
#     results.csv and every run's results.json identical;
#   - scenarios/mobieye/mobieye-e2e.yaml (background jobs, per-frame sizes from a video trace) run
#     twice: every variant's results.json and frames.csv identical;
#   - `make-trace pan` over scikit-learn's china.jpg (real x264 encodes) twice: identical CSVs.
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
mobieye="$here/../scenarios/mobieye/mobieye-e2e.yaml"
for run in a b; do "$coinfer" run "$mobieye" --quiet --set workload.frames=60 --out "$tmp/mobieye-$run"; done
for f in "$tmp"/mobieye-a/*/results.json "$tmp"/mobieye-a/*/frames.csv; do
  cmp "$f" "$tmp/mobieye-b/$(basename "$(dirname "$f")")/$(basename "$f")"
done
china=/usr/lib/python3/dist-packages/sklearn/datasets/images/china.jpg
for run in a b; do
  "$coinfer" make-trace pan "$china" --size 320x240,640x480 --speeds 10:0,20:3 -o "$tmp/pan-$run.csv" >/dev/null
done
cmp "$tmp/pan-a.csv" "$tmp/pan-b.csv"
echo "determinism: stream twice, a $runs-run sweep with --jobs 2 and 1, MobiEye's end to end twice and a video trace twice gave byte-identical results"
