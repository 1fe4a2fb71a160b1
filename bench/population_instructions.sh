#!/usr/bin/env bash
# Instructions per replayed frame of bench/population_bench.cpp at each N, counted by valgrind's
# callgrind: a count that the machine's noise (other tenants, a virtual machine's host) does not
# move, where the benchmark's wall time does. Runs population_bench under callgrind with the bare
# program left out; each coinfer run counts only simulate_population and labels its count. Per N,
# the instructions per frame are the difference between the runs of F and 2F frames per user over
# the extra frames (so setup is not in it), and "vs first N" divides by the first N's. Counts leave
# out what time also depends on (cache misses, the memory a larger population touches); `cache` as
# fourth argument simulates the caches too (callgrind --cache-sim=yes, the sizes the processor
# reports) and adds the first-level data and last-level misses per frame (about 1.5x slower). A
# virtual machine may report a last level no population fills (ours: 512 MB, direct-mapped);
# `cache=MB` makes it MB MiB (16-way), the share of a shared cache a process may get when other
# tenants of the host use the rest: its misses at 10,000 users count the lines a frame touches of
# its user's records.
#
#     bench/population_instructions.sh [build dir] [users,users,...] [frames per user at the largest N] [cache|cache=MB]
#     # default build 10,100,1000,10000 2: about 5 minutes on 2 cores
set -euo pipefail

build=${1:-build}
sizes=${2:-10,100,1000,10000}
frames=${3:-2}
cache=no
last_level=()
case "${4:-}" in
  "") ;;
  cache) cache=yes ;;
  cache=*)
    mb=${4#cache=}
    if ! [[ "$mb" =~ ^[1-9][0-9]{0,3}$ ]] || (( (mb & (mb - 1)) != 0 )); then
      echo "population_instructions: '$4': expected cache=MB with MB a power of 2 from 1 to 8192" >&2
      exit 2
    fi
    cache=yes
    last_level=(--LL=$((mb * 1048576)),16,64)
    ;;
  *) echo "population_instructions: unknown argument '$4' (expected cache or cache=MB)" >&2; exit 2 ;;
esac
bench="$build/bench/population_bench"
if [ ! -x "$bench" ]; then
  echo "population_instructions: $bench not found (build it first: cmake --build $build)" >&2
  exit 2
fi
if ! command -v valgrind > /dev/null; then
  echo "population_instructions: valgrind not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --instr-atstart=no --cache-sim=$cache "${last_level[@]}" --callgrind-out-file="$dir/cg.%p" \
  "$bench" "$sizes" "$frames" --coinfer-only > "$dir/bench.txt" 2> "$dir/valgrind.txt" || {
  echo "population_instructions: population_bench failed under callgrind:" >&2
  tail -n 20 "$dir/valgrind.txt" >&2
  exit 1
}

# Each labelled dump: "desc: Trigger: Client Request: coinfer N users F frames per user", then its
# "totals:" (or "summary:") line, the events counted since the run started: Ir, or with the caches
# Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
for f in "$dir"/cg.*; do
  awk '/^desc: Trigger: Client Request: coinfer / { n = $6; k = $8 }
       /^(totals|summary): / { ir = $2; d1 = $6 + $7; ll = $9 + $10 }
       END { if (n != "") print n, k, ir, d1, ll }' "$f"
done | sort -n -k1,1 -k2,2 > "$dir/counts.txt"

awk -v sizes="$sizes" -v cache="$cache" '
  { ir[$1, $2] = $3; d1[$1, $2] = $4; ll[$1, $2] = $5; if (!($1 in low) || $2 < low[$1]) low[$1] = $2 }
  END {
    n = split(sizes, order, ",")
    printf "users  extra frames   instructions/frame   vs first N%s\n", cache == "yes" ? "   D1 misses/frame   LL misses/frame" : ""
    first = 0
    for (i = 1; i <= n; ++i) {
      u = order[i]; f = low[u]
      if (!((u, f) in ir) || !((u, 2 * f) in ir)) { print "missing counts for " u " users" > "/dev/stderr"; exit 1 }
      per = (ir[u, 2 * f] - ir[u, f]) / (u * f)
      if (first == 0) first = per
      printf "%5d  %12d   %18.0f   %10.3f", u, u * f, per, per / first
      if (cache == "yes")
        printf "   %15.1f   %15.1f", (d1[u, 2 * f] - d1[u, f]) / (u * f), (ll[u, 2 * f] - ll[u, f]) / (u * f)
      printf "\n"
      last = per
    }
    printf "instructions per frame at the largest N over the first: %.3f\n", last / first
  }' "$dir/counts.txt"
