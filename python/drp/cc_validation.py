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

* ``timely-fixed-points``: 2 TIMELY flows into one 10 Gb/s port with the
  TIMELY paper's parameters; the second joins 0 to 5 ms after the first.
  Each run's split of the line over 100 to 190 ms, beside TIMELY's fluid model
  (:mod:`drp.timely_model`) solved for the same joins and for flows that
  start at unequal rates: in both, the split the flows settle at depends on
  their history (TIMELY has no unique fixed point, "ECN or Delay",
  CoNEXT 2016, section 4).

* ``hpcc-queues``: HPCC beside DCQCN on a 100 Gb/s star, the HPCC paper's
  line rate: a second flow joining a running one 1 ms later, and eight
  flows starting together into one receiver. Each run's queue at the
  receiver's port (mean, 99th percentile, peak), utilisation while flows
  are backlogged, the flows' mean rates and Jain's index over the settled
  part, and the joiner's time to its fair share.

* ``hpcc-web-search``: HPCC beside DCQCN in the HPCC paper's FCT experiment,
  scaled down: web-search flows on a lossless leaf-spine of 100 Gb/s hosts
  and 400 Gb/s switch links at 30 and 50 % load, a few runs pooled; the
  FCT slowdown's median, 95th and 99th percentile per flow-size bucket
  (equal counts, as HPCC's fct_analysis.py cuts them) and of all flows.

* ``dcqcn-arrivals``: four DCQCN flows into one port at 10 and 100 Gb/s
  with the paper's parameters, arriving 10 ms apart and leaving as they
  finish (equal sizes: in arrival order). After each arrival and departure:
  each flow's share against the fair share 5 ms later, Jain's index per
  1 ms, the utilisation and where the queue sits; and, at 10 Gb/s, the same
  run with the joiners shifted by 17 and 33 us (when their first CNPs fall).

* ``dcqcn-tuned``: the same arrivals and departures with 4 and 8 flows at
  10, 25 and 100 Gb/s and every shift, with a parameter set tuned to the
  aims (``tuned_set``): HPCC's simulator's thresholds per Gb/s, Pmax falling
  with the rate, a 15 us rate-increase timer.

* ``dctcp-k``: DCTCP (window paced at 1.2 W / srtt, step marking at K = 65
  frames, the DCTCP paper's K at 10 Gb/s) with 2, 4 and 8 flows into one 10 Gb/s port, and 2
  flows without congestion control: the queue against K, the utilisation
  and Jain's index of the flows' rates over 10 to 40 ms.

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
from drp.fabric import nearest_rank, slowdown_by_size
from drp.timely_model import drp_parameters as timely_parameters
from drp.plots import save_png_and_pdf

#: Target names and what each shows.
CC_VALIDATION_FIGURES = {
    "dcqcn-fluid": "2 and 10 DCQCN flows on one 40 Gb/s port beside DCQCN's fluid model",
    "dcqcn-arrivals": "4 DCQCN flows arriving and leaving at 10 and 100 Gb/s: shares 5 ms "
    "after each change, Jain per 1 ms, utilisation, queue",
    "dcqcn-tuned": "4 and 8 DCQCN flows arriving and leaving at 10, 25 and 100 Gb/s with "
    "parameters tuned to the aims (shorter timer, thresholds by rate)",
    "dctcp-k": "DCTCP with 2, 4 and 8 flows on one 10 Gb/s port, step marking at K: queue, "
    "utilisation, Jain",
    "timely-fixed-points": "2 TIMELY flows on one 10 Gb/s port: the split depends on the "
    "start, in drp and in TIMELY's fluid model",
    "hpcc-queues": "HPCC beside DCQCN at 100 Gb/s: a joining flow and an 8:1 incast, queues, "
    "utilisation and shares",
    "hpcc-web-search": "HPCC beside DCQCN on a 100/400 Gb/s lossless leaf-spine: web-search "
    "FCT slowdown by flow size at 30 and 50 % load",
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


#: The line rate of ``timely-fixed-points``, bit/s: the TIMELY paper's NICs.
TIMELY_LINE_RATE = 10e9

#: How long ``timely-fixed-points`` runs, and the settled part it compares.
TIMELY_SPAN = 0.2
TIMELY_SETTLED = (0.1, 0.19)

#: When the second flow starts, seconds after the first.
TIMELY_JOINS = (0.0, 0.5e-3, 1e-3, 2e-3, 5e-3)

#: Unequal starting rates of the model's two flows, bit/s (both start at 0).
TIMELY_INITIAL_RATES = ((5e9, 5e9), (7e9, 3e9), (8e9, 2e9))

#: The model's round trip with an empty queue: the star's at 10 Gb/s (two
#: serializations of a data frame, its acknowledgement's, the RNICs' PCIe
#: reads), rounded up; T_low (50 us) is ten times longer.
TIMELY_BASE_RTT = 5e-6

#: Two TIMELY senders into one receiver on a 10 Gb/s star, the TIMELY
#: paper's parameters (DrpTimely's defaults), no ECN (TIMELY reacts to the
#: RTT alone), a window that does not bound the rate, a queue that never
#: overflows, and registration that takes no time, so that the first flow
#: starts at once at the line rate.
TIMELY_RUN: dict[str, Any] = {
    "host_rate": int(TIMELY_LINE_RATE),
    "hosts": 3,
    "degree": 2,
    "bytes": int(TIMELY_LINE_RATE / 8 * TIMELY_SPAN),
    "cc": "timely",
    "window": 1024,
    "queue": "8MB",
    "timeout_mode": "adaptive",
    "method": "traditional",
    "flow_rate_interval": "1ms",
    "queue_interval": "10us",
    "defaults": FLUID_RUN["defaults"],
}


def timely_row(kind: str, start: str, rates: np.ndarray, queue: pd.Series) -> dict[str, Any]:
    """Return one row of ``timely-fixed-points``: the two flows' mean rates (bit/s) and the queue."""
    return {
        "kind": kind,
        "start": start,
        "rate_gbps_0": rates[0] / 1e9,
        "rate_gbps_1": rates[1] / 1e9,
        "share_0": rates[0] / rates.sum(),
        "jain": jain(rates),
        "utilization": rates.sum() / TIMELY_LINE_RATE,
        "queue_kb_mean": queue.mean() / 1e3,
        "queue_kb_p90": queue.quantile(0.9) / 1e3,
    }


def timely_sim_row(result, join: float) -> dict[str, Any]:
    """Return the row of a drp run of ``timely-fixed-points``."""
    low, high = TIMELY_SETTLED
    table = result.flow_rate_table()
    rates = table[(table.index >= low) & (table.index < high)].mean().to_numpy()
    q = port_samples(result, 0, 0)
    q = q[(q["time_s"] >= low) & (q["time_s"] < high)]["bytes"]
    return {**timely_row("drp", f"joins at {join * 1e3:g} ms", rates, q),
            "drops": int(result.counters["drops"])}


def timely_model_row(model: pd.DataFrame, start: str) -> dict[str, Any]:
    """Return the row of a model solution of ``timely-fixed-points``."""
    low, high = TIMELY_SETTLED
    settled = model[(model["time_s"] >= low) & (model["time_s"] < high)]
    rates = np.array([settled["rate_bps_0"].mean(), settled["rate_bps_1"].mean()])
    return {**timely_row("model", start, rates, settled["queue_bytes"]), "drops": 0}


def plot_timely(results, joins_models, initial_models, table: pd.DataFrame,
                out: pathlib.Path, name: str) -> None:
    """Plot ``timely-fixed-points`` into out/<name>.png and .pdf."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    left, middle, right = axes
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (result, join) in enumerate(zip(results, TIMELY_JOINS)):
        if join not in (0.0, 2e-3):
            continue
        table_k = result.flow_rate_table()
        for i, style in enumerate(("-", "--")):
            left.plot(table_k.index * 1e3, table_k.iloc[:, i] / 1e9, style, color=colours[k],
                      lw=1, label=f"joins at {join * 1e3:g} ms, flow {i}")
    left.set_title("drp: 2 TIMELY flows, 10 Gb/s")
    middle.set_title("fluid model: flows starting at unequal rates")
    for k, (model, rates) in enumerate(zip(initial_models, TIMELY_INITIAL_RATES)):
        for i, style in enumerate(("-", "--")):
            middle.plot(model["time_s"] * 1e3, model[f"rate_bps_{i}"] / 1e9, style,
                        color=colours[k], lw=1,
                        label=f"{rates[0] / 1e9:g}/{rates[1] / 1e9:g} Gb/s, flow {i}")
    for ax in (left, middle):
        ax.set_xlim(0, TIMELY_SPAN * 1e3)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("sending rate (Gb/s)")
        ax.set_ylim(0, TIMELY_LINE_RATE / 1e9 * 1.05)
        ax.legend(loc="upper right", fontsize=7)
    for kind, marker in (("drp", "o"), ("model", "s")):
        rows = table[table["kind"] == kind]
        right.plot(range(len(rows)), rows["share_0"], marker, label=kind)
        for x, (label, share) in enumerate(zip(rows["start"], rows["share_0"])):
            right.annotate(label, (x, share), fontsize=6, rotation=30, ha="left")
    right.axhline(0.5, color="grey", lw=0.6, ls=":")
    right.set_ylim(0, 1)
    right.set_xticks([])
    right.set_ylabel(f"flow 0's share, {TIMELY_SETTLED[0] * 1e3:g} to "
                     f"{TIMELY_SETTLED[1] * 1e3:g} ms")
    right.set_title("where the flows settle depends on their start")
    right.legend(loc="lower right", fontsize=8)
    save_png_and_pdf(fig, out, name)


def make_timely_fixed_points(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``timely-fixed-points``; return its table and note."""
    results = run_all([{**TIMELY_RUN, "stagger": join} for join in TIMELY_JOINS], workers)
    model = timely_parameters(results[0].params, base_rtt=TIMELY_BASE_RTT)
    joins_models = [
        model.solve(2, TIMELY_SPAN, step=1e-6, starts=[0.0, join], record_every=1e-4)
        for join in TIMELY_JOINS
    ]
    initial_models = [
        model.solve(2, TIMELY_SPAN, step=1e-6, initial_rates=list(rates), record_every=1e-4)
        for rates in TIMELY_INITIAL_RATES
    ]
    rows = [timely_sim_row(r, join) for r, join in zip(results, TIMELY_JOINS)]
    rows += [timely_model_row(m, f"joins at {join * 1e3:g} ms")
             for m, join in zip(joins_models, TIMELY_JOINS)]
    rows += [timely_model_row(m, f"starts at {a / 1e9:g} and {b / 1e9:g} Gb/s")
             for m, (a, b) in zip(initial_models, TIMELY_INITIAL_RATES)]
    table = pd.DataFrame(rows)
    plot_timely(results, joins_models, initial_models, table, out, "timely-fixed-points")
    note = (
        "A star at 10 Gb/s, two senders into one receiver, TIMELY with the paper's parameters "
        "and no ECN; the first flow starts at 0 at the line rate, the second joins later "
        "(drp and the model) or both start at unequal rates (the model). Means over 100 to "
        "190 ms: each flow's sending rate (wire bytes per 1 ms), flow 0's share, Jain's index, "
        "the utilisation and the receiver port's queue (drp: sampled every 10 us)."
    )
    return table, note


#: The line rate of ``hpcc-queues``, bit/s: the HPCC paper's NICs.
HPCC_LINE_RATE = 100e9

#: How long ``hpcc-queues`` looks, when its joiner joins, and the settled part.
HPCC_SPAN = 0.01
HPCC_JOIN = 1e-3
HPCC_SETTLED = (3e-3, 9e-3)

#: The runs of ``hpcc-queues``: name -> (flows, stagger).
HPCC_CASES = {"join": (2, HPCC_JOIN), "incast 8:1": (8, 0.0)}

#: The schemes of ``hpcc-queues``: HPCC (no ECN), and DCQCN with the ECN
#: thresholds of HPCC's simulator at 100 Gb/s (Kmin 400 KB, Kmax 1600 KB,
#: Pmax 0.2, its mix/config.txt).
HPCC_SCHEMES: dict[str, dict[str, Any]] = {
    "hpcc": {"cc": "hpcc"},
    "dcqcn": {"cc": "dcqcn", "ecn": True, "ecn_min": "400KB", "ecn_max": "1600KB",
              "ecn_pmax": 0.2},
}

#: Every run of ``hpcc-queues``: a star at 100 Gb/s, flows that outlast the
#: span, a window that does not bound the rate, an 8 MB queue, instant
#: registration.
HPCC_RUN: dict[str, Any] = {
    "host_rate": int(HPCC_LINE_RATE),
    "window": 1024,
    "queue": "8MB",
    "timeout_mode": "adaptive",
    "method": "traditional",
    "flow_rate_interval": "100us",
    "queue_interval": "1us",
    "defaults": FLUID_RUN["defaults"],
}


def hpcc_params(scheme: str, case: str) -> dict[str, Any]:
    """Return the run of ``hpcc-queues`` for a scheme and a case."""
    flows, stagger = HPCC_CASES[case]
    share = HPCC_LINE_RATE / 8 * HPCC_SPAN / flows
    return {**HPCC_RUN, **HPCC_SCHEMES[scheme], "hosts": flows + 1, "degree": flows,
            "bytes": int(share * 2), "stagger": stagger}


def hpcc_row(result, scheme: str, case: str) -> dict[str, Any]:
    """Return one row of ``hpcc-queues``."""
    low, high = HPCC_SETTLED
    table = result.flow_rate_table()
    rates = table[(table.index >= low) & (table.index < high)].mean().to_numpy()
    q = port_samples(result, 0, 0)
    busy = q[(q["time_s"] >= 0) & (q["time_s"] < HPCC_SPAN)]["bytes"]
    settled = q[(q["time_s"] >= low) & (q["time_s"] < high)]["bytes"]
    flows = HPCC_CASES[case][0]
    joined = ""
    if case == "join":
        # The joiner's rate over the last 1 ms (ten 100 us bins: one bin
        # swings with DCQCN's rate steps), from its first full millisecond.
        joiner = table.iloc[:, 1].rolling(10).mean()
        joiner = joiner[(joiner.index >= HPCC_JOIN + 0.9e-3) & (joiner.index < HPCC_SPAN - 1e-9)]
        fair = HPCC_LINE_RATE / flows
        # The first 1 ms mean from which every one up to the span's end is within 10 %.
        outside = np.flatnonzero(((joiner - fair).abs() > 0.1 * fair).to_numpy())
        first = 0 if len(outside) == 0 else outside[-1] + 1
        joined = f"{(joiner.index[first] - HPCC_JOIN) * 1e3:.1f}" if first < len(joiner) else "never"
    return {
        "scheme": scheme,
        "case": case,
        "queue_kb_mean": settled.mean() / 1e3,
        "queue_kb_p99": settled.quantile(0.99) / 1e3,
        "queue_kb_peak": busy.max() / 1e3,
        "utilization": rates.sum() / HPCC_LINE_RATE,
        "rate_gbps_min": rates.min() / 1e9,
        "rate_gbps_max": rates.max() / 1e9,
        "jain": jain(rates),
        "joiner_within_10pct_ms": joined,
        "drops": int(result.counters["drops"]),
    }


def plot_hpcc(results, keys, out: pathlib.Path, name: str) -> None:
    """Plot ``hpcc-queues`` (rates and queue of each run) into out/<name>.png and .pdf."""
    import matplotlib.pyplot as plt

    cases = list(HPCC_CASES)
    fig, axes = plt.subplots(2, len(cases) * len(HPCC_SCHEMES), figsize=(18, 6), squeeze=False)
    for col, ((scheme, case), result) in enumerate(zip(keys, results)):
        table = result.flow_rate_table()
        top, bottom = axes[0][col], axes[1][col]
        for transfer in table.columns:
            top.plot(table.index * 1e3, table[transfer] / 1e9, lw=0.8)
        top.set_title(f"{scheme}, {case}")
        top.set_xlim(0, HPCC_SPAN * 1e3)
        top.set_ylim(0, HPCC_LINE_RATE / 1e9 * 1.05)
        top.set_ylabel("sending rate (Gb/s, 100 us bins)")
        q = port_samples(result, 0, 0)
        q = q[q["time_s"] < HPCC_SPAN]
        bottom.plot(q["time_s"] * 1e3, q["bytes"] / 1e3, lw=0.6)
        bottom.set_yscale("symlog", linthresh=10)
        bottom.set_xlabel("time (ms)")
        bottom.set_ylabel("queue at the receiver's port (KB)")
    save_png_and_pdf(fig, out, name)


def make_hpcc_queues(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``hpcc-queues``; return its table and note."""
    keys = [(scheme, case) for case in HPCC_CASES for scheme in HPCC_SCHEMES]
    results = run_all([hpcc_params(s, c) for s, c in keys], workers)
    table = pd.DataFrame([hpcc_row(r, s, c) for r, (s, c) in zip(results, keys)])
    plot_hpcc(results, keys, out, "hpcc-queues")
    note = (
        "A star at 100 Gb/s: a flow joining another 1 ms later, and eight flows starting "
        "together, into one receiver; HPCC (eta 0.95, MaxStage 5, R_AI 40 Mb/s at 100 Gb/s, "
        "T learned) and DCQCN (HPCC's simulator's ECN thresholds at 100 Gb/s). Queue at the "
        "receiver's port sampled every 1 us (mean and 99th percentile over 3 to 9 ms, peak "
        "over 0 to 10 ms); each flow's rate per 100 us, means over 3 to 9 ms; when the "
        "joiner's rate over the last 1 ms comes within 10 % of the fair share and stays "
        "there to 10 ms (its end: the last of those 1 ms)."
    )
    return table, note


#: ``dcqcn-arrivals``: line rates, flows, the time between arrivals, the
#: joiners' shifts (10 Gb/s only) and how long after a change the shares count.
ARRIVAL_RATES = (10e9, 100e9)
ARRIVAL_FLOWS = 4
ARRIVAL_GAP = 0.01
ARRIVAL_SHIFTS = (0.0, 17e-6, 33e-6)
ARRIVAL_SETTLE = 0.005


def arrival_params(rate: float, shift: float) -> dict[str, Any]:
    """Return a run of ``dcqcn-arrivals``: FLUID_RUN's setup at ``rate``, four flows of
    25 ms at the line rate each, the k-th starting k x (10 ms + shift) after the first."""
    return {**FLUID_RUN, "host_rate": int(rate), "hosts": ARRIVAL_FLOWS + 1,
            "degree": ARRIVAL_FLOWS, "bytes": int(rate / 8 * 0.025),
            "stagger": ARRIVAL_GAP + shift, "flow_rate_interval": "1ms",
            "queue_interval": "10us"}


def arrival_phases(result) -> list[tuple[float, float, list[int]]]:
    """Return the phases of a ``dcqcn-arrivals`` run: (start, end, the flows active),
    one per interval between two changes (an arrival or a departure)."""
    t = result.transfers
    starts = (t["start_us"] / 1e6).tolist()
    ends = ((t["start_us"] + t["fct_us"]) / 1e6).tolist()
    changes = sorted(set(starts + ends))
    phases = []
    for a, b in zip(changes, changes[1:]):
        active = [i for i in range(len(t)) if starts[i] <= a and ends[i] >= b]
        if active:
            phases.append((a, b, active))
    return phases


def arrival_rows(result, rate: float, shift: float, kmin: float = 5e3,
                 kmax: float = 200e3) -> list[dict[str, Any]]:
    """Return one row per phase of a ``dcqcn-arrivals`` run (the queue counted
    against ``kmin`` and ``kmax``, bytes)."""
    table = result.flow_rate_table()
    q = port_samples(result, 0, 0)
    rows = []
    for a, b, active in arrival_phases(result):
        settled = table[(table.index >= a + ARRIVAL_SETTLE) & (table.index + 1e-3 <= b)]
        if len(settled) == 0:
            continue
        rates = settled.iloc[:, active]
        fair = rate / len(active)
        bins = [jain(row) for row in rates.to_numpy()] if len(active) > 1 else [1.0]
        window = q[(q["time_s"] >= a + ARRIVAL_SETTLE) & (q["time_s"] < b)]
        queue = window["bytes"]
        rows.append({
            "rate_gbps": rate / 1e9,
            "shift_us": shift * 1e6,
            "from_ms": a * 1e3,
            "to_ms": b * 1e3,
            "flows": len(active),
            "share_error_max": float((rates.mean() - fair).abs().max() / fair),
            "jain_mean": float(np.mean(bins)),
            "jain_min": float(np.min(bins)),
            "utilization": float(window["busy"].mean()),
            "queue_kb_mean": queue.mean() / 1e3,
            "queue_empty": float((queue <= 0).mean()),
            "queue_in_kmin_kmax": float(((queue > kmin) & (queue <= kmax)).mean()),
            "drops": int(result.counters["drops"]),
        })
    return rows


def plot_arrivals(results, keys, out: pathlib.Path, name: str) -> None:
    """Plot each ``dcqcn-arrivals`` run's rates and queue into out/<name>.png and .pdf."""
    import matplotlib.pyplot as plt

    shown = [(r, k) for r, k in zip(results, keys) if k[1] == 0.0]
    fig, axes = plt.subplots(2, len(shown), figsize=(7 * len(shown), 6), squeeze=False)
    for col, (result, (rate, _)) in enumerate(shown):
        table = result.flow_rate_table()
        top, bottom = axes[0][col], axes[1][col]
        for transfer in table.columns:
            top.plot(table.index * 1e3, table[transfer] / 1e9, lw=0.9)
        top.set_title(f"4 DCQCN flows arriving and leaving, {rate / 1e9:g} Gb/s")
        top.set_ylabel("sending rate (Gb/s, 1 ms bins)")
        top.set_ylim(0, rate / 1e9 * 1.05)
        q = port_samples(result, 0, 0)
        bottom.plot(q["time_s"] * 1e3, q["bytes"] / 1e3, lw=0.5)
        for level, text in ((5, "Kmin"), (200, "Kmax")):
            bottom.axhline(level, color="grey", lw=0.6, ls=":")
            bottom.text(0, level, text, fontsize=7, va="bottom")
        bottom.set_xlabel("time (ms)")
        bottom.set_ylabel("queue at the receiver's port (KB)")
    save_png_and_pdf(fig, out, name)


def make_dcqcn_arrivals(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``dcqcn-arrivals``; return its table and note."""
    keys = [(rate, 0.0) for rate in ARRIVAL_RATES]
    keys += [(ARRIVAL_RATES[0], shift) for shift in ARRIVAL_SHIFTS if shift > 0]
    results = run_all([arrival_params(rate, shift) for rate, shift in keys], workers)
    rows = []
    for result, (rate, shift) in zip(results, keys):
        rows += arrival_rows(result, rate, shift)
    table = pd.DataFrame(rows)
    plot_arrivals(results, keys, out, "dcqcn-arrivals")
    note = (
        "A star, four DCQCN senders into one receiver with the DCQCN paper's parameters "
        "(Kmin 5 KB, Kmax 200 KB, Pmax 1 %; steps and byte counter scaled from 40 Gb/s), "
        "each sending 25 ms worth of the line, the k-th starting k x 10 ms after the first "
        "(plus the shift); they leave as they finish. One row per phase between two changes: "
        "from 5 ms after the change to its end, the largest |mean rate - fair share| / fair "
        "share of the flows, Jain's index of each 1 ms bin (mean, least), the utilisation, "
        "and the receiver port's queue (mean, the fraction of 10 us samples empty and "
        "between Kmin and Kmax)."
    )
    return table, note


#: ``dcqcn-tuned``: line rates and flow counts, and each flow's bytes (in
#: time at the line rate: 25 ms for 4 flows, 30 ms for 8, so that all eight
#: overlap before the first leaves).
TUNED_RATES = (10e9, 25e9, 100e9)
TUNED_FLOWS = {4: 0.025, 8: 0.030}


def tuned_set(rate: float) -> tuple[dict[str, Any], float, float]:
    """Return the ``dcqcn-tuned`` parameters at ``rate`` (run_fabric's
    overrides), and their Kmin and Kmax in bytes.

    Kmin and Kmax per Gb/s of the line are HPCC's simulator's (run.py, --cc
    dcqcn: 100 and 400 KB at 25 Gb/s); Pmax = min(1, 20 Gb/s / rate); the
    rate-increase timer T 15 us instead of 55 (R_AI 50 Mb/s at 25 Gb/s, one
    fast-recovery step, no byte counter), alpha's gain 1/32, its timer and the
    CNP interval the paper's 50 us; the minimum rate HPCC's 1 Gb/s."""
    gbps = rate / 1e9
    kmin, kmax = 4e3 * gbps, 16e3 * gbps
    defaults = {
        **FLUID_RUN["defaults"],
        "ns3::DrpDcqcn::G": "0.03125",
        "ns3::DrpDcqcn::AlphaInterval": "50us",
        "ns3::DrpDcqcn::IncreaseInterval": "15us",
        "ns3::DrpDcqcn::FastRecoverySteps": "1",
        "ns3::DrpDcqcn::ByteCounter": "0",
        "ns3::DrpDcqcn::ReferenceRate": "25Gbps",
        "ns3::DrpDcqcn::RateAi": "50Mbps",
        "ns3::DrpDcqcn::RateHai": "50Mbps",
        "ns3::DrpDcqcn::MinRate": f"{1000 * 25 / gbps:g}Mbps",
        "ns3::DrpTransport::CnpInterval": "50us",
    }
    overrides = {"ecn_min": f"{kmin / 1e3:g}KB", "ecn_max": f"{kmax / 1e3:g}KB",
                 "ecn_pmax": min(1.0, 20e9 / rate), "defaults": defaults}
    return overrides, kmin, kmax


def tuned_params(rate: float, flows: int, shift: float) -> dict[str, Any]:
    """Return a run of ``dcqcn-tuned``: ``dcqcn-arrivals``'s with ``flows``
    senders and the tuned parameters."""
    overrides, _, _ = tuned_set(rate)
    return {**arrival_params(rate, shift), "hosts": flows + 1, "degree": flows,
            "bytes": int(rate / 8 * TUNED_FLOWS[flows]), **overrides}


def make_dcqcn_tuned(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``dcqcn-tuned``; return its table and note."""
    import matplotlib.pyplot as plt

    keys = [(rate, flows, shift) for flows in TUNED_FLOWS for rate in TUNED_RATES
            for shift in ARRIVAL_SHIFTS]
    results = run_all([tuned_params(*key) for key in keys], workers)
    rows = []
    for result, (rate, flows, shift) in zip(results, keys):
        _, kmin, kmax = tuned_set(rate)
        rows += [{"senders": flows, **row}
                 for row in arrival_rows(result, rate, shift, kmin, kmax)]
    table = pd.DataFrame(rows)
    shown = [(r, k) for r, k in zip(results, keys) if k[2] == 0.0]
    fig, axes = plt.subplots(len(TUNED_FLOWS), len(TUNED_RATES),
                             figsize=(6 * len(TUNED_RATES), 3.2 * len(TUNED_FLOWS)),
                             squeeze=False)
    for i, (result, (rate, flows, _)) in enumerate(shown):
        ax = axes[i // len(TUNED_RATES)][i % len(TUNED_RATES)]
        rates = result.flow_rate_table()
        for transfer in rates.columns:
            ax.plot(rates.index * 1e3, rates[transfer] / 1e9, lw=0.9)
        ax.set_title(f"{flows} tuned DCQCN flows, {rate / 1e9:g} Gb/s")
        ax.set_ylim(0, rate / 1e9 * 1.05)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("rate (Gb/s, 1 ms bins)")
    save_png_and_pdf(fig, out, "dcqcn-tuned")
    note = (
        "dcqcn-arrivals' star and schedule (the k-th sender starting k x (10 ms + shift) "
        "after the first, shifts 0, 17 and 33 us) with 4 senders of 25 ms and 8 of 30 ms "
        "worth of the line, at 10, 25 and 100 Gb/s, with a DCQCN parameter set tuned to the "
        "aims (cc_validation.tuned_set: Kmin/Kmax 4/16 KB per Gb/s, Pmax min(1, 20 Gb/s / "
        "rate), T 15 us, R_AI 50 Mb/s at 25 Gb/s, g 1/32, one fast-recovery step, no byte "
        "counter). Columns as dcqcn-arrivals', the queue against this set's Kmin and Kmax."
    )
    return table, note


#: ``dctcp-k``: the line rate, K (frames; the DCTCP paper's 65 at 10 Gb/s), the
#: flow counts, and the part of the run compared.
DCTCP_LINE_RATE = 10e9
DCTCP_K = 65
DCTCP_FLOWS = (2, 4, 8)
DCTCP_SETTLED = (0.01, 0.04)


def dctcp_params(flows: int, cc: str) -> dict[str, Any]:
    """Return a run of ``dctcp-k``: N flows starting together, 60 ms of the line in all."""
    marking = {"ecn": True, "ecn_marking": "step", "ecn_min": f"{DCTCP_K}p"} if cc != "none" else {}
    return {**FLUID_RUN, "cc": cc, "ecn": False, "host_rate": int(DCTCP_LINE_RATE),
            "hosts": flows + 1, "degree": flows, "bytes": int(DCTCP_LINE_RATE / 8 * 0.06 / flows),
            "queue": "4MB", "flow_rate_interval": "1ms", "queue_interval": "10us",
            "ecn_min": "4KB", "ecn_max": "16KB", "ecn_pmax": 0.2, **marking}


def dctcp_row(result, flows: int, cc: str) -> dict[str, Any]:
    """Return one row of ``dctcp-k``."""
    low, high = DCTCP_SETTLED
    table = result.flow_rate_table()
    rates = table[(table.index >= low) & (table.index < high)].mean().to_numpy()
    q = port_samples(result, 0, 0)
    q = q[(q["time_s"] >= low) & (q["time_s"] < high)]
    frames = q["frames"]
    return {
        "cc": cc,
        "flows": flows,
        "queue_frames_mean": frames.mean(),
        "queue_frames_p10": frames.quantile(0.1),
        "queue_frames_p90": frames.quantile(0.9),
        "k_frames": DCTCP_K if cc != "none" else "",
        "utilization": q["busy"].mean(),
        "rate_gbps_min": rates.min() / 1e9,
        "rate_gbps_max": rates.max() / 1e9,
        "jain": jain(rates),
        "drops": int(result.counters["drops"]),
    }


def plot_dctcp(results, keys, out: pathlib.Path, name: str) -> None:
    """Plot ``dctcp-k``'s queues and rates into out/<name>.png and .pdf."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, len(keys), figsize=(4.5 * len(keys), 6), squeeze=False)
    for col, (result, (flows, cc)) in enumerate(zip(results, keys)):
        table = result.flow_rate_table()
        top, bottom = axes[0][col], axes[1][col]
        for transfer in table.columns:
            top.plot(table.index * 1e3, table[transfer] / 1e9, lw=0.8)
        top.set_title(f"{flows} flows, {cc}")
        top.set_ylim(0, DCTCP_LINE_RATE / 1e9 * 1.05)
        top.set_ylabel("sending rate (Gb/s, 1 ms bins)")
        q = port_samples(result, 0, 0)
        bottom.plot(q["time_s"] * 1e3, q["frames"], lw=0.5)
        if cc != "none":
            bottom.axhline(DCTCP_K, color="grey", lw=0.6, ls=":")
        bottom.set_xlabel("time (ms)")
        bottom.set_ylabel("queue at the receiver's port (frames)")
    save_png_and_pdf(fig, out, name)


def make_dctcp_k(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``dctcp-k``; return its table and note."""
    keys = [(2, "none")] + [(n, "dctcp") for n in DCTCP_FLOWS]
    results = run_all([dctcp_params(n, cc) for n, cc in keys], workers)
    table = pd.DataFrame([dctcp_row(r, n, cc) for r, (n, cc) in zip(results, keys)])
    plot_dctcp(results, keys, out, "dctcp-k")
    note = (
        "A star at 10 Gb/s, N senders starting together into one receiver, a window of 1,024 "
        "frames and a 4 MB queue; DCTCP (frames paced at 1.2 W / srtt) with step marking at "
        "K = 65 frames (every frame that leaves more than K behind is marked), or no "
        "congestion control. Over 10 to 40 ms: "
        "the receiver port's queue in frames (10 us samples), the fraction of samples in which "
        "it was sending, each flow's mean rate and Jain's index of them."
    )
    return table, note


#: ``hpcc-web-search``: HPCC's FCT evaluation in small. The loads and how
#: many runs (RNG run numbers 1, 2, ...) each scheme gets at each.
WEB_LOADS = (0.3, 0.5)
WEB_REPETITIONS = 3

#: Equal-count flow-size buckets of the slowdown table (HPCC's fct_analysis.py
#: cuts the flows sorted by size the same way).
WEB_BUCKETS = 5

#: The fabric of HPCC's evaluation, scaled down to what two cores run in
#: minutes: 100 Gb/s hosts and 400 Gb/s links between switches (the paper's
#: fat-tree's rates, here a non-blocking leaf-spine of 4 leaves of 4 hosts and
#: 2 spines), lossless with a 32 MB buffer per switch (HPCC's simulator's
#: BUFFER_SIZE at 100 Gb/s), 1,000-byte payloads (its PACKET_PAYLOAD_SIZE),
#: web-search flow sizes (its WebSearch_distribution.txt) arriving for 10 ms,
#: a window that does not bound the rate (the schemes do), instant
#: registration (the comparison is of congestion control, not hosts).
WEB_RUN: dict[str, Any] = {
    "topology": "leaf-spine",
    "leaves": 4,
    "spines": 2,
    "hosts": 4,
    "host_rate": "100Gbps",
    "fabric_rate": "400Gbps",
    "workload": "poisson",
    "cdf": "web-search",
    "duration": "10ms",
    "payload": 1000,
    "lossless": True,
    "buffer": "32MB",
    "window": 1024,
    "timeout_mode": "adaptive",
    "method": "traditional",
    "defaults": FLUID_RUN["defaults"],
}

#: The schemes of ``hpcc-web-search``: HPCC with its defaults, and DCQCN with
#: ECN marking by HPCC's simulator's KMIN_MAP, KMAX_MAP and PMAX_MAP (4 KB,
#: 16 KB and 0.2 per Gb/s of the port: 400 KB / 1.6 MB at 100 Gb/s).
WEB_SCHEMES: dict[str, dict[str, Any]] = {
    "hpcc": {"cc": "hpcc"},
    "dcqcn": {"cc": "dcqcn", "ecn": True,
              "ecn_by_rate": "100Gbps:400KB:1600KB:0.2,400Gbps:1600KB:6400KB:0.2"},
}


def web_params(scheme: str, load: float, run: int) -> dict[str, Any]:
    """Return one run of ``hpcc-web-search``."""
    return {**WEB_RUN, **WEB_SCHEMES[scheme], "load": load, "run": run}


def web_rows(results, scheme: str, load: float) -> list[dict[str, Any]]:
    """Return the rows of one scheme at one load: each size bucket, then all flows.

    The runs' transfers are pooled; slowdown is FCT / ideal FCT of the size
    and path (``DrpIdealFct``).
    """
    pooled = pd.concat([r.transfers for r in results], ignore_index=True)
    ok = pooled[pooled["status"] == "success"]
    common = {"scheme": scheme, "load": load}
    rows = []
    for _, b in slowdown_by_size(pooled, WEB_BUCKETS).iterrows():
        rows.append({**common, "sizes": f"{int(b['min_bytes'])} to {int(b['max_bytes'])}",
                     "flows": int(b["count"]), "p50": b["p50"], "p95": b["p95"],
                     "p99": b["p99"]})
    slowdown = ok["slowdown"].to_numpy(dtype=float)
    rows.append({
        **common, "sizes": "all", "flows": len(ok),
        "p50": nearest_rank(slowdown, 0.5), "p95": nearest_rank(slowdown, 0.95),
        "p99": nearest_rank(slowdown, 0.99),
        "failed": len(pooled) - len(ok),
        "drops": sum(int(r.counters["drops"]) for r in results),
        "pauses": sum(int(r.counters["pauses_sent"]) for r in results),
        "retransmissions": int(pooled["retransmissions"].sum()),
    })
    return rows


def plot_web(table: pd.DataFrame, out: pathlib.Path, name: str) -> None:
    """Plot ``hpcc-web-search``'s p95 and p50 slowdown by flow size into out/<name>.png and .pdf."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(WEB_LOADS), figsize=(12, 4), sharey=True, squeeze=False)
    for ax, load in zip(axes[0], WEB_LOADS):
        for scheme, color in zip(WEB_SCHEMES, ("C0", "C3")):
            part = table[(table["load"] == load) & (table["scheme"] == scheme)
                         & (table["sizes"] != "all")]
            x = range(len(part))
            ax.plot(x, part["p95"], marker="o", color=color, label=f"{scheme}, p95")
            ax.plot(x, part["p50"], marker=".", ls="--", color=color, label=f"{scheme}, p50")
            ax.set_xticks(list(x), [s.replace(" to ", "\nto ") for s in part["sizes"]],
                          fontsize=7)
        ax.set_yscale("log")
        ax.set_title(f"web search, {load:.0%} load")
        ax.set_xlabel("flow size (bytes; equal-count buckets)")
        ax.grid(True, which="both", lw=0.3)
    axes[0][0].set_ylabel("FCT slowdown")
    axes[0][0].legend(fontsize=8)
    save_png_and_pdf(fig, out, name)


def make_hpcc_web_search(out: pathlib.Path, workers=None) -> tuple[pd.DataFrame, str]:
    """Run ``hpcc-web-search``; return its table and note."""
    keys = [(s, load, run) for load in WEB_LOADS for s in WEB_SCHEMES
            for run in range(1, WEB_REPETITIONS + 1)]
    results = run_all([web_params(*k) for k in keys], workers)
    rows = []
    for load in WEB_LOADS:
        for scheme in WEB_SCHEMES:
            mine = [r for r, k in zip(results, keys) if k[:2] == (scheme, load)]
            rows += web_rows(mine, scheme, load)
    table = pd.DataFrame(rows)
    plot_web(table, out, "hpcc-web-search")
    note = (
        f"A leaf-spine of 4 leaves of 4 hosts and 2 spines, 100 Gb/s hosts and 400 Gb/s "
        f"links between switches, lossless (PFC, 32 MB per switch); web-search flows arriving "
        f"for 10 ms at 30 and 50 % of each host link, {WEB_REPETITIONS} runs per scheme and "
        f"load, pooled; HPCC with its defaults and DCQCN with HPCC's simulator's ECN "
        f"thresholds. Slowdown = FCT / ideal FCT of the size and path; the flows sorted by "
        f"size in {WEB_BUCKETS} buckets of equal count."
    )
    return table, note


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
    elif name == "timely-fixed-points":
        table, note = make_timely_fixed_points(out, workers)
    elif name == "hpcc-queues":
        table, note = make_hpcc_queues(out, workers)
    elif name == "dcqcn-arrivals":
        table, note = make_dcqcn_arrivals(out, workers)
    elif name == "dcqcn-tuned":
        table, note = make_dcqcn_tuned(out, workers)
    elif name == "dctcp-k":
        table, note = make_dctcp_k(out, workers)
    elif name == "hpcc-web-search":
        table, note = make_hpcc_web_search(out, workers)
    else:
        valid = ", ".join(CC_VALIDATION_FIGURES)
        raise ValueError(f"figure = {name!r} is not a cc-validation figure; valid: {valid}")
    write_table(out, name, CC_VALIDATION_FIGURES[name], table, table, note)
    return table
