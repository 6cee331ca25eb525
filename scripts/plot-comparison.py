#!/usr/bin/python3
"""Plot the main job's comparison: mean transfer time per method and setting.

    plot-comparison.py OUTPUT.png transfers-1.csv [transfers-2.csv ...]

Reads the per-transfer CSV files that drp-paper-p2p --csv writes, takes the
mean transfer time of each run (repetition), and plots, per FRP/LFP setting,
the mean over runs of each method with its 95% Student-t interval (also
written as OUTPUT with the extension .pdf).
"""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from scipy import stats


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    output = pathlib.Path(argv[1])
    transfers = pd.concat(pd.read_csv(path) for path in argv[2:])
    transfers = transfers[transfers["status"] == "success"]
    per_run = transfers.groupby(["frp", "lfp", "method", "run"])["duration_us"].mean().reset_index()
    settings = sorted({(f, l) for f, l in zip(per_run["frp"], per_run["lfp"])})
    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.38
    for k, method in enumerate(("traditional", "dynamic")):
        means, errors = [], []
        for frp, lfp in settings:
            runs = per_run[(per_run["frp"] == frp) & (per_run["lfp"] == lfp)
                           & (per_run["method"] == method)]["duration_us"]
            means.append(runs.mean())
            n = len(runs)
            errors.append(stats.t.ppf(0.975, n - 1) * runs.std(ddof=1) / n**0.5 if n > 1 else 0)
        xs = [i + (k - 0.5) * width for i in range(len(settings))]
        ax.bar(xs, means, width, yerr=errors, capsize=4, label=method)
    ax.set_xticks(range(len(settings)))
    ax.set_xticklabels([f"FRP {100 * f:g}%\nLFP {100 * l:g}%" for f, l in settings])
    ax.set_ylabel("mean transfer time (µs), 95% interval over runs")
    ax.set_title("drp point-to-point: 128 KiB writes, 1024-byte frames", fontsize=9)
    ax.legend()
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(output, dpi=150)
    fig.savefig(output.with_suffix(".pdf"))
    print(f"plot: {output} and {output.with_suffix('.pdf')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
