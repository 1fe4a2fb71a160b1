#!/usr/bin/env bash
# Spreads a coinfer sweep over a SLURM cluster: an N-task job array (scripts/slurm-sweep.sbatch, one
# shard each) and a merge job that runs once every shard succeeded (--dependency=afterok).
#
#   scripts/slurm-sweep.sh SWEEP.yaml OUT_DIR N [COINFER] [-- extra sbatch options]
#
# Prints the array job id and the merge job id; OUT_DIR/results.csv appears when the merge job ends.
# Paths are made absolute, since jobs start in the submission folder of each node.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/sweep-args.sh"
parse_sweep_args sbatch "$@"
array=$(sbatch --parsable --array="1-$n" --output="$out/slurm-%A_%a.log" "${extra[@]}" \
  "$here/slurm-sweep.sbatch" "$sweep" "$out" "$coinfer")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=coinfer-merge --output="$out/slurm-merge-%j.log" \
  "${extra[@]}" --wrap "$(printf '%q ' "$coinfer" merge "${shards[@]}" -o "$out/results.csv")")
echo "array job $array, merge job ${merge%%;*} -> $out/results.csv"
