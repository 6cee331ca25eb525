#!/usr/bin/env bash
# Checks that drp's distributed simulation gives the sequential results: runs
# the program drp-fabric-mpi (built in an ns-3 tree configured with
# --enable-mpi) once sequentially (--sync=none) and then under mpirun on each
# number of ranks with each synchronizer (granted: DistributedSimulatorImpl,
# null: NullMessageSimulatorImpl), and compares every run's lines (every
# transfer's FCT in nanoseconds, every port's counters) with the sequential
# run's. Prints one line per run; exits non-zero if any run differs or fails.
#
#   scripts/check-mpi-ranks.sh [--ranks="1 2 4"] [--syncs="granted null"] [--timing]
#                              PROGRAM [-- PROGRAM_ARGUMENTS...]
#
# PROGRAM is the built drp-fabric-mpi (e.g.
# TREE/build/contrib/drp/examples/ns3.37-drp-fabric-mpi-debug). Its outputs go to
# a temporary folder (kept, and named, when a run differs). As root, mpirun
# needs --allow-run-as-root; --oversubscribe lets more ranks run than there
# are processors (slower, the same results). --timing prints each run's
# wall-clock seconds of the simulation (the slowest rank's).
set -uo pipefail

usage() {
  echo "usage: $0 [--ranks=\"1 2 4\"] [--syncs=\"granted null\"] [--timing] PROGRAM [-- ARGUMENTS...]" >&2
  exit 2
}

ranks="1 2 4"
syncs="granted null"
timing=()
program=
arguments=()
while [ $# -gt 0 ]; do
  case $1 in
  --ranks=*) ranks=${1#--ranks=} ;;
  --syncs=*) syncs=${1#--syncs=} ;;
  --timing) timing=(--timing) ;;
  --) shift; arguments=("$@"); break ;;
  -*) usage ;;
  *) [ -z "$program" ] || usage; program=$1 ;;
  esac
  shift
done
[ -n "$program" ] && [ -x "$program" ] || { echo "check-mpi-ranks: no program ${program:-given}" >&2; usage; }
command -v mpirun >/dev/null || { echo "check-mpi-ranks: no mpirun (apt-get install openmpi-bin)" >&2; exit 2; }

mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
work=$(mktemp -d "${TMPDIR:-/tmp}/drp-mpi-ranks.XXXXXX")
say() { echo "check-mpi-ranks: $*"; }

start=$SECONDS
if ! "$program" --sync=none --out="$work/sequential.txt" "${timing[@]}" "${arguments[@]}" >"$work/sequential.log" 2>&1; then
  say "sequential run FAILED, see $work/sequential.log"
  tail -n 5 "$work/sequential.log" | sed 's/^/    /'
  exit 1
fi
flows=$(grep -c '^flow ' "$work/sequential.txt")
ports=$(grep -c '^port ' "$work/sequential.txt")
say "sequential: $flows transfers, $ports switch ports ($((SECONDS - start)) s) $(grep '^ranks' "$work/sequential.log" || true)"
[ "$flows" -gt 0 ] || { say "the sequential run made no transfers"; exit 1; }

failed=0
for sync in $syncs; do
  for n in $ranks; do
    name="$sync-$n"
    start=$SECONDS
    if ! "${mpirun[@]}" -np "$n" "$program" --sync="$sync" --out="$work/$name.txt" "${timing[@]}" \
      "${arguments[@]}" >"$work/$name.log" 2>&1; then
      say "$n ranks, $sync: FAILED ($((SECONDS - start)) s), see $work/$name.log"
      tail -n 5 "$work/$name.log" | sed 's/^/    /'
      failed=$((failed + 1))
    elif cmp -s "$work/sequential.txt" "$work/$name.txt"; then
      say "$n ranks, $sync: same as sequential ($((SECONDS - start)) s) $(grep '^ranks' "$work/$name.log" || true)"
    else
      say "$n ranks, $sync: DIFFERS from sequential ($(diff "$work/sequential.txt" "$work/$name.txt" | grep -c '^[<>]') lines), see $work/$name.txt"
      diff "$work/sequential.txt" "$work/$name.txt" | head -n 6 | sed 's/^/    /'
      failed=$((failed + 1))
    fi
  done
done
if [ "$failed" -eq 0 ]; then
  rm -rf "$work"
  say "PASS"
else
  say "FAIL ($failed runs), outputs in $work"
fi
[ "$failed" -eq 0 ]
