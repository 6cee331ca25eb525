"""The argument's point-to-point figures: RoCEv2 beside DRP on one link.

``long-flow-loss`` (``drp-figures argument``, or by name): 8 MiB writes, one
at a time, between two server RNICs (``100g-pcie3x16``) on one 100 Gb/s
link that loses frames at random (ns-3's ``RateErrorModel``, LFP 0 to 1 %),
by ``traditional``, ``dynamic`` and ``roce``. It shows what the literature
reports of RoCE's go-back-N (IRN, Mittal et al., SIGCOMM 2018): fine at
small loss rates, collapsing once losses hit a message's last packets or
a packet sent again often enough that the local ACK timeout decides.

``connection-per-request`` (``drp-figures argument``, or by name): what a
connection opened for each request costs, the paper's assumption, against a
long-lived one. Writes of 4 KiB, 64 KiB and 1 MiB, one at a time, on the
paper's Gigabit card and on a 100 Gb/s server card: ``traditional`` and
``dynamic`` (DRP's handshake, with the responder's registration, in every
transfer), ``roce`` over a queue pair connected and memory registered
beforehand (RoCE as deployed), and ``roce`` with a connection per transfer
(``VerbsTransferEngine::Connection`` ``PerTransfer``: the connection
manager's REQ, REP and RTU, the responder's registration, then the write).
FRP 0: a failed registration refuses a RoCE connection (the application
would try again), where DRP's request is repeated until it succeeds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from drp.fabric_figures import _cell, _interval
from drp.plots import save_png_and_pdf

#: Bytes of each write.
SIZE = 8 * 1024 * 1024

#: The run: 8 MiB writes, one at a time, on 100 Gb/s server RNICs.
LONG_FLOW: dict[str, Any] = {
    "size": SIZE,
    "transfers": 5,
    "nic": "100g-pcie3x16",
    "rate": "100Gbps",
    "frp": 0.0,
}

#: Link loss rates (lost-frame probability of each frame, each direction).
LOSS_RATES = (0.0, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2)

#: The methods compared.
METHODS = ("traditional", "dynamic", "roce")

#: Figure names and what each shows.
LOSS_FIGURES = {
    "long-flow-loss": "one 8 MiB write at a time on a 100 Gb/s link against random frame loss",
    "connection-per-request": "writes with a connection each (DRP; RoCEv2 through the "
    "connection manager) against RoCEv2 over a long-lived queue pair",
}

#: Repetitions of each figure.
LOSS_REPETITIONS = {"long-flow-loss": 5, "connection-per-request": 5}

#: connection-per-request: bytes of each write.
REQUEST_SIZES = (4096, 65536, 1048576)

#: connection-per-request: the cards, each at its line rate.
REQUEST_CARDS = {"paper-1g": "1Gbps", "100g-pcie3x16": "100Gbps"}

#: connection-per-request: what is compared, and the runs' parameters of each.
REQUEST_VARIANTS: dict[str, dict[str, Any]] = {
    "traditional": {"method": "traditional"},
    "dynamic": {"method": "dynamic"},
    "roce": {"method": "roce"},
    "roce per transfer": {
        "method": "roce",
        "defaults": {"ns3::VerbsTransferEngine::Connection": "PerTransfer"},
    },
}

#: connection-per-request: writes per run.
REQUEST_TRANSFERS = 200


def _key(variant):
    """Return the column prefix of a REQUEST_VARIANTS name (spaces as underscores)."""
    return variant.replace(" ", "_")


def _request_grids(variant):
    """Return the connection-per-request grids of one of REQUEST_VARIANTS."""
    return [
        {
            "nic": nic,
            "rate": rate,
            "size": list(REQUEST_SIZES),
            "transfers": REQUEST_TRANSFERS,
            "frp": 0.0,
            **REQUEST_VARIANTS[variant],
        }
        for nic, rate in REQUEST_CARDS.items()
    ]


def loss_grids(name):
    """Return the parameter grids of figure ``name``."""
    if name == "long-flow-loss":
        return [{**LONG_FLOW, "method": list(METHODS), "lfp": list(LOSS_RATES)}]
    if name == "connection-per-request":
        return [grid for variant in REQUEST_VARIANTS for grid in _request_grids(variant)]
    raise ValueError(f"figure = {name!r} is not a loss figure; valid: {', '.join(LOSS_FIGURES)}")


def summarize_connection_figure(campaign, repetitions):
    """Return one row per (card, size) of ``connection-per-request`` as a DataFrame.

    Per variant (REQUEST_VARIANTS, spaces as underscores), over runs
    1..``repetitions``: ``<variant>_us`` (mean transfer time, the mean of the
    runs' means) with ``_ci95`` (95 % half width over runs), ``<variant>_ok``
    and ``<variant>_n`` (transfers succeeded and made, all runs), and
    ``<variant>_of_roce`` (its mean time over RoCEv2's on a long-lived queue
    pair).
    """
    import pandas as pd

    runs = {}
    for variant in REQUEST_VARIANTS:
        part = campaign.runs_dataframe(_request_grids(variant))
        runs[variant] = part[part["run"] <= repetitions]
    rows = []
    for nic in REQUEST_CARDS:
        for size in REQUEST_SIZES:
            row: dict[str, Any] = {"nic": nic, "size": size, "runs": 0}
            for variant, part in runs.items():
                key = _key(variant)
                part = part[(part["nic"] == nic) & (part["size"] == size)]
                row["runs"] = max(row["runs"], len(part))
                row[f"{key}_us"], row[f"{key}_us_ci95"] = _interval(part["mean_us"])
                row[f"{key}_ok"] = int(part["successes"].sum())
                row[f"{key}_n"] = int(part["n"].sum())
            rows.append(row)
    table = pd.DataFrame(rows)
    for variant in REQUEST_VARIANTS:
        key = _key(variant)
        table[f"{key}_of_roce"] = table[f"{key}_us"] / table["roce_us"]
    return table


def summarize_loss_figure(campaign, name, repetitions):
    """Return one row per loss rate of figure ``name`` as a DataFrame.

    (``connection-per-request``: see :func:`summarize_connection_figure`.)

    Per method, over runs 1..``repetitions``: ``<method>_us`` (mean transfer
    time, the mean of the runs' means) and ``<method>_gbps`` (goodput: the
    write's bytes over its mean time), each with ``_ci95`` (95 % half width
    over runs), ``<method>_ok`` and ``<method>_n`` (transfers succeeded and
    made, all runs), and ``<method>_of_lossless`` (goodput over the same
    method's at LFP 0).
    """
    import pandas as pd

    if name == "connection-per-request":
        return summarize_connection_figure(campaign, repetitions)
    runs = campaign.runs_dataframe(loss_grids(name))
    runs = runs[runs["run"] <= repetitions]
    bits = 8 * int(LONG_FLOW["size"])
    rows = []
    for lfp in LOSS_RATES:
        row = {"lfp": lfp, "runs": 0}
        for m in METHODS:
            part = runs[np.isclose(runs["lfp"], lfp) & (runs["method"] == m)]
            row["runs"] = max(row["runs"], len(part))
            row[f"{m}_us"], row[f"{m}_us_ci95"] = _interval(part["mean_us"])
            row[f"{m}_gbps"], row[f"{m}_gbps_ci95"] = _interval(bits / part["mean_us"] / 1e3)
            row[f"{m}_ok"] = int(part["successes"].sum())
            row[f"{m}_n"] = int(part["n"].sum())
        rows.append(row)
    table = pd.DataFrame(rows)
    for m in METHODS:
        table[f"{m}_of_lossless"] = table[f"{m}_gbps"] / table[f"{m}_gbps"].iloc[0]
    return table


def _connection_markdown(table):
    """Return ``connection-per-request``'s table as Markdown."""
    header = ["card", "bytes", "runs", *(f"{v} (µs)" for v in REQUEST_VARIANTS)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, row in table.iterrows():
        cells = [row["nic"], f"{int(row['size'])}", f"{int(row['runs'])}"]
        for variant in REQUEST_VARIANTS:
            key = _key(variant)
            cells.append(
                _cell(row[f"{key}_us"], row[f"{key}_us_ci95"]) + f" ({row[f'{key}_of_roce']:.2f})"
            )
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "(mean time per write, from the post to the initiator's completion; mean ± half "
        "width of the 95% interval over repetitions; in brackets, over RoCEv2's on a "
        "long-lived queue pair; every write succeeded unless the CSV's `_ok` says otherwise)"
    )
    return "\n".join(lines) + "\n"


def _markdown(table, name):
    """Return figure ``name``'s table as Markdown."""
    if name == "connection-per-request":
        return _connection_markdown(table)
    header = ["LFP", "runs"]
    for m in METHODS:
        header += [f"{m} (Gb/s)", f"{m} of lossless"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, row in table.iterrows():
        cells = [f"{row['lfp']:g}", f"{int(row['runs'])}"]
        for m in METHODS:
            cells += [
                _cell(row[f"{m}_gbps"], row[f"{m}_gbps_ci95"], 2),
                f"{row[f'{m}_of_lossless']:.3f}",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "(goodput: 8 MiB over the mean transfer time; mean ± half width of the 95% interval "
        "over repetitions; every transfer succeeded unless the CSV's `_ok` says otherwise)"
    )
    return "\n".join(lines) + "\n"


def _plot_connection_figure(table, name, out):
    """Plot ``connection-per-request`` from its table into ``out``."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(REQUEST_CARDS), figsize=(11, 4), squeeze=False)
    axes = axes[0]
    width = 0.8 / len(REQUEST_VARIANTS)
    for ax, nic in zip(axes, REQUEST_CARDS):
        part = table[table["nic"] == nic]
        x = np.arange(len(part))
        for i, variant in enumerate(REQUEST_VARIANTS):
            key = _key(variant)
            ax.bar(
                x + (i - (len(REQUEST_VARIANTS) - 1) / 2) * width,
                part[f"{key}_of_roce"],
                width,
                label=variant,
            )
        ax.set_xticks(x)
        ax.set_xticklabels([f"{int(s) // 1024} KiB" for s in part["size"]])
        ax.set_xlabel(f"bytes per write ({nic}, {REQUEST_CARDS[nic]})")
        ax.axhline(1.0, color="black", linewidth=0.5)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("time per write / RoCEv2's on a long-lived queue pair")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"drp {name}: {LOSS_FIGURES[name]}", fontsize=9)
    save_png_and_pdf(fig, out, name)


def plot_loss_figure(table, name, out):
    """Plot figure ``name`` from its table into ``out``/<name>.png and .pdf."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if name == "connection-per-request":
        _plot_connection_figure(table, name, out)
        return

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    lossy = table[table["lfp"] > 0]
    for m, marker in zip(METHODS, ("o", "s", "^")):
        axes[0].errorbar(
            lossy["lfp"],
            lossy[f"{m}_gbps"],
            yerr=lossy[f"{m}_gbps_ci95"].fillna(0),
            marker=marker,
            capsize=3,
            label=m,
        )
        axes[1].plot(lossy["lfp"], lossy[f"{m}_of_lossless"], marker=marker, label=m)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("lost-frame probability of the link (LFP)")
        ax.grid(True, alpha=0.3, which="both")
        ax.legend()
    axes[0].set_ylabel("goodput of one 8 MiB write (Gb/s)")
    axes[1].set_ylabel("goodput / the method's goodput without loss")
    axes[1].set_ylim(0, 1.05)
    fig.suptitle(f"drp {name}: {LOSS_FIGURES[name]}", fontsize=9)
    save_png_and_pdf(fig, out, name)


def make_loss_figure(campaign, name, out, repetitions=None, **run_options):
    """Run figure ``name``'s campaign (what is missing) and write its files to ``out``.

    Returns the figure's table (see :func:`summarize_loss_figure`).
    """
    reps = repetitions or LOSS_REPETITIONS[name]
    campaign.run(loss_grids(name), reps, **run_options)
    table = summarize_loss_figure(campaign, name, reps)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"{name}.csv", index=False)
    (out / f"{name}.md").write_text(f"# drp {name}: {LOSS_FIGURES[name]}\n\n" + _markdown(table, name))
    plot_loss_figure(table, name, out)
    return table
