"""Congestion control against its published analysis: ``drp-figures cc-validation``.

Each target runs a handful of deterministic fabric runs (:func:`drp.run_fabric`,
no results store) and sets them beside what the scheme's papers predict:

* ``dcqcn-fluid``: 2 and 10 DCQCN flows into one 40 Gb/s port with the
  DCQCN paper's parameters (Kmin 5 KB, Kmax 200 KB, Pmax 1 %, g 1/256,
  T 55 us, B 10 MB, R_AI 40 Mb/s), each flow's sending rate
  (``flow_rate_interval``) and the port's queue beside DCQCN's fluid model
  (:mod:`drp.dcqcn_model`) solved for the same parameters. The agreement is
  stated per flow count over the settled part (from 5 ms): each flow's
  mean rate against the model's, the queue's mean, 10th and 90th
  percentiles against the model's, and Jain's index of the flows' mean
  rates.

Outputs per target, in the output folder: ``<name>.csv`` and ``<name>.md``
(the table), and ``<name>.png`` and ``<name>.pdf`` (the figure).
"""

from __future__ import annotations

import pathlib
from typing import Any

import numpy as np
import pandas as pd

from drp.congestion_figures import jain, port_samples, run_all, write_table
from drp.dcqcn_model import drp_parameters
from drp.plots import save_png_and_pdf

#: Target names and what each shows.
CC_VALIDATION_FIGURES = {
    "dcqcn-fluid": "2 and 10 DCQCN flows on one 40 Gb/s port beside DCQCN's fluid model",
}

#: The flow counts of ``dcqcn-fluid`` (the DCQCN paper's section 5 shows 2 and 10).
FLUID_FLOWS = (2, 10)

#: How long ``dcqcn-fluid`` looks (the flows last longer), and where "settled" starts.
FLUID_SPAN = 0.02
FLUID_SETTLED = 0.005

#: The model's feedback delay tau*: the star's round trip at 40 Gb/s (four
#: serializations of a data frame and its acknowledgement, the RNICs' PCIe
#: reads; the cables are 0 m), rounded up. The DCQCN timers (50 and 55 us)
#: are far longer, so the model barely depends on it (see doc/congestion.rst).
FLUID_FEEDBACK_DELAY = 4e-6

#: The line rate of ``dcqcn-fluid``, bit/s: the DCQCN paper's.
FLUID_LINE_RATE = 40e9

#: N senders into one receiver on a 40 Gb/s star, the DCQCN paper's parameters
#: (the attributes' defaults at ReferenceRate 40 Gb/s are the paper's), every
#: transfer large enough to outlast the span, a window that does not bound
#: the rate (DCQCN alone does), a queue that never overflows, and the
#: traditional method with registration taking no time, so that every flow
#: starts at once at the line rate, as the model's flows do.
FLUID_RUN: dict[str, Any] = {
    "host_rate": int(FLUID_LINE_RATE),
    "ecn": True,
    "ecn_min": "5KB",
    "ecn_max": "200KB",
    "ecn_pmax": 0.01,
    "cc": "dcqcn",
    "window": 1024,
    "queue": "8MB",
    "timeout_mode": "adaptive",
    "method": "traditional",
    "flow_rate_interval": "100us",
    "queue_interval": "10us",
    "defaults": {
        "ns3::RdmaHostApplication::RegistrationFixedLatency": "0s",
        "ns3::RdmaHostApplication::RegistrationLatencyPerPage": "0s",
    },
}


def fluid_params(flows: int) -> dict[str, Any]:
    """Return the run of ``dcqcn-fluid`` with ``flows`` senders."""
    share = FLUID_LINE_RATE / 8 * FLUID_SPAN / flows
    return {**FLUID_RUN, "hosts": flows + 1, "degree": flows, "bytes": int(share * 1.5)}


def fluid_row(result, model: pd.DataFrame, flows: int) -> dict[str, Any]:
    """Return one row of the agreement of a ``dcqcn-fluid`` run with its model."""
    table = result.flow_rate_table()
    sim = table[(table.index >= FLUID_SETTLED) & (table.index < FLUID_SPAN)].mean()
    settled = model[(model["time_s"] >= FLUID_SETTLED) & (model["time_s"] < FLUID_SPAN)]
    predicted = np.array([settled[f"rate_bps_{i}"].mean() for i in range(flows)])
    errors = np.abs(sim.to_numpy() - predicted) / predicted
    q = port_samples(result, 0, 0)
    q = q[(q["time_s"] >= FLUID_SETTLED) & (q["time_s"] < FLUID_SPAN)]["bytes"]
    mq = settled["queue_bytes"]
    return {
        "flows": flows,
        "sim_rate_gbps_min": sim.min() / 1e9,
        "sim_rate_gbps_max": sim.max() / 1e9,
        "model_rate_gbps": predicted.mean() / 1e9,
        "rate_error_max": errors.max(),
        "rate_error_mean": errors.mean(),
        "sim_jain": jain(sim.to_numpy()),
        "sim_utilization": sim.sum() / FLUID_LINE_RATE,
        "model_utilization": predicted.sum() / FLUID_LINE_RATE,
        "sim_queue_kb_mean": q.mean() / 1e3,
        "model_queue_kb_mean": mq.mean() / 1e3,
        "sim_queue_kb_p10": q.quantile(0.1) / 1e3,
        "model_queue_kb_p10": mq.quantile(0.1) / 1e3,
        "sim_queue_kb_p90": q.quantile(0.9) / 1e3,
        "model_queue_kb_p90": mq.quantile(0.9) / 1e3,
        "drops": int(result.counters["drops"]),
        "cnps": int(result.counters["cnps"]),
    }


def plot_fluid(results, models, out: pathlib.Path, name: str) -> None:
    """Plot each run's flow rates and queue beside its model's into out/<name>.png, .pdf."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, len(results), figsize=(5.5 * len(results), 6), squeeze=False)
    for col, (result, model, flows) in enumerate(zip(results, models, FLUID_FLOWS)):
        table = result.flow_rate_table()
        table = table[table.index < FLUID_SPAN]
        top, bottom = axes[0][col], axes[1][col]
        for i, transfer in enumerate(table.columns):
            top.plot(table.index * 1e3, table[transfer] / 1e9, lw=0.8, alpha=0.7,
                     label="drp, each flow" if i == 0 else None)
        top.plot(model["time_s"] * 1e3, model["rate_bps_0"] / 1e9, "k--", lw=1.5,
                 label="fluid model")
        top.set_title(f"{flows} DCQCN flows, {FLUID_LINE_RATE / 1e9:g} Gb/s")
        top.set_ylabel("sending rate (Gb/s, 100 us bins)")
        top.set_ylim(0, FLUID_LINE_RATE / 1e9 * 1.05)
        top.legend(loc="upper right", fontsize=8)
        q = port_samples(result, 0, 0)
        q = q[q["time_s"] < FLUID_SPAN]
        bottom.plot(q["time_s"] * 1e3, q["bytes"] / 1e3, lw=0.7, label="drp")
        bottom.plot(model["time_s"] * 1e3, model["queue_bytes"] / 1e3, "k--", lw=1.2,
                    label="fluid model")
        for level, text in ((5, "Kmin"), (200, "Kmax")):
            bottom.axhline(level, color="grey", lw=0.6, ls=":")
            bottom.text(FLUID_SPAN * 1e3, level, text, fontsize=7, va="bottom", ha="right")
        bottom.set_xlabel("time (ms)")
        bottom.set_ylabel("queue at the receiver's port (KB)")
        bottom.set_ylim(0, 400)
        bottom.legend(loc="upper right", fontsize=8)
    save_png_and_pdf(fig, out, name)


def make_cc_validation_figure(name: str, out: pathlib.Path, workers=None) -> pd.DataFrame:
    """Run validation target ``name``, write its table and figure to ``out``; return the table."""
    out.mkdir(parents=True, exist_ok=True)
    if name == "dcqcn-fluid":
        results = run_all([fluid_params(n) for n in FLUID_FLOWS], workers)
        models = [
            drp_parameters(r.params, feedback_delay=FLUID_FEEDBACK_DELAY).solve(
                n, FLUID_SPAN, record_every=10e-6
            )
            for r, n in zip(results, FLUID_FLOWS)
        ]
        table = pd.DataFrame([fluid_row(r, m, n) for r, m, n in zip(results, models, FLUID_FLOWS)])
        plot_fluid(results, models, out, name)
        note = (
            "A star at 40 Gb/s, N senders into one receiver, all starting at once at the line "
            "rate; the DCQCN paper's parameters. Over 5 to 20 ms: each flow's mean sending rate "
            "(wire bytes per 100 us) against the model's (rate_error: |drp - model| / model), "
            "the receiver port's queue sampled every 10 us against the model's."
        )
    else:
        valid = ", ".join(CC_VALIDATION_FIGURES)
        raise ValueError(f"figure = {name!r} is not a cc-validation figure; valid: {valid}")
    write_table(out, name, CC_VALIDATION_FIGURES[name], table, table, note)
    return table
