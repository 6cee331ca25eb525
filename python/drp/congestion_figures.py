"""Congestion-control and lossless-Ethernet experiments on small fabrics, with their figures.

Three targets of ``drp-figures``, each a handful of deterministic fabric runs
(FRP 0, no jitter: one run per setting says all) made with
:func:`drp.run_fabric`, no results store:

* ``dcqcn-convergence``: two long DCQCN flows across one 10 Gb/s uplink of a
  leaf-spine, the second joining later; their pacing rates and the bottleneck queue over
  time, Jain's fairness index over the second half of their overlap, and the
  queue's time average and percentiles against Kmin and Kmax;
* ``pfc-incast``: 16:1 and 64:1 incasts across a leaf-spine (senders on one
  leaf, the receiver on the other) into a buffer far smaller than the burst,
  lossless, without congestion control and with DCQCN: drops, pause frames
  sent and received at each hop, time paused, the congested port's use,
  FCTs;
* ``pfc-victim``: a flow from the senders' leaf to another host of the
  receiver's leaf, beside a 16:1 incast: its FCT alone, beside the incast on
  a lossy fabric, lossless, and lossless with DCQCN (head-of-line blocking).

Outputs per target, in the output folder: ``<name>.csv`` and ``<name>.md``
(the table), and ``<name>.png`` and ``<name>.pdf`` (the figure).
"""

import math
from typing import Any

import numpy as np
import pandas as pd

from drp.executors import run_local
from drp.fabric import SCENARIO as FABRIC_SCENARIO
from drp.fabric import FabricRunResult, run_fabric
from drp.plots import save_png_and_pdf

#: Target names and what each shows.
CONGESTION_FIGURES = {
    "dcqcn-convergence": "two DCQCN flows on one 10 Gb/s uplink, the second joining 10 ms later",
    "pfc-incast": "16:1 and 64:1 lossless incasts across a leaf-spine, pauses hop by hop",
    "pfc-victim": "a victim flow beside a 16:1 incast: alone, lossy, lossless (PFC), "
    "lossless+DCQCN",
}

#: ECN thresholds at 10 Gb/s: the defaults per Gb/s (HPCC's simulator's, 4/16 KB) times ten.
ECN_10G = {"ecn_min": "40KB", "ecn_max": "160KB", "ecn_pmax": 0.2}

#: Two flows of 40 MB across one 10 Gb/s uplink, the second 10 ms after the first: a
#: leaf-spine of two leaves of two hosts and one spine, host 0 -> host 2 (an incast of
#: one) and host 1 -> host 3 (its victim, started at 1 x stagger). Two receivers,
#: because one host takes at most 7.7 Gb/s at 10 Gb/s (its PCIe link, see
#: doc/concurrency.rst): into one host, the bottleneck would be the host, not a switch
#: port. A window of 1024 frames and a 1000 KB queue, so that only DCQCN bounds the queue.
#: The paper's card by name: the figure was made with it, before fabric runs chose the
#: card of the host rate.
CONVERGENCE = {
    "topology": "leaf-spine",
    "leaves": 2,
    "spines": 1,
    "hosts": 2,
    "receiver": 2,
    "degree": 1,
    "victims": 1,
    "bytes": 40_000_000,
    "victim_bytes": 40_000_000,
    "stagger": "10ms",
    "host_rate": "10Gbps",
    "fabric_rate": "10Gbps",
    "nic": "paper-1g",
    "queue": "1000KB",
    "window": 1024,
    "ecn": True,
    "cc": "dcqcn",
    "rates": True,
    "queue_interval": "10us",
    **ECN_10G,
}

#: The bottleneck of CONVERGENCE: leaf 0's port to the spine (switch 0, after its 2 hosts).
BOTTLENECK = (0, 2)

#: Leaf-spine of 2 leaves and 2 spines, 1 Gb/s host links and 10 Gb/s uplinks (no
#: oversubscription for up to 20 hosts a leaf), adaptive timers, the ECN defaults (for
#: 1 Gb/s), and a window of 64 frames (64 KiB in flight per sender: 1 MiB for 16 senders,
#: 4 MiB for 64, against 2 and 4 MB buffers whose reserves take 0.8 and 2.7 MB). 1 Gb/s
#: host links, because at 10 Gb/s a host's PCIe link (7.7 Gb/s, doc/concurrency.rst)
#: would be the receiver's bottleneck, and its switch port would never back up.
LEAF_SPINE = {
    "topology": "leaf-spine",
    "leaves": 2,
    "spines": 2,
    "host_rate": "1Gbps",
    "fabric_rate": "10Gbps",
    "timeout_mode": "adaptive",
    "window": 64,
}

#: PFC incast: senders per setting, with each switch's buffer (the reserves and
#: headrooms of a leaf's ports need some 0.8 MB for 19 ports, 2.7 MB for 66).
INCAST_DEGREES = {16: "2MB", 64: "4MB"}
#: Bytes each incast sender writes (1 MiB: 16 and 64 MiB bursts).
INCAST_BYTES = 1 << 20
#: The congestion controls of the lossless incasts.
INCAST_CCS = ("none", "dcqcn")

#: Victim: 16 senders on leaf 0 to host 17 (leaf 1), the victim host 16 -> host 18.
VICTIM_DEGREE = 16
VICTIM_BYTES = 1 << 20
#: The victim's runs: label and parameters beside LEAF_SPINE.
VICTIM_RUNS: dict[str, dict[str, Any]] = {
    "alone": {"lossless": False, "degree": 1, "receiver": 18, "bytes": VICTIM_BYTES},
    "lossy, beside the incast": {"lossless": False, "victims": 1},
    "lossless (PFC)": {"lossless": True, "victims": 1},
    "lossless (PFC) + DCQCN": {"lossless": True, "victims": 1, "ecn": True, "cc": "dcqcn"},
}


def run_all(settings, workers=None):
    """Run every parameter dict of ``settings`` (``workers`` processes, as campaigns do).

    Returns the :class:`drp.fabric.FabricRunResult` of each, in order.
    """
    if workers == 1:
        return [run_fabric(**p) for p in settings]
    tasks = [{"scenario": FABRIC_SCENARIO, **p} for p in settings]
    position = {id(t): n for n, t in enumerate(tasks)}
    results: list[FabricRunResult | None] = [None] * len(tasks)
    for params, raw in run_local(tasks, workers):  # in the order they finish
        results[position[id(params)]] = FabricRunResult(raw)
    return results


def flow_rates(result, start, end, step):
    """Return each flow's pacing rate (bit/s, the line rate when unpaced) on a time grid.

    ``result`` a run with ``rates``; the grid runs from ``start`` to ``end``
    (seconds) by ``step``. Returns (times, {source host: rates}); a flow's rate
    is NaN before it starts and after it ends.
    """
    line = float(result.params["host_rate"])
    times = np.arange(start, end, step)
    out = {}
    rates = result.rates
    for _, t in result.transfers.iterrows():
        first, last = t["start_us"] / 1e6, (t["start_us"] + t["fct_us"]) / 1e6
        changes = rates[(rates["source"] == t["source"])].sort_values("time_s")
        values = np.full(times.shape, np.nan)
        live = (times >= first) & (times <= last)
        values[live] = line
        for time_s, bps in zip(changes["time_s"], changes["rate_bps"]):
            values[live & (times >= time_s)] = line if bps == 0 else float(bps)
        out[int(t["source"])] = values
    return times, out


def mean_rate(result, source, start, end):
    """Return flow ``source``'s time-averaged pacing rate (bit/s) over [start, end] seconds."""
    line = float(result.params["host_rate"])
    changes = result.rates[result.rates["source"] == source].sort_values("time_s")
    rate, at, area = line, start, 0.0
    for time_s, bps in zip(changes["time_s"], changes["rate_bps"]):
        if time_s > start:
            until = min(time_s, end)
            if until > at:
                area += rate * (until - at)
                at = until
        rate = line if bps == 0 else float(bps)
    area += rate * max(end - at, 0.0)
    return area / (end - start)


def jain(values):
    """Return Jain's fairness index of ``values``."""
    values = np.asarray(values, dtype=float)
    return float(values.sum() ** 2 / (values.size * (values**2).sum()))


def port_samples(result, switch, port):
    """Return the queue samples of one switch port (DataFrame, time order)."""
    q = result.queues
    return q[(q["switch"] == switch) & (q["port"] == port)].reset_index(drop=True)


def _kilobytes(text):
    """Return a QueueSize in KB ("40KB") as bytes."""
    return float(text.removesuffix("KB")) * 1000


def convergence_table(result):
    """Summarize the convergence run: one row of fairness, rates, queue and FCTs."""
    t = result.transfers.sort_values("start_us")
    starts = (t["start_us"] / 1e6).tolist()
    ends = ((t["start_us"] + t["fct_us"]) / 1e6).tolist()
    first, last = max(starts), min(ends)
    half = first + (last - first) / 2
    sources = t["source"].tolist()
    means = [mean_rate(result, s, half, last) for s in sources]
    q = port_samples(result, *BOTTLENECK)
    overlap = q[(q["time_s"] >= first) & (q["time_s"] <= last)]["bytes"].to_numpy(float)
    second = q[(q["time_s"] >= half) & (q["time_s"] <= last)]["bytes"].to_numpy(float)
    kmin, kmax = _kilobytes(result.params["ecn_min"]), _kilobytes(result.params["ecn_max"])
    row = {
        "overlap_from_ms": first * 1e3,
        "overlap_to_ms": last * 1e3,
        "jain_second_half": jain(means),
        "rate_flow1_gbps": means[0] / 1e9,
        "rate_flow2_gbps": means[1] / 1e9,
        "queue_mean_kb": overlap.mean() / 1e3,
        "queue_p50_kb": np.percentile(overlap, 50) / 1e3,
        "queue_p95_kb": np.percentile(overlap, 95) / 1e3,
        "queue_p99_kb": np.percentile(overlap, 99) / 1e3,
        "queue_max_kb": overlap.max() / 1e3,
        "queue_mean_second_half_kb": second.mean() / 1e3,
        "below_kmin_pct": 100 * np.mean(overlap <= kmin),
        "above_kmax_pct": 100 * np.mean(overlap >= kmax),
        "kmin_kb": kmin / 1e3,
        "kmax_kb": kmax / 1e3,
        "fct_flow1_ms": t["fct_us"].iloc[0] / 1e3,
        "fct_flow2_ms": t["fct_us"].iloc[1] / 1e3,
        "drops": result.counters["drops"],
        "ecn_marks": result.counters["ecn_marks"],
        "cnps": result.counters["cnps"],
        "rate_changes": len(result.rates),
    }
    return pd.DataFrame([row])


def plot_convergence(result, out, name="dcqcn-convergence"):
    """Plot both flows' rates and the bottleneck queue over time into out/<name>.png, .pdf."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    end = result.counters["simulated_seconds"]
    times, rates = flow_rates(result, 0.0, end, 10e-6)
    q = port_samples(result, *BOTTLENECK)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 5.5), sharex=True)
    for n, (source, values) in enumerate(sorted(rates.items())):
        top.plot(times * 1e3, values / 1e9, lw=0.8, label=f"flow {n + 1} (host {source})")
    top.set_ylabel("pacing rate (Gb/s)")
    top.set_ylim(0, float(result.params["host_rate"]) / 1e9 * 1.05)
    top.legend(loc="lower right")
    top.grid(alpha=0.3)
    bottom.plot(q["time_s"] * 1e3, q["bytes"] / 1e3, lw=0.6, color="k", label="bottleneck queue")
    for label, key, style in (("Kmin", "ecn_min", "--"), ("Kmax", "ecn_max", ":")):
        bottom.axhline(_kilobytes(result.params[key]) / 1e3, ls=style, color="r", label=label)
    bottom.set_ylabel("queue (KB)")
    bottom.set_xlabel("time (ms)")
    bottom.legend(loc="upper right")
    bottom.grid(alpha=0.3)
    fig.suptitle("DCQCN: two flows on one 10 Gb/s uplink (leaf-spine, ns-3 drp)")
    save_png_and_pdf(fig, out, name)


def incast_params(degree, cc):
    """Return the parameters of a lossless ``degree``:1 incast across the leaf-spine."""
    hosts = degree + 1  # a leaf: the senders and one spare host; the receiver leads leaf 1
    return {
        **LEAF_SPINE,
        "hosts": hosts,
        "receiver": hosts,
        "degree": degree,
        "bytes": INCAST_BYTES,
        "lossless": True,
        "buffer": INCAST_DEGREES[degree],
        "ecn": cc != "none",
        "cc": cc,
        "queue_interval": "100us",
    }


def hop_counters(result):
    """Return pauses sent/received and time paused at each hop of a 2-leaf leaf-spine.

    Ports: on a leaf, its hosts first, then the spines; on a spine, the leaves
    in order (FabricHelper's order). Hops, downstream first: leaf 1 to the
    spines (pauses the receiver's leaf sends up), spines to leaf 0, leaf 0 to
    its hosts (the senders' RNICs).
    """
    p = pd.DataFrame(result.port_columns)  # every column, the pause counters included
    hosts, leaves = result.params["hosts"], result.params["leaves"]
    leaf_host = (p["switch"] < leaves) & (p["port"] < hosts)
    leaf_up = (p["switch"] < leaves) & (p["port"] >= hosts)
    spine = p["switch"] >= leaves

    def hop(sent, received):
        return (
            int(p.loc[sent, "pauses_sent"].sum()),
            int(p.loc[received, "pauses_received"].sum()),
            float(p.loc[received, "time_paused_seconds"].sum()),
        )

    rows = {
        "leaf 1 -> spines": hop(leaf_up & (p["switch"] == 1), spine & (p["port"] == 1)),
        "spines -> leaf 0": hop(spine & (p["port"] == 0), leaf_up & (p["switch"] == 0)),
    }
    sent = int(p.loc[leaf_host & (p["switch"] == 0), "pauses_sent"].sum())
    rows["leaf 0 -> sender RNICs"] = (
        sent,
        int(result.counters["rnic_pauses_received"]),
        float(result.counters["rnic_time_paused_seconds"]),
    )
    # The receiver's port (leaf 1 port 0) sends no pause downstream: the receiver never congests.
    return rows


def _dropped(result, device):
    """Return the frames ``result`` lost in one kind of device (switch, link, rnic, host)."""
    d = result.drop_columns
    return int(sum(f for kind, f in zip(d["device"], d["frames"]) if kind == device))


def incast_row(result, degree, cc):
    """Summarize one lossless incast: drops, pauses per hop, the congested port, FCTs."""
    t = result.transfers
    first = t["start_us"].min() / 1e6
    last = ((t["start_us"] + t["fct_us"]) / 1e6).max()
    q = port_samples(result, 1, 0)  # leaf 1 towards the receiver
    backlogged = q[q["bytes"] > 0]
    rate = float(result.params["host_rate"])
    fct = t["fct_us"].to_numpy(float)
    row = {
        "degree": degree,
        "cc": cc,
        "buffer": result.params["buffer"],
        "burst_mib": degree * INCAST_BYTES / 2**20,
        "successes": int((t["status"] == "success").sum()),
        "switch drops": _dropped(result, "switch"),
        "link drops": _dropped(result, "link"),
        "RNIC drops": _dropped(result, "rnic"),
    }
    for hop, (sent, received, paused) in hop_counters(result).items():
        row[f"{hop}: pauses sent"] = sent
        row[f"{hop}: pauses received"] = received
        row[f"{hop}: time paused (ms)"] = paused * 1e3
    row.update(
        {
            "congested port busy while backlogged (%)": 100 * backlogged["busy"].mean(),
            "congested port samples backlogged": len(backlogged),
            "receiver goodput (% of line)": 100
            * degree
            * INCAST_BYTES
            * 8
            / (rate * (last - first)),
            "peak buffer (KB)": result.counters["peak_buffer_bytes"] / 1e3,
            "mean FCT (ms)": fct.mean() / 1e3,
            "p99 FCT (ms)": np.percentile(fct, 99) / 1e3,
            "max FCT (ms)": fct.max() / 1e3,
            "ideal FCT (ms)": t["ideal_us"].iloc[0] / 1e3,
            "retransmissions": int(t["retransmissions"].sum()),
            "timer expiries": int(np.sum(result.columns["timeouts"])),
        }
    )
    return row


def plot_incast(table, results, out, name="pfc-incast"):
    """Plot the pauses per hop (bars) and the congested port's queue over time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hops = ["leaf 1 -> spines", "spines -> leaf 0", "leaf 0 -> sender RNICs"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    width = 0.8 / len(table)
    for n, (_, row) in enumerate(table.iterrows()):
        values = [row[f"{h}: pauses sent"] for h in hops]
        label = f"{row['degree']}:1, cc {row['cc']}"
        left.bar(np.arange(len(hops)) + n * width, values, width, label=label)
    left.set_xticks(np.arange(len(hops)) + 0.4 - width / 2)
    left.set_xticklabels(hops, fontsize=8)
    left.set_ylabel("pause frames sent")
    left.set_yscale("symlog")
    left.legend(fontsize=8)
    left.grid(alpha=0.3, axis="y")
    for (_, row), result in zip(table.iterrows(), results):
        q = port_samples(result, 1, 0)
        label = f"{row['degree']}:1, cc {row['cc']}"
        right.plot(q["time_s"] * 1e3, q["bytes"] / 1e3, lw=0.7, label=label)
    right.set_xlabel("time (ms)")
    right.set_ylabel("receiver's port queue (KB)")
    right.legend(fontsize=8)
    right.grid(alpha=0.3)
    fig.suptitle("Lossless incast across a leaf-spine: pauses hop by hop (ns-3 drp)")
    save_png_and_pdf(fig, out, name)


def victim_params(run):
    """Return the parameters of one of :data:`VICTIM_RUNS`."""
    hosts = VICTIM_DEGREE + 1
    params: dict[str, Any] = {
        **LEAF_SPINE,
        "hosts": hosts,
        "receiver": hosts,
        "degree": VICTIM_DEGREE,
        "bytes": INCAST_BYTES,
    }
    params.update(VICTIM_RUNS[run])
    # Each option only where it has an effect (FabricScenario refuses it elsewhere).
    if params.get("victims", 0) > 0:
        params["victim_bytes"] = VICTIM_BYTES
    if params["lossless"]:
        params["buffer"] = INCAST_DEGREES[VICTIM_DEGREE]
    return params


def victim_row(result, run):
    """Summarize the victim (the flow to host receiver + 1) and the incast of one run."""
    t = result.transfers
    receiver = int(result.params["receiver"])
    target = receiver if run == "alone" else receiver + 1
    v = t[t["destination"] == target].iloc[0]
    incast = t[t["destination"] != target]
    return {
        "run": run,
        "victim FCT (ms)": v["fct_us"] / 1e3,
        "victim throughput (Gb/s)": v["size"] * 8 / v["fct_us"] / 1e3,
        "victim slowdown": v["slowdown"],
        "victim retransmissions": int(v["retransmissions"]),
        "incast mean FCT (ms)": incast["fct_us"].mean() / 1e3 if len(incast) else math.nan,
        "switch drops": _dropped(result, "switch"),
        "RNIC drops": _dropped(result, "rnic"),
        "pauses sent": int(result.counters.get("pauses_sent", 0)),
        "RNICs' time paused (ms)": result.counters.get("rnic_time_paused_seconds", 0.0) * 1e3,
    }


def plot_victim(table, out, name="pfc-victim"):
    """Plot the victim's FCT and throughput per run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    labels = list(table["run"])
    y = np.arange(len(labels))
    left.barh(y, table["victim FCT (ms)"], color="tab:blue")
    left.set_yticks(y)
    left.set_yticklabels(labels, fontsize=8)
    left.invert_yaxis()
    left.set_xlabel("victim FCT (ms)")
    left.grid(alpha=0.3, axis="x")
    right.barh(y, table["victim throughput (Gb/s)"], color="tab:orange")
    right.set_yticks(y)
    right.set_yticklabels([])
    right.invert_yaxis()
    right.set_xlabel("victim throughput (Gb/s)")
    right.grid(alpha=0.3, axis="x")
    fig.suptitle(
        f"Victim flow ({VICTIM_BYTES >> 20} MiB) beside a {VICTIM_DEGREE}:1 incast, "
        "leaf-spine (ns-3 drp)"
    )
    save_png_and_pdf(fig, out, name)


def _markdown(table, title, note=""):
    """Return ``table`` as a Markdown table under a heading (numbers to 3 significant digits)."""

    def cell(value):
        if isinstance(value, float):
            return "-" if math.isnan(value) else f"{value:.4g}"
        return str(value)

    header = list(table.columns)
    lines = [f"# drp {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, row in table.iterrows():
        lines.append("| " + " | ".join(cell(row[c]) for c in header) + " |")
    return "\n".join(lines) + "\n" + (f"\n{note}\n" if note else "")


def _transposed(table, key):
    """Return ``table`` with one column per row (named by ``key``), one row per field."""
    return table.set_index(key).T.reset_index().rename(columns={"index": "measure"})


def make_congestion_figure(name, out, workers=None):
    """Run congestion target ``name``, write its table and figure to ``out``; return the table."""
    out.mkdir(parents=True, exist_ok=True)
    if name == "dcqcn-convergence":
        (result,) = run_all([CONVERGENCE], workers)
        table = convergence_table(result)
        plot_convergence(result, out, name)
        shown = _transposed(table.assign(run="value"), "run")
        note = (
            "Jain's index of the two flows' time-averaged pacing rates over the second half of "
            "their overlap; queue: leaf 0's port to the spine, the flows' shared 10 Gb/s "
            "bottleneck, sampled every 10 us over the overlap."
        )
    elif name == "pfc-incast":
        settings = [(d, cc) for d in INCAST_DEGREES for cc in INCAST_CCS]
        results = run_all([incast_params(d, cc) for d, cc in settings], workers)
        table = pd.DataFrame([incast_row(r, d, cc) for r, (d, cc) in zip(results, settings)])
        plot_incast(table, results, out, name)
        shown = _transposed(table.assign(run=[f"{d}:1, cc {cc}" for d, cc in settings]), "run")
        note = (
            "Lossless (PFC, SwitchBuffer) leaf-spine, 2 leaves x 2 spines, 1 Gb/s host links, "
            "10 Gb/s uplinks, window 64 frames, adaptive timers; the senders on leaf 0, the "
            "receiver on leaf 1. 'busy while "
            "backlogged': share of the 100 us samples of the receiver's port with a backlog in "
            "which a frame was on the wire."
        )
    elif name == "pfc-victim":
        results = run_all([victim_params(r) for r in VICTIM_RUNS], workers)
        table = pd.DataFrame([victim_row(r, run) for r, run in zip(results, VICTIM_RUNS)])
        plot_victim(table, out, name)
        shown = table
        note = (
            f"{VICTIM_DEGREE} senders on leaf 0 write {INCAST_BYTES >> 20} MiB each to host "
            f"{VICTIM_DEGREE + 1} (leaf 1); the victim writes {VICTIM_BYTES >> 20} MiB from host "
            f"{VICTIM_DEGREE} (leaf 0) to host {VICTIM_DEGREE + 2} (leaf 1). 'alone': the same "
            "write between two other hosts of the two leaves, no incast."
        )
    else:
        valid = ", ".join(CONGESTION_FIGURES)
        raise ValueError(f"figure = {name!r} is not a congestion figure; valid: {valid}")
    write_table(out, name, CONGESTION_FIGURES[name], table, shown, note)
    return table


def write_table(out, name, what, table, shown, note):
    """Write ``table`` to out/<name>.csv and ``shown`` (the table as read) with its
    title (``name``: ``what``) and ``note`` to out/<name>.md."""
    table.to_csv(out / f"{name}.csv", index=False)
    (out / f"{name}.md").write_text(_markdown(shown, f"{name}: {what}", note))
