#!/usr/bin/env bash
# Checks that rnic-fabric (FabricScenario) split over MPI ranks gives the
# sequential results: runs PROGRAM once in one process with
# ArrivalsLastScheduler (the event order a split needs), then under mpirun
# on each number of ranks with --sync=granted, and compares every run's
# per-transfer CSV (every FCT to the nanosecond, every counter), its drops
# CSV and its printed summary (but the events and wall time) with the
# sequential run's. Prints one line per run; exits non-zero if any differs.
#
#   scripts/check-fabric-ranks.sh [--ranks="2 4"] PROGRAM -- RNIC_FABRIC_ARGUMENTS...
#
# PROGRAM is rnic-fabric built in an ns-3 tree with the mpi module (e.g.
# TREE/build/contrib/drp/examples/ns3.37-rnic-fabric-debug). The arguments
# must give the cables a delay (--ns3::EthernetChannel::Delay=1us): the
# ranks' lookahead. Outputs go to a temporary folder, kept when a run differs.
set -uo pipefail

usage() {
  echo "usage: $0 [--ranks=\"2 4\"] PROGRAM -- RNIC_FABRIC_ARGUMENTS..." >&2
  exit 2
}

ranks="2 4"
program=
arguments=()
while [ $# -gt 0 ]; do
  case $1 in
  --ranks=*) ranks=${1#--ranks=} ;;
  --) shift; arguments=("$@"); break ;;
  -*) usage ;;
  *) [ -z "$program" ] || usage; program=$1 ;;
  esac
  shift
done
[ -n "$program" ] && [ -x "$program" ] || { echo "check-fabric-ranks: no program ${program:-given}" >&2; usage; }
command -v mpirun >/dev/null || { echo "check-fabric-ranks: no mpirun (apt-get install openmpi-bin)" >&2; exit 2; }

mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
work=$(mktemp -d "${TMPDIR:-/tmp}/drp-fabric-ranks.XXXXXX")
say() { echo "check-fabric-ranks: $*"; }
summary() { grep -v -e "events" -e "wall" "$1"; }

start=$SECONDS
if ! "$program" --SchedulerType=ns3::ArrivalsLastScheduler "${arguments[@]}" \
  --csv="$work/sequential.csv" --dropsCsv="$work/sequential-drops.csv" >"$work/sequential.txt" 2>&1; then
  say "sequential run FAILED, see $work/sequential.txt"
  tail -n 5 "$work/sequential.txt" | sed 's/^/    /'
  exit 1
fi
transfers=$(($(wc -l <"$work/sequential.csv") - 1))
say "sequential: $transfers transfers ($((SECONDS - start)) s)"
[ "$transfers" -gt 0 ] || { say "the sequential run made no transfers"; exit 1; }

failed=0
for n in $ranks; do
  start=$SECONDS
  if ! "${mpirun[@]}" -np "$n" "$program" --sync=granted "${arguments[@]}" \
    --csv="$work/ranks-$n.csv" --dropsCsv="$work/ranks-$n-drops.csv" >"$work/ranks-$n.txt" 2>&1; then
    say "$n ranks: FAILED, see $work/ranks-$n.txt"
    tail -n 5 "$work/ranks-$n.txt" | sed 's/^/    /'
    failed=1
  elif ! cmp -s "$work/sequential.csv" "$work/ranks-$n.csv" ||
    ! cmp -s "$work/sequential-drops.csv" "$work/ranks-$n-drops.csv" ||
    ! diff -q <(summary "$work/sequential.txt") <(summary "$work/ranks-$n.txt") >/dev/null; then
    say "$n ranks: DIFFERS from the sequential run (see $work)"
    diff "$work/sequential.csv" "$work/ranks-$n.csv" | head -n 5 | sed 's/^/    /'
    failed=1
  else
    say "$n ranks: the same $transfers transfers, drops and summary ($((SECONDS - start)) s)"
  fi
done
[ "$failed" -eq 1 ] || rm -rf "$work"
exit "$failed"
