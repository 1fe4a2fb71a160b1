#!/usr/bin/env bash
# Checks scripts/slurm-sweep.sh against a real, throwaway single-node SLURM: starts munged, slurmctld
# and slurmd on this machine (Debian's slurm-wlm and munge; root, state in a temporary folder, ports
# chosen free), spreads SWEEP over N array tasks, waits for the merge job, and requires the merged
# CSV to equal a single-machine `coinfer sweep` byte for byte. Everything it started is stopped.
#
#   scripts/slurm-selftest.sh [COINFER] [SWEEP] [N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
coinfer="$(realpath "${1:-$here/../build/coinfer}")"
sweep="$(realpath "${2:-$here/../scenarios/ci/determinism-sweep.yaml}")"
n="${3:-3}"
for tool in munged slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null || { echo "slurm-selftest: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm-selftest: needs root to start slurmd" >&2; exit 2; }

tmp="$(mktemp -d /tmp/coinfer-slurm.XXXXXX)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 0.5
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/munge"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --force --foreground --socket="$tmp/munge/munge.sock" --key-file="$tmp/munge/munge.key" \
  --log-file="$tmp/munge/munged.log" --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  >"$tmp/munge/munged.out" 2>&1 &
pids+=($!)
node="$(hostname -s)"
cpus="$(nproc)"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=coinfer-selftest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=selftest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
for _ in $(seq 50); do [ -S "$tmp/munge/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
  sleep 0.2
done
sinfo -h -o %T | grep -qE '^(idle|mixed)' || { echo "slurm-selftest: the node did not come up" >&2; cat "$tmp"/slurm*.log "$tmp"/*.out >&2 || true; exit 1; }

out="$tmp/out"
"$here/slurm-sweep.sh" "$sweep" "$out" "$n" "$coinfer" >/dev/null
for _ in $(seq 600); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 0.2
done
[ -f "$out/results.csv" ] || { echo "slurm-selftest: no merged results" >&2; cat "$out"/*.log >&2 || true; exit 1; }
"$coinfer" sweep "$sweep" --out "$tmp/single" >/dev/null 2>&1
cmp "$out/results.csv" "$tmp/single/results.csv"
echo "slurm-selftest: $n array tasks + merge on a single-node SLURM equal a single-machine run ($(($(wc -l <"$out/results.csv") - 1)) rows)"
