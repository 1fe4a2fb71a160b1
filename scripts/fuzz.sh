#!/usr/bin/env bash
# Runs every libFuzzer target in fuzz/ for a bounded time and fails on any crash, hang (> 10 s
# for one input), allocation over 2 GiB, sanitizer report or non-coinfer::Error exception.
# Usage: scripts/fuzz.sh [--seconds N | --runs N [--seed S]] [--jobs J] [--no-build] [TARGET...]
#   --seconds N  time per target (default 60), from a fresh random seed each time
#   --runs N     inputs per target instead, from seed S (default 1): the same code always runs the
#                same inputs, so the outcome does not depend on the machine's speed or luck (CI)
#   --jobs J     targets run at once (default: nproc)
#   --no-build   run the fuzz targets already in build-sanitize/fuzz/
#   TARGET       model_json, calibration_json, plan_json, platform_yaml, scenario_yaml,
#                sweep_yaml, solve, matrix_market, frame_trace, claims_yaml, onnx_model (default: every
#                fuzz/<target>_fuzz.cpp)
# Builds build-sanitize/ first if needed (the same build as scripts/test.sh --sanitize; clang).
# Each target fuzzes a COPY of its committed corpus (fuzz/corpus/<target>/), so runs never grow
# it; findings land in build-sanitize/fuzz-runs/<target>/ (crash-*, timeout-*, oom-*, log.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=0
seed=1
build=1
jobs="$(nproc)"
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n 2,16p "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
for n in "$seconds" "$runs" "$seed"; do
  case "$n" in ''|*[!0-9]*) echo "fuzz.sh: --seconds, --runs and --seed take a whole number, not '$n'" >&2; exit 2 ;; esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/*_fuzz.cpp; do n="$(basename "$f" .cpp)"; targets+=("${n%_fuzz}"); done
fi

# Longest input per target: a bit above its largest seed, so mutations stay small and fast.
max_len_of() {
  case "$1" in
    model_json|profile) echo 8192 ;;
    scenario_yaml|sweep_yaml|platform_yaml|claims_yaml) echo 4096 ;;
    *) echo 3072 ;;
  esac
}

source scripts/sanitize-env.sh
if ! command -v clang++-14 >/dev/null && ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: needs clang++ (libFuzzer); run scripts/install-deps.sh" >&2
  exit 2
fi
if [ "$build" -eq 1 ]; then
  werror=OFF
  if [ "${CI:-}" = "true" ]; then werror=ON; fi
  configure_sanitized_build "$werror"
  cmake --build "$sanitize_build_dir" -j "$(nproc)" --target "${targets[@]/%/_fuzz}"
fi

runs_dir="$sanitize_build_dir/fuzz-runs"
run_target() {
  local name="$1" dir="$runs_dir/$1"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp fuzz/corpus/"$name"/* "$dir/corpus/"
  local budget=(-max_total_time="$seconds")
  # -reload=0: the corpus folder is not re-read every 10 s, so nothing depends on the clock.
  if [ "$runs" -gt 0 ]; then budget=(-runs="$runs" -seed="$seed" -reload=0); fi
  local args=("${budget[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len_of "$name")"
              -artifact_prefix="$dir/artifacts/" -print_final_stats=1)
  if [ -f "fuzz/dict/$name.dict" ]; then args+=(-dict="fuzz/dict/$name.dict"); fi
  local rc=0
  "$sanitize_build_dir/fuzz/${name}_fuzz" "${args[@]}" "$dir/corpus" >"$dir/log.txt" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
}

budget_text="${seconds} s each"
if [ "$runs" -gt 0 ]; then budget_text="${runs} runs each from seed ${seed}"; fi
echo "fuzz.sh: ${#targets[@]} targets, ${budget_text}, ${jobs} at a time"
start=$(date +%s)
running=0
for name in "${targets[@]}"; do
  if [ ! -d "fuzz/corpus/$name" ]; then echo "fuzz.sh: no target '$name'" >&2; exit 2; fi
  run_target "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait

failed=0
for name in "${targets[@]}"; do
  dir="$runs_dir/$name"
  rc="$(cat "$dir/rc" 2>/dev/null || echo "no exit status")"
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log.txt" | tail -1)"
  cov="$(grep -oE 'cov: [0-9]+' "$dir/log.txt" | tail -1 || true)"
  if [ "$rc" = "0" ]; then
    printf 'fuzz.sh: %-16s ok    %9s runs  %6s exec/s  %s\n' "$name" "${runs:-?}" "${speed:-?}" "$cov"
  else
    failed=$((failed + 1))
    printf 'fuzz.sh: %-16s FAIL  (exit %s) log: %s\n' "$name" "$rc" "$dir/log.txt"
    grep -E 'ERROR: |SUMMARY: |fuzz: |terminate called|what\(\)' "$dir/log.txt" | head -8 | sed 's/^/    /'
    for a in "$dir"/artifacts/*; do
      [ -e "$a" ] || continue
      echo "    reproduce: $sanitize_build_dir/fuzz/${name}_fuzz $a"
      # The input itself, so a CI log alone reproduces the finding: base64 -d > crash.bin
      echo "    input ($(wc -c <"$a") bytes, base64):"
      base64 -w 100 "$a" | head -60 | sed 's/^/      /'
    done
  fi
done
echo "fuzz.sh: $((${#targets[@]} - failed)) passed, $failed failed in $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ]
