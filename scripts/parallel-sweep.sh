#!/usr/bin/env bash
# Spreads a coinfer sweep over GNU parallel job slots, then merges the shards:
#
#   scripts/parallel-sweep.sh SWEEP.yaml OUT_DIR N [COINFER] [-- GNU parallel options]
#
# runs `coinfer sweep SWEEP --shard i/N --out OUT_DIR` for i = 1..N (GNU parallel keeps --jobs of them
# running; default: one per core) and `coinfer merge` of the N shard files into OUT_DIR/results.csv,
# which equals a single-machine `coinfer sweep` byte for byte. Options after `--` go to parallel, e.g.
# `-- --jobs 4`, or remote hosts that share OUT_DIR's file system and the repository's path:
# `-- --sshlogin 8/node1,8/node2,: --workdir $PWD` (`:` is this machine). Without a shared file
# system add `--return` for each shard's two files (see README, "Sweeps on many machines").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/sweep-args.sh"
parse_sweep_args parallel "$@"
command -v parallel >/dev/null || { echo "parallel-sweep: GNU parallel not found (Debian: parallel)" >&2; exit 2; }
# --halt now,fail=1: one failing shard stops the others; the shards already written stay resumable.
parallel --will-cite --halt now,fail=1 "${extra[@]}" "$coinfer" sweep "$sweep" --shard "{}/$n" --out "$out" ::: $(seq 1 "$n")
"$coinfer" merge "${shards[@]}" -o "$out/results.csv"
