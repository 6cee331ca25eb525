"""The fabric experiments as campaigns, their figures and tables.

Two figures, each a grid of :class:`drp.FabricCampaign` runs (so a second
invocation computes only what is missing), summarized per setting over
repetitions with 95% Student-t intervals, both methods paired by run number
(one run number gives both methods the same flows and the same registration
draws, as far as they behave alike):

* ``incast``: N senders write 64 KiB each to one receiver at once on a star
  of 1 Gb/s links (queues of 100 frames, ns-3's default), N from 2 to 32, at
  FRP 0 and 5%: mean and p99 FCT and frames dropped;
* ``web-search``: open-loop Poisson arrivals of web-search flow sizes (DCTCP)
  for 500 ms on a leaf-spine of 4 leaves x 8 hosts and 2 spines (1 Gb/s host
  links, 10 Gb/s uplinks, no oversubscription), at 30, 50 and 70% load of
  the host links and FRP 5%: p50 and p99 slowdown by flow-size bucket, and
  of the flows whose registration failed.

Outputs per figure, in the output folder: ``<name>.png``, ``<name>.pdf``,
``<name>.csv`` and ``<name>.md``.
"""

import math

import numpy as np

from drp import figures
from drp.fabric import nearest_rank

#: Methods, in plotting order.
METHODS = ("traditional", "dynamic")

#: Incast: degrees, failed-registration probabilities, the rest.
INCAST_DEGREES = (2, 4, 8, 16, 32)
INCAST_FRPS = (0.0, 0.05)
INCAST = {"topology": "star", "hosts": 33, "workload": "incast", "bytes": 65536, "queue": "100p"}

#: Web search: loads, and the fabric and workload.
WEB_SEARCH_LOADS = (0.3, 0.5, 0.7)
WEB_SEARCH = {
    "topology": "leaf-spine",
    "leaves": 4,
    "spines": 2,
    "hosts": 8,
    "host_rate": "1Gbps",
    "fabric_rate": "10Gbps",
    "workload": "poisson",
    "cdf": "web-search",
    "duration": "500ms",
    "frp": 0.05,
    "queue": "100p",
}

#: Flow-size buckets of the web-search figure: (label, smallest, largest) bytes.
#: Fixed edges (rather than equal counts per run) so that every repetition and
#: both methods are summarized over the same buckets; three, so that each
#: holds some 60 to 400 flows per run (53%, 17% and 30% of web-search flows).
SIZE_BUCKETS = (
    ("< 100 kB", 0, 99_999),
    ("100 kB-1 MB", 100_000, 999_999),
    (">= 1 MB", 1_000_000, 2**32),
)

#: The row of flows whose first registration failed (any size): where the
#: dynamic method can differ from the traditional one at all.
FAILED = "registration failed"

#: Repetitions of each fabric figure (``drp-figures --fabric-repetitions``
#: overrides): the incast runs are short, and its FRP 5% intervals need many.
FABRIC_REPETITIONS = {"incast": 20, "web-search": 5}

#: Figure names and what each shows.
FABRIC_FIGURES = {
    "incast": "incast of 64 KiB per sender on a 1 Gb/s star, FRP 0 and 5%",
    "web-search": "web-search flows on a 4-leaf, 2-spine leaf-spine at 30-70% load, FRP 5%",
}


def fabric_grids(name):
    """Return the parameter grids of fabric figure ``name``."""
    methods = {"method": list(METHODS)}
    if name == "incast":
        return [{**INCAST, **methods, "degree": list(INCAST_DEGREES), "frp": list(INCAST_FRPS)}]
    if name == "web-search":
        return [{**WEB_SEARCH, **methods, "load": list(WEB_SEARCH_LOADS)}]
    raise ValueError(f"figure = {name!r} is not a fabric figure; valid: {', '.join(FABRIC_FIGURES)}")


def _interval(sample):
    """Return (mean, 95% half width) of a sample's values that are not NaN.

    :func:`drp.figures._interval`, but (NaN, NaN) for no values: a bucket
    may hold no flow in a run.
    """
    values = [float(x) for x in sample if not math.isnan(float(x))]
    return figures._interval(values) if values else (math.nan, math.nan)


def summarize_incast(campaign, repetitions):
    """Return one row per (FRP, degree) of the incast figure as a DataFrame.

    Per method: ``<method>_mean_us`` and ``<method>_p99_us`` (the mean over
    repetitions of each run's mean and p99 FCT of its successful flows),
    ``<method>_drops`` (frames dropped per run) and ``<method>_ok`` (flows
    that succeeded, all runs), each with its 95% half width (``_ci95``);
    then ``reduction_pct`` (dynamic's reduction of the mean FCT, paired by
    run, averaged) with its half width.
    """
    import pandas as pd

    runs = campaign.runs_dataframe(fabric_grids("incast"))
    runs = runs[runs["run"] <= repetitions]
    rows = []
    for (frp, degree), group in runs.groupby(["frp", "degree"], sort=True):
        row = {"frp": frp, "degree": degree}
        by = {m: group[group["method"] == m].set_index("run") for m in METHODS}
        paired = by["traditional"].index.intersection(by["dynamic"].index)
        row["runs"] = len(paired)
        for m in METHODS:
            part = by[m].loc[paired]
            row[f"{m}_mean_us"], row[f"{m}_mean_ci95_us"] = _interval(part["mean_fct_us"])
            row[f"{m}_p99_us"], row[f"{m}_p99_ci95_us"] = _interval(part["p99_fct_us"])
            row[f"{m}_drops"], row[f"{m}_drops_ci95"] = _interval(part["drops"])
            row[f"{m}_ok"] = int(part["successes"].sum())
            row[f"{m}_flows"] = int(part["flows"].sum())
        t = by["traditional"].loc[paired, "mean_fct_us"].to_numpy()
        d = by["dynamic"].loc[paired, "mean_fct_us"].to_numpy()
        row["reduction_pct"], row["reduction_ci95_pct"] = _interval(100 * (t - d) / t)
        rows.append(row)
    return pd.DataFrame(rows)


def summarize_web_search(campaign, repetitions):
    """Return one row per (load, size bucket) of the web-search figure as a DataFrame.

    Per method: ``<method>_p50`` and ``<method>_p99`` (the mean over
    repetitions of each run's p50 and p99 slowdown of the bucket's
    successful flows) with their 95% half widths, ``<method>_flows`` (flows
    in the bucket, all runs) and ``<method>_indirect``; then ``p50_diff``
    and ``p99_diff`` (traditional minus dynamic, paired by run) with their
    half widths. The
    last row of each load, :data:`FAILED`, holds the flows of any size
    whose first registration failed (an invalid reply).
    """
    import pandas as pd

    grid = fabric_grids("web-search")
    transfers = campaign.to_dataframe(grid)
    transfers = transfers[transfers["run"] <= repetitions]
    rows = []
    for load in WEB_SEARCH_LOADS:
        at_load = transfers[np.isclose(transfers["load"], load)]
        buckets = [
            (label, low, high, (at_load["size"] >= low) & (at_load["size"] <= high))
            for label, low, high in SIZE_BUCKETS
        ]
        buckets.append((FAILED, 0, 2**32, at_load["invalid_replies"] > 0))
        for label, low, high, selected in buckets:
            bucket = at_load[selected]
            row = {"load": load, "bucket": label, "min_bytes": low, "max_bytes": high}
            per_run = {}
            for m in METHODS:
                mine = bucket[bucket["method"] == m]
                ok = mine[mine["status"] == "success"]
                stats = ok.groupby("run")["slowdown"].agg(
                    p50=lambda s: nearest_rank(s, 0.5), p99=lambda s: nearest_rank(s, 0.99)
                )
                per_run[m] = stats
                row[f"{m}_p50"], row[f"{m}_p50_ci95"] = _interval(stats["p50"])
                row[f"{m}_p99"], row[f"{m}_p99_ci95"] = _interval(stats["p99"])
                row[f"{m}_flows"] = len(mine)
                row[f"{m}_ok"] = len(ok)
                row[f"{m}_indirect"] = int((mine["mode"] == "indirect").sum())
            paired = per_run["traditional"].index.intersection(per_run["dynamic"].index)
            row["runs"] = len(paired)
            for stat in ("p50", "p99"):
                diff = per_run["traditional"].loc[paired, stat] - per_run["dynamic"].loc[paired, stat]
                row[f"{stat}_diff"], row[f"{stat}_diff_ci95"] = _interval(diff)
            rows.append(row)
    return pd.DataFrame(rows)


def _cell(mean, half, digits=1):
    """Return "mean ± half" (just the mean where there is no interval)."""
    if math.isnan(mean):
        return "-"
    return f"{mean:.{digits}f}" + ("" if math.isnan(half) else f" ± {half:.{digits}f}")


def _markdown(table, name):
    """Return fabric figure ``name``'s table as Markdown."""
    if name == "incast":
        header = ["FRP", "senders", "runs"]
        for m in METHODS:
            header += [f"{m} mean FCT (us)", f"{m} p99 FCT (us)", f"{m} drops"]
        header += ["reduction (%)"]
    else:
        header = ["load", "flow size", "runs"]
        for m in METHODS:
            header += [f"{m} p50", f"{m} p99", f"{m} flows (indirect)"]
        header += ["p50 trad. - dyn.", "p99 trad. - dyn."]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, row in table.iterrows():
        if name == "incast":
            cells = [f"{100 * row['frp']:g}%", f"{int(row['degree'])}", f"{int(row['runs'])}"]
            for m in METHODS:
                cells += [
                    _cell(row[f"{m}_mean_us"], row[f"{m}_mean_ci95_us"]),
                    _cell(row[f"{m}_p99_us"], row[f"{m}_p99_ci95_us"]),
                    _cell(row[f"{m}_drops"], row[f"{m}_drops_ci95"]),
                ]
            cells.append(_cell(row["reduction_pct"], row["reduction_ci95_pct"], 2))
        else:
            cells = [f"{100 * row['load']:g}%", row["bucket"], f"{int(row['runs'])}"]
            for m in METHODS:
                cells += [
                    _cell(row[f"{m}_p50"], row[f"{m}_p50_ci95"], 2),
                    _cell(row[f"{m}_p99"], row[f"{m}_p99_ci95"], 2),
                    f"{int(row[f'{m}_flows'])} ({int(row[f'{m}_indirect'])})",
                ]
            cells.append(_cell(row["p50_diff"], row["p50_diff_ci95"], 2))
            cells.append(_cell(row["p99_diff"], row["p99_diff_ci95"], 2))
        lines.append("| " + " | ".join(cells) + " |")
    note = "(mean ± half width of the 95% interval over repetitions"
    if name == "web-search":
        note += "; slowdown = FCT / ideal FCT of the size and path, see DrpIdealFct"
    return "\n".join(lines) + "\n\n" + note + ")\n"


def plot_fabric(table, name, out):
    """Plot fabric figure ``name`` from its table into ``out``/<name>.png and .pdf."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    markers = dict(zip(METHODS, ("o", "s")))
    if name == "incast":
        fig, axes = plt.subplots(1, 3, figsize=(13, 4))
        panels = (
            ("mean_us", "mean_ci95_us", "mean FCT (µs)"),
            ("p99_us", "p99_ci95_us", "p99 FCT (µs)"),
            ("drops", "drops_ci95", "frames dropped per run"),
        )
        for ax, (stat, half, label) in zip(axes, panels):
            for frp, style in zip(INCAST_FRPS, ("-", "--")):
                part = table[np.isclose(table["frp"], frp)]
                for m in METHODS:
                    ax.errorbar(
                        part["degree"],
                        part[f"{m}_{stat}"],
                        yerr=part[f"{m}_{half}"].fillna(0),
                        marker=markers[m],
                        linestyle=style,
                        capsize=3,
                        label=f"{m}, FRP {100 * frp:g}%",
                    )
            ax.set_xscale("log", base=2)
            if stat == "drops":
                ax.set_yscale("symlog", linthresh=1)
                ax.set_ylim(bottom=0)
            else:
                ax.set_yscale("log")
            ax.set_xlabel("senders (incast degree)")
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=8)
    else:
        fig, axes = plt.subplots(
            1, len(WEB_SEARCH_LOADS), figsize=(12, 4), sharey=True, squeeze=False
        )
        axes = axes[0]
        labels = [label for label, _, _ in SIZE_BUCKETS] + [FAILED]
        x = np.arange(len(labels))
        for ax, load in zip(axes, WEB_SEARCH_LOADS):
            part = table[np.isclose(table["load"], load)]
            for i, m in enumerate(METHODS):
                for stat, hatch in (("p99", None), ("p50", "//")):
                    ax.bar(
                        x + (i - 0.5) * 0.38,
                        part[f"{m}_{stat}"],
                        0.36,
                        yerr=part[f"{m}_{stat}_ci95"].fillna(0),
                        capsize=2,
                        alpha=1.0 if stat == "p50" else 0.45,
                        hatch=hatch,
                        color=f"C{i}",
                        label=f"{m} {stat}",
                    )
            ax.set_xticks(x, [label.replace(" ", "\n", 1) for label in labels], fontsize=7)
            ax.set_title(f"load {100 * load:g}%", fontsize=9)
            ax.set_yscale("log")
            top = max((table[f"{m}_p99"] + table[f"{m}_p99_ci95"].fillna(0)).max() for m in METHODS)
            ax.set_ylim(1, 1.5 * top)  # from the ideal up
            ax.grid(True, alpha=0.3, axis="y")
        axes[0].set_ylabel("FCT slowdown (FCT / ideal)")
        axes[0].legend(fontsize=7)
    fig.suptitle(f"drp {name}: {FABRIC_FIGURES[name]}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / f"{name}.png", dpi=150)
    fig.savefig(out / f"{name}.pdf", metadata={"CreationDate": None})
    plt.close(fig)


def make_fabric_figure(campaign, name, out, repetitions=None, **run_options):
    """Run fabric figure ``name``'s campaign (what is missing) and write its files to ``out``.

    ``campaign`` is a :class:`drp.FabricCampaign`; ``repetitions`` defaults
    to the figure's own (:data:`FABRIC_REPETITIONS`). Returns the figure's
    table.
    """
    repetitions = repetitions or FABRIC_REPETITIONS[name]
    campaign.run(fabric_grids(name), repetitions, **run_options)
    if name == "incast":
        table = summarize_incast(campaign, repetitions)
    else:
        table = summarize_web_search(campaign, repetitions)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"{name}.csv", index=False)
    (out / f"{name}.md").write_text(
        f"# drp {name}: {FABRIC_FIGURES[name]}\n\n" + _markdown(table, name)
    )
    plot_fabric(table, name, out)
    return table
