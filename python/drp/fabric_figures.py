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

Two more, the group ``argument``: the published argument (a dynamic RNIC on
lossy Ethernet instead of a lossless fabric) on the same two workloads, each
run three ways, all with the adaptive timers (``timeout_mode="adaptive"``;
the figures above are the fixed-timer baseline) and both methods at FRP 0
and 5%:

* ``lossless-incast``: the incast above;
* ``lossless-web-search``: the web search above for 100 ms instead of 500 ms;

each (i) lossy without congestion control, (ii) lossy with ECN and DCQCN,
(iii) lossless (PFC and a shared switch buffer of the memory the lossy
switch's queues have together: ports x 100 frames x 1500 bytes) with ECN
and DCQCN (:data:`NETWORKS`): p50 and p99 slowdown by flow-size bucket,
frames dropped, retransmissions and time paused per run.

Outputs per figure, in the output folder: ``<name>.png``, ``<name>.pdf``,
``<name>.csv`` and ``<name>.md``.
"""

import math
from typing import Any

import numpy as np

from drp import figures
from drp.fabric import nearest_rank
from drp.plots import save_png_and_pdf

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

#: The networks of the argument figures, in plotting order: label to parameters.
NETWORKS = {
    "lossy": {"ecn": False, "cc": "none", "lossless": False},
    "lossy+DCQCN": {"ecn": True, "cc": "dcqcn", "lossless": False},
    "lossless+DCQCN": {"ecn": True, "cc": "dcqcn", "lossless": True},
}

#: Every argument run: RFC 6298 timers estimated per peer. The published fixed
#: 120 us timer fires spuriously while frames wait in queues or paused.
ARGUMENT = {"timeout_mode": "adaptive"}

#: FRPs of the argument figures.
ARGUMENT_FRPS = (0.0, 0.05)

#: The lossless switch's buffer of each argument figure: the memory of the
#: lossy switch's egress queues (100 frames of at most 1500 bytes per port),
#: the star's 33 ports, a leaf's 10 (8 hosts, 2 spines; the spines, 4 ports,
#: get the same).
ARGUMENT_BUFFERS = {"lossless-incast": "4950KB", "lossless-web-search": "1500KB"}

#: How long web-search flows arrive in ``lossless-web-search`` (the
#: ``web-search`` figure's 500 ms runs take one to two minutes each).
ARGUMENT_DURATION = "100ms"

#: Argument figure names and what each shows.
ARGUMENT_FIGURES = {
    "lossless-incast": "incast on a 1 Gb/s star: lossy, lossy with DCQCN, lossless with DCQCN",
    "lossless-web-search": "web search on a leaf-spine for 100 ms: lossy, lossy with DCQCN, "
    "lossless with DCQCN",
}

#: The methods of each argument figure: both compare RoCEv2 (its reliable
#: connection over the verbs: memory registered and queue pairs connected
#: beforehand, go-back-N, the 67 ms local ACK timeout of perftest's default)
#: with DRP's two methods on each network.
ARGUMENT_METHODS = {
    "lossless-incast": ("traditional", "dynamic", "roce"),
    "lossless-web-search": ("traditional", "dynamic", "roce"),
}

#: Repetitions of each argument figure (``--fabric-repetitions`` overrides):
#: those of doc/fabrics.rst.
FABRIC_REPETITIONS.update({"lossless-incast": 10, "lossless-web-search": 10})


def fabric_grids(name):
    """Return the parameter grids of fabric figure ``name``."""
    methods = {"method": list(METHODS)}
    if name == "incast":
        return [{**INCAST, **methods, "degree": list(INCAST_DEGREES), "frp": list(INCAST_FRPS)}]
    if name == "web-search":
        return [{**WEB_SEARCH, **methods, "load": list(WEB_SEARCH_LOADS)}]
    if name in ARGUMENT_BUFFERS:
        if name == "lossless-incast":
            workload: dict[str, Any] = {**INCAST, "degree": list(INCAST_DEGREES)}
        else:
            workload = {**WEB_SEARCH, "duration": ARGUMENT_DURATION, "load": list(WEB_SEARCH_LOADS)}
        workload.update(method=list(ARGUMENT_METHODS[name]), frp=list(ARGUMENT_FRPS), **ARGUMENT)
        buffer = {"buffer": ARGUMENT_BUFFERS[name]}
        return [
            {**workload, **network, **(buffer if network["lossless"] else {})}
            for network in NETWORKS.values()
        ]
    valid = ", ".join([*FABRIC_FIGURES, *ARGUMENT_FIGURES])
    raise ValueError(f"figure = {name!r} is not a fabric figure; valid: {valid}")


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
    save_png_and_pdf(fig, out, name)


def network_of(params):
    """Return the :data:`NETWORKS` label of a run's parameters (a mapping or a row)."""
    for label, network in NETWORKS.items():
        if all(params[k] == v for k, v in network.items()):
            return label
    return "other"


#: Per-run counters of the argument figures: column suffix and how a run gives it.
RUN_STATS = {
    "drops": lambda runs: (
        runs["drops"] + runs["shared_buffer_drops"] + runs["headroom_drops"] + runs["link_drops"]
    ),
    "retransmissions": lambda runs: runs["retransmissions"],
    "paused_ms": lambda runs: 1e3 * runs["rnic_time_paused_seconds"],
    "port_paused_ms": lambda runs: 1e3 * runs["time_paused_seconds"],
}


def _argument_runs(campaign, name, repetitions):
    """Return the stored runs of argument figure ``name`` (``run`` <= ``repetitions``)
    with their ``network`` label and the :data:`RUN_STATS` as columns."""
    runs = campaign.runs_dataframe(fabric_grids(name))
    runs = runs[runs["run"] <= repetitions].copy()
    runs["network"] = [network_of(row) for _, row in runs.iterrows()]
    for stat, value in RUN_STATS.items():
        runs[stat] = value(runs)
    return runs


def _run_stat_cells(row, part, method):
    """Put the :data:`RUN_STATS` of ``method``'s runs ``part`` (mean, half width) into ``row``."""
    for stat in RUN_STATS:
        row[f"{method}_{stat}"], row[f"{method}_{stat}_ci95"] = _interval(part[stat])


def summarize_lossless_incast(campaign, repetitions):
    """Return one row per (FRP, degree, network) of ``lossless-incast`` as a DataFrame.

    Per method, each the mean over repetitions with its 95% half width
    (``_ci95``): ``<method>_p50`` and ``<method>_p99`` (each run's p50 and
    p99 slowdown of its successful flows), ``<method>_drops`` (frames
    dropped in switches, egress queues and shared buffers, and on links, per
    run), ``<method>_retransmissions``,
    ``<method>_paused_ms`` (the RNICs' time paused by PFC, all RNICs
    together, per run) and ``<method>_port_paused_ms`` (the switch ports'
    time paused); ``<method>_ok`` and ``<method>_flows`` (all runs).
    """
    import pandas as pd

    runs = _argument_runs(campaign, "lossless-incast", repetitions)
    rows = []
    for (frp, degree), setting in runs.groupby(["frp", "degree"], sort=True):
        for network in NETWORKS:
            group = setting[setting["network"] == network]
            row = {"frp": frp, "degree": degree, "network": network, "runs": 0}
            for m in ARGUMENT_METHODS["lossless-incast"]:
                part = group[group["method"] == m]
                row["runs"] = max(row["runs"], len(part))
                row[f"{m}_p50"], row[f"{m}_p50_ci95"] = _interval(part["p50_slowdown"])
                row[f"{m}_p99"], row[f"{m}_p99_ci95"] = _interval(part["p99_slowdown"])
                _run_stat_cells(row, part, m)
                row[f"{m}_ok"] = int(part["successes"].sum())
                row[f"{m}_flows"] = int(part["flows"].sum())
            rows.append(row)
    return pd.DataFrame(rows)


#: The bucket row of all flows in ``lossless-web-search``.
ALL_FLOWS = "all flows"


def summarize_lossless_web_search(campaign, repetitions):
    """Return one row per (FRP, load, network, bucket) of ``lossless-web-search``.

    Buckets: :data:`SIZE_BUCKETS`, :data:`ALL_FLOWS` and, where registrations
    fail, :data:`FAILED`. Per method: ``<method>_p50`` and ``<method>_p99``
    (mean over repetitions of each run's p50 and p99 slowdown of the
    bucket's successful flows) with their 95% half widths, ``<method>_flows``
    and ``<method>_ok`` (all runs); and, the same in every bucket of a
    setting, the per-run counters of :func:`summarize_lossless_incast`.
    """
    import pandas as pd

    name = "lossless-web-search"
    runs = _argument_runs(campaign, name, repetitions)
    transfers = campaign.to_dataframe(fabric_grids(name))
    transfers = transfers[transfers["run"] <= repetitions]
    transfers = transfers.assign(
        network=[network_of(row) for row in transfers[["ecn", "cc", "lossless"]].to_dict("records")]
    )
    rows = []
    for frp in ARGUMENT_FRPS:
        for load in WEB_SEARCH_LOADS:
            for network in NETWORKS:
                at = (np.isclose(runs["frp"], frp)) & np.isclose(runs["load"], load)
                setting_runs = runs[at & (runs["network"] == network)]
                selected = (
                    np.isclose(transfers["frp"], frp)
                    & np.isclose(transfers["load"], load)
                    & (transfers["network"] == network)
                )
                flows = transfers[selected]
                buckets = [
                    (label, low, high, (flows["size"] >= low) & (flows["size"] <= high))
                    for label, low, high in SIZE_BUCKETS
                ]
                buckets.append((ALL_FLOWS, 0, 2**32, flows["size"] >= 0))
                if frp > 0:
                    buckets.append((FAILED, 0, 2**32, flows["invalid_replies"] > 0))
                for label, low, high, chosen in buckets:
                    bucket = flows[chosen]
                    row: dict[str, Any] = {"frp": frp, "load": load, "network": network, "bucket": label}
                    row.update(min_bytes=low, max_bytes=high, runs=0)
                    for m in ARGUMENT_METHODS[name]:
                        mine = bucket[bucket["method"] == m]
                        ok = mine[mine["status"] == "success"]
                        stats = ok.groupby("run")["slowdown"].agg(
                            p50=lambda x: nearest_rank(x, 0.5), p99=lambda x: nearest_rank(x, 0.99)
                        )
                        row[f"{m}_p50"], row[f"{m}_p50_ci95"] = _interval(stats["p50"])
                        row[f"{m}_p99"], row[f"{m}_p99_ci95"] = _interval(stats["p99"])
                        row[f"{m}_flows"] = len(mine)
                        row[f"{m}_ok"] = len(ok)
                        part = setting_runs[setting_runs["method"] == m]
                        row["runs"] = max(row["runs"], len(part))
                        _run_stat_cells(row, part, m)
                    rows.append(row)
    return pd.DataFrame(rows)


def _argument_markdown(table, name):
    """Return argument figure ``name``'s tables as Markdown."""
    incast = name == "lossless-incast"
    methods = ARGUMENT_METHODS[name]
    setting = ["FRP", "senders" if incast else "load", "network"]
    lines = []

    def emit(header, rows):
        lines.extend(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)])
        lines.extend("| " + " | ".join(cells) + " |" for cells in rows)
        lines.append("")

    def head(row):
        second = f"{int(row['degree'])}" if incast else f"{100 * row['load']:g}%"
        return [f"{100 * row['frp']:g}%", second, row["network"]]

    slowdown = [] if incast else ["flow size"]
    header = setting + slowdown + ["runs"]
    for m in methods:
        header += [f"{m} p50", f"{m} p99"] + ([] if incast else [f"{m} flows"])
    rows = []
    for _, row in table.iterrows():
        cells = head(row) + ([] if incast else [row["bucket"]]) + [f"{int(row['runs'])}"]
        for m in methods:
            cells += [
                _cell(row[f"{m}_p50"], row[f"{m}_p50_ci95"], 2),
                _cell(row[f"{m}_p99"], row[f"{m}_p99_ci95"], 2),
            ] + ([] if incast else [f"{int(row[f'{m}_flows'])}"])
        rows.append(cells)
    lines.append("Slowdown (FCT / ideal FCT of the size and path) of the successful flows:")
    lines.append("")
    emit(header, rows)
    header = setting + ["runs"]
    for m in methods:
        header += [f"{m} drops", f"{m} retransmissions", f"{m} RNICs paused (ms)"]
    rows = []
    counters = table if incast else table[table["bucket"] == ALL_FLOWS]
    for _, row in counters.iterrows():
        cells = head(row) + [f"{int(row['runs'])}"]
        for m in methods:
            cells += [
                _cell(row[f"{m}_drops"], row[f"{m}_drops_ci95"]),
                _cell(row[f"{m}_retransmissions"], row[f"{m}_retransmissions_ci95"]),
                _cell(row[f"{m}_paused_ms"], row[f"{m}_paused_ms_ci95"], 2),
            ]
        rows.append(cells)
    lines.append(
        "Per run: frames dropped (switches and links), retransmissions, and the time "
        "the RNICs were paused by PFC, all RNICs together:"
    )
    lines.append("")
    emit(header, rows)
    lines.append(
        "(mean ± half width of the 95% interval over repetitions; all runs with adaptive "
        "timers)"
    )
    return "\n".join(lines) + "\n"


def plot_argument(table, name, out):
    """Plot argument figure ``name`` from its table into ``out``/<name>.png and .pdf."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = ARGUMENT_METHODS[name]
    markers = dict(zip(methods, ("o", "s", "^")))
    styles = dict(zip(methods, ("--", "-", ":")))
    colors = {network: f"C{i}" for i, network in enumerate(NETWORKS)}
    counters = (
        ("drops", "frames dropped per run"),
        ("retransmissions", "retransmissions per run"),
        ("paused_ms", "RNICs paused per run (ms)"),
    )

    def lines(ax, part, x, stat):
        for network in NETWORKS:
            mine = part[part["network"] == network]
            for m in methods:
                ax.errorbar(
                    mine[x],
                    mine[f"{m}_{stat}"],
                    yerr=mine[f"{m}_{stat}_ci95"].fillna(0),
                    marker=markers[m],
                    linestyle=styles[m],
                    color=colors[network],
                    capsize=3,
                    label=f"{network}, {m}",
                )
        ax.grid(True, alpha=0.3)
        if stat not in ("p50", "p99"):
            # Counters: from 0 (symlog), up to 1 at least (an all-0 panel reads as 0).
            top = max(
                (part[f"{m}_{stat}"] + part[f"{m}_{stat}_ci95"].fillna(0)).max() for m in methods
            )
            ax.set_yscale("symlog", linthresh=1)
            ax.set_ylim(0, 1.0 if math.isnan(top) else max(1.0, 1.3 * top))

    if name == "lossless-incast":
        panels = (("p50", "p50 slowdown"), ("p99", "p99 slowdown")) + counters
        fig, axes = plt.subplots(len(ARGUMENT_FRPS), len(panels), figsize=(17, 7), squeeze=False)
        for r, frp in enumerate(ARGUMENT_FRPS):
            part = table[np.isclose(table["frp"], frp)]
            for ax, (stat, label) in zip(axes[r], panels):
                lines(ax, part, "degree", stat)
                ax.set_xscale("log", base=2)
                if stat in ("p50", "p99"):
                    ax.set_yscale("log")
                ax.set_xlabel("senders (incast degree)")
                ax.set_ylabel(f"{label}, FRP {100 * frp:g}%")
        axes[0][0].legend(fontsize=7)
    else:
        frp = max(ARGUMENT_FRPS)
        part = table[np.isclose(table["frp"], frp)]
        fig, axes = plt.subplots(2, len(WEB_SEARCH_LOADS), figsize=(15, 8), squeeze=False)
        labels = [label for label, _, _ in SIZE_BUCKETS] + [ALL_FLOWS]
        x = np.arange(len(labels))
        width = 0.8 / (len(NETWORKS) * len(methods))
        for ax, load in zip(axes[0], WEB_SEARCH_LOADS):
            at_load = part[np.isclose(part["load"], load)].set_index("bucket")
            for i, (network, m) in enumerate((n, m) for n in NETWORKS for m in methods):
                mine = at_load[at_load["network"] == network].reindex(labels)
                offset = (i - (len(NETWORKS) * len(methods) - 1) / 2) * width
                ax.bar(
                    x + offset,
                    mine[f"{m}_p99"],
                    width,
                    yerr=mine[f"{m}_p99_ci95"].fillna(0),
                    capsize=2,
                    color=colors[network],
                    alpha=0.5 if m == "traditional" else 1.0,
                    hatch="//" if m == "roce" else None,
                    label=f"{network}, {m}",
                )
                ax.plot(x + offset, mine[f"{m}_p50"], "k_", markersize=6)
            ax.set_xticks(x, [label.replace(" ", "\n", 1) for label in labels], fontsize=7)
            ax.set_yscale("log")
            title = f"load {100 * load:g}%, FRP {100 * frp:g}%: p99 bars, p50 ticks"
            ax.set_title(title, fontsize=9)
            ax.grid(True, alpha=0.3, axis="y")
        axes[0][0].set_ylabel("FCT slowdown (FCT / ideal)")
        axes[0][0].legend(fontsize=6)
        whole = part[part["bucket"] == ALL_FLOWS]
        for ax, (stat, label) in zip(axes[1], counters):
            lines(ax, whole, "load", stat)
            ax.set_xlabel("load of the host links")
            ax.set_ylabel(f"{label}, FRP {100 * frp:g}%")
    fig.suptitle(f"drp {name}: {ARGUMENT_FIGURES[name]} (adaptive timers)", fontsize=9)
    save_png_and_pdf(fig, out, name)


def make_fabric_figure(campaign, name, out, repetitions=None, **run_options):
    """Run fabric figure ``name``'s campaign (what is missing) and write its files to ``out``.

    ``campaign`` is a :class:`drp.FabricCampaign`; ``name`` one of
    :data:`FABRIC_FIGURES` or :data:`ARGUMENT_FIGURES`; ``repetitions``
    defaults to the figure's own (:data:`FABRIC_REPETITIONS`). Returns the
    figure's table.
    """
    repetitions = repetitions or FABRIC_REPETITIONS[name]
    campaign.run(fabric_grids(name), repetitions, **run_options)
    summarize = {
        "incast": summarize_incast,
        "web-search": summarize_web_search,
        "lossless-incast": summarize_lossless_incast,
        "lossless-web-search": summarize_lossless_web_search,
    }[name]
    table = summarize(campaign, repetitions)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"{name}.csv", index=False)
    if name in ARGUMENT_FIGURES:
        title, text = ARGUMENT_FIGURES[name], _argument_markdown(table, name)
        plot_argument(table, name, out)
    else:
        title, text = FABRIC_FIGURES[name], _markdown(table, name)
        plot_fabric(table, name, out)
    (out / f"{name}.md").write_text(f"# drp {name}: {title}\n\n" + text)
    return table
