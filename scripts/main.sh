#!/usr/bin/env bash
# The main job: set up, build, and run the paper's point-to-point comparison
# (traditional vs dynamic RNIC, 128 KiB writes of 1024-byte frames) at
# FRP = LFP = 1%, 5% and 10%: 800 transfers x 5 repetitions per method and point;
# then plot it (results/main-comparison.png and .pdf).
# Extra arguments go to every drp-paper-p2p run (e.g. --transfers=200).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

results="$DRP_ROOT/results"
mkdir -p "$results"
csvs=()
for p in 0.01 0.05 0.10; do
  "$DRP_BUILD/examples/drp-paper-p2p" --frp="$p" --lfp="$p" --transfers=800 --repetitions=5 \
    --csv="$results/main-$p.csv" "$@"
  csvs+=("$results/main-$p.csv")
  echo
done
/usr/bin/python3 "$DRP_ROOT/scripts/plot-comparison.py" "$results/main-comparison.png" "${csvs[@]}"
