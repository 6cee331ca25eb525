"""Plots of campaign results: a summary column against a parameter, and CDFs.

The figures of the published experiments have their own code
(:mod:`drp.figures`); these two functions plot any campaign, which is what
``drp-campaign plot`` and the labs under ``doc/labs/`` use::

    from drp import Campaign
    from drp.plots import plot_settings, plot_cdf

    with Campaign("lab3.db", read_only=True) as campaign:
        settings = campaign.settings_dataframe()
        plot_settings(settings, x="ns3::IndirectBuffer::Capacity", y="mean_us",
                      by=["method", "frp"], out="lab3-time.png")
        plot_cdf(campaign.to_dataframe(), by=["loss_model"], out="lab4-cdf.png")

``x`` and each of ``by`` name a parameter (``frp``, ``method``, ...) or an
ns-3 attribute that the runs set as a default (``-d`` of ``drp-campaign``;
the ``defaults`` column). A ``y`` of ``mean_us`` (``mean_fct_us`` for
fabric runs) gets error bars: the half width of its 95 % Student-t interval
(``ci95_us``, ``ci95_fct_us``). Axes carry names and units (:func:`axis_label`),
not column names.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

if TYPE_CHECKING:
    import os

    import pandas as pd

#: Axis labels of parameters and summary columns: a name and its unit.
LABELS = {
    # parameters of the paper's experiments
    "method": "method",
    "frp": "failed-registration probability",
    "lfp": "lost-frame probability",
    "loss_model": "loss model",
    "mean_burst": "mean loss burst (frames)",
    "transfers": "transfers",
    "concurrency": "transfers in flight",
    "size": "transfer size (bytes)",
    "payload": "payload per frame (bytes)",
    "switches": "switches",
    "rate": "line rate (bit/s)",
    "ping_interval": "ping interval (s)",
    # parameters of fabric experiments
    "hosts": "hosts",
    "leaves": "leaf switches",
    "spines": "spine switches",
    "levels": "tree levels",
    "k": "fat-tree k",
    "workload": "workload",
    "bytes": "flow size (bytes)",
    "degree": "incast degree (senders)",
    "load": "offered load",
    "duration": "duration (s)",
    "host_rate": "host link rate (bit/s)",
    "fabric_rate": "fabric link rate (bit/s)",
    "queue": "switch queue size",
    # summary columns of the paper's experiments
    "runs": "runs",
    "n": "transfers",
    "successes": "successful transfers",
    "indirect": "indirect transfers",
    "mean_us": "mean transfer time (µs)",
    "stddev_us": "standard deviation of the transfer time (µs)",
    "ci95_us": "95% interval half width (µs)",
    "corrupt_transfers": "corrupt transfers",
    "frames_lost": "frames lost",
    "host_drops": "host drops (frames)",
    "drp_drops": "DRP drops (frames)",
    "buffer_overflows": "indirect buffer overflows",
    "pcie_requests": "PCIe requests",
    "ping_replies": "ping replies",
    "simulated_seconds": "simulated time (s)",
    "wall_seconds": "wall-clock time (s)",
    # summary columns of fabric experiments
    "retransmissions": "retransmissions",
    "mean_fct_us": "mean FCT (µs)",
    "ci95_fct_us": "95% interval half width of the FCT (µs)",
    "p50_fct_us": "median FCT (µs)",
    "p99_fct_us": "99th-percentile FCT (µs)",
    "p50_slowdown": "median slowdown",
    "p99_slowdown": "99th-percentile slowdown",
    "host_count": "hosts",
    "switch_count": "switches",
    "flows": "flows",
    "drops": "switch queue drops (frames)",
    "link_drops": "link drops (frames)",
    "rnic_drops": "RNIC drops (frames)",
    "events": "simulator events",
    "ecn_marks": "frames marked CE",
    "cnps": "congestion notifications (CNP)",
    "pauses_sent": "PFC pauses sent by switch ports",
    "pauses_received": "PFC pauses received by switch ports",
    "time_paused_seconds": "time switch ports were paused (s)",
    "rnic_pauses_received": "PFC pauses received by RNICs",
    "rnic_time_paused_seconds": "time RNICs were paused (s)",
    "headroom_drops": "headroom drops (frames)",
    "shared_buffer_drops": "shared-buffer drops (frames)",
    # transfer columns
    "duration_us": "transfer time (µs)",
    "fct_us": "FCT (µs)",
    "slowdown": "slowdown",
}

#: The interval (error bars) of a mean: its half-width column.
INTERVALS = {"mean_us": "ci95_us", "mean_fct_us": "ci95_fct_us"}


def axis_label(name: str) -> str:
    """Return the axis label of a parameter, summary column or attribute: name and unit.

    ``mean_fct_us`` -> "mean FCT (µs)"; an ns-3 attribute
    (``ns3::DrpTransport::Window``) is named without its class path; another
    column ending in ``_us`` gets "(µs)".
    """
    if name in LABELS:
        return LABELS[name]
    short = _short(name)
    if short.endswith("_us"):
        return f"{short[:-3].replace('_', ' ')} (µs)"
    return short


def _value(text):
    """Return ``text`` as a number if it reads as one (attribute values are strings)."""
    if not isinstance(text, str):
        return text
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() else number


def column(frame: pd.DataFrame, name: str) -> pd.Series:
    """Return the values of ``name`` in ``frame``: a column or an attribute default.

    Raises ``ValueError`` naming the choices if ``name`` is neither.
    """
    import pandas as pd

    if name in frame.columns and name != "defaults":
        return frame[name].map(_value)
    if "defaults" in frame.columns:
        values = [
            _value((json.loads(d) if isinstance(d, str) else (d or {})).get(name))
            for d in frame["defaults"]
        ]
        if any(v is not None for v in values):
            return pd.Series(values, index=frame.index, name=name)
    choices = [c for c in frame.columns if c != "defaults"]
    raise ValueError(
        f"{name!r} is neither a column nor an attribute default of the selected runs; "
        f"columns: {', '.join(choices)}"
    )


def select(frame: pd.DataFrame, where: Mapping[str, Iterable[Any]]) -> pd.DataFrame:
    """Return the rows of ``frame`` whose values match ``where``.

    ``where``: a mapping of names (parameters or attribute defaults, as
    :func:`column` reads them) to the values to keep; values compare as
    numbers where both read as numbers, else as text.
    """
    keep = None
    for name, values in where.items():
        wanted = {str(_value(v)) for v in values}
        match = column(frame, name).map(lambda v: str(_value(v)) in wanted)
        keep = match if keep is None else keep & match
    if keep is None:
        return frame
    if not keep.any():
        raise ValueError(f"no runs match {dict(where)}")
    return frame[keep]


def _groups(frame, by):
    """Yield (label, rows) for each combination of the ``by`` columns, in sorted order."""
    if not by:
        yield "", frame
        return
    keys = frame.assign(**{f"_by{i}": column(frame, name) for i, name in enumerate(by)})
    names = [f"_by{i}" for i in range(len(by))]
    for values, rows in keys.groupby(names if len(names) > 1 else names[0], sort=True, dropna=False):
        values = values if isinstance(values, tuple) else (values,)
        label = ", ".join(f"{_short(name)}={value}" for name, value in zip(by, values))
        yield label, frame.loc[rows.index]


def _short(name):
    """Return an attribute's name without its class path (``ns3::A::B`` -> ``B``)."""
    return name.rsplit("::", 1)[-1]


def _save(fig, out):
    """Write ``fig`` to ``out`` (its suffix picks the format); no creation date in a PDF."""
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() == ".pdf":
        fig.savefig(out, metadata={"CreationDate": None})
    else:
        fig.savefig(out, dpi=150)


def save_png_and_pdf(fig, folder, name):
    """Lay ``fig`` out, write ``folder/name.png`` and ``folder/name.pdf`` (as
    :func:`_save`: 150 dpi, no creation date, so the same results give the same
    files) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    for suffix in (".png", ".pdf"):
        _save(fig, pathlib.Path(folder) / f"{name}{suffix}")
    plt.close(fig)


def _finish(plt, fig, ax, out, xlabel, ylabel, title, logx, legend):
    """Label, scale and title ``ax`` (a legend if ``legend``), write ``fig`` to ``out``, close it."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if logx:
        ax.set_xscale("log")
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    if legend:
        ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, out)
    plt.close(fig)


def _pyplot():
    """Return matplotlib's pyplot with a backend that needs no display."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_settings(
    settings: pd.DataFrame,
    x: str,
    y: str,
    out: str | os.PathLike[str],
    by: Sequence[str] = (),
    logx: bool = False,
    title: str | None = None,
) -> pd.DataFrame:
    """Plot summary column ``y`` against ``x``, one line per combination of ``by``.

    ``settings``: one row per parameter combination, as
    :meth:`drp.Campaign.settings_dataframe` returns it (or runs, as
    :meth:`~drp.Campaign.runs_dataframe` does). Writes ``out`` (PNG or PDF,
    by its suffix) and returns the plotted points as a DataFrame (columns
    ``series``, ``x``, ``y`` and ``ci95``: for ``mean_us`` or ``mean_fct_us``
    the half width of its 95 % interval, else NaN). The axes are labelled
    with names and units (:func:`axis_label`).
    """
    import pandas as pd

    if y not in settings.columns:
        raise ValueError(f"y = {y!r} is not a column; columns: {', '.join(settings.columns)}")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    points = []
    markers = "osD^v<>px*"
    for i, (label, rows) in enumerate(_groups(settings, list(by))):
        line = pd.DataFrame({"x": column(rows, x), "y": rows[y]})
        interval = INTERVALS.get(y)
        line["ci95"] = rows[interval] if interval in rows else math.nan
        line = line.sort_values("x")
        ax.errorbar(
            line["x"],
            line["y"],
            yerr=None if line["ci95"].isna().all() else line["ci95"],
            marker=markers[i % len(markers)],
            capsize=3,
            label=label or None,
        )
        points.append(line.assign(series=label))
    xlabel, ylabel = axis_label(x), axis_label(y)
    _finish(plt, fig, ax, out, xlabel, ylabel, title or f"{ylabel} against {xlabel}", logx, by)
    return pd.concat(points, ignore_index=True)[["series", "x", "y", "ci95"]]


def plot_cdf(
    transfers: pd.DataFrame,
    out: str | os.PathLike[str],
    by: Sequence[str] = (),
    value: str = "duration_us",
    logx: bool = False,
    title: str | None = None,
) -> pd.DataFrame:
    """Plot the empirical CDF of ``value`` over the successful transfers, one line per group.

    ``transfers``: one row per transfer, as :meth:`drp.Campaign.to_dataframe`
    or :attr:`drp.RunResult.records` gives them (``value="fct_us"`` for
    fabric transfers). Writes ``out`` and returns
    per group its transfers, mean, median, 99th percentile and maximum.
    """
    import numpy as np
    import pandas as pd

    ok = transfers[transfers["status"] == "success"]
    if ok.empty:
        raise ValueError("no successful transfers to plot")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    rows = []
    for label, group in _groups(ok, list(by)):
        sample = np.sort(group[value].to_numpy())
        ax.step(sample, np.arange(1, len(sample) + 1) / len(sample), where="post", label=label or None)
        rows.append(
            {
                "series": label,
                "n": len(sample),
                "mean": sample.mean(),
                "median": float(np.percentile(sample, 50)),
                "p99": float(np.percentile(sample, 99)),
                "max": sample[-1],
            }
        )
    _finish(plt, fig, ax, out, axis_label(value), "share of transfers at or below",
            title or f"CDF of the {axis_label(value)}", logx, by)
    return pd.DataFrame(rows)
