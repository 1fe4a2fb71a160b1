# Sourced by scripts/parallel-sweep.sh and scripts/slurm-sweep.sh: their shared arguments,
#
#   SWEEP.yaml OUT_DIR N [COINFER] [-- options for the engine]
#
# parse_sweep_args TOOL "$@" sets `sweep` and `out` (absolute paths; OUT_DIR is created), `n`,
# `coinfer` (absolute; default: `coinfer` on PATH, else this repository's build/coinfer), `extra`
# (the options after `--`) and `shards` (the N shard files `coinfer sweep --shard i/N` writes).
# shellcheck shell=bash

parse_sweep_args() {
  local tool="$1" here i
  shift
  if [ $# -lt 3 ]; then
    echo "usage: $0 SWEEP.yaml OUT_DIR N [COINFER] [-- $tool options]" >&2
    exit 2
  fi
  case "$3" in
    '' | *[!0-9]* | 0) echo "$0: N: expected a whole number of shards >= 1, got '$3'" >&2; exit 2 ;;
  esac
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  sweep="$(realpath "$1")"
  out="$(realpath -m "$2")"
  n="$3"
  shift 3
  coinfer="$(command -v coinfer || echo "$here/../build/coinfer")"
  if [ $# -gt 0 ] && [ "$1" != "--" ]; then coinfer="$1"; shift; fi
  if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
  coinfer="$(realpath "$coinfer")"
  extra=("$@")
  shards=()
  for i in $(seq 1 "$n"); do shards+=("$out/results.shard-$i-of-$n.csv"); done
  mkdir -p "$out"
}
