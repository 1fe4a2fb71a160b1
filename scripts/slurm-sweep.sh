#!/usr/bin/env bash
# Spreads a coinfer sweep over a SLURM cluster: an N-task job array (scripts/slurm-sweep.sbatch, one
# shard each) and a merge job that runs once every shard succeeded (--dependency=afterok).
#
#   scripts/slurm-sweep.sh SWEEP.yaml OUT_DIR N [COINFER] [-- extra sbatch options]
#
# Prints the array job id and the merge job id; OUT_DIR/results.csv appears when the merge job ends.
# Paths are made absolute, since jobs start in the submission folder of each node.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 SWEEP.yaml OUT_DIR N [COINFER] [-- sbatch options]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
sweep="$(realpath "$1")"
out="$(realpath -m "$2")"
n="$3"
shift 3
coinfer="$(command -v coinfer || echo "$here/../build/coinfer")"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then coinfer="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
coinfer="$(realpath "$coinfer")"
mkdir -p "$out"
array=$(sbatch --parsable --array="1-$n" --output="$out/slurm-%A_%a.log" "$@" \
  "$here/slurm-sweep.sbatch" "$sweep" "$out" "$coinfer")
array="${array%%;*}"
shards=()
for i in $(seq 1 "$n"); do shards+=("$out/results.shard-$i-of-$n.csv"); done
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=coinfer-merge --output="$out/slurm-merge-%j.log" \
  "$@" --wrap "$(printf '%q ' "$coinfer" merge "${shards[@]}" -o "$out/results.csv")")
echo "array job $array, merge job ${merge%%;*} -> $out/results.csv"
