"""Fabric experiments: :func:`run_fabric` and its :class:`FabricRunResult`.

A fabric experiment is ``FabricScenario::Run`` of the C++ module (what the
program ``rnic-fabric`` runs): hosts with RNICs on a star, tree, leaf-spine or
fat-tree of ECMP switches, one traffic matrix, losses only where a switch
queue overflows. Same parameters (snake_case names), same numbers::

    import drp

    result = drp.run_fabric(topology="star", hosts=17, workload="incast", queue="32p")
    result.transfers                  # DataFrame: one row per transfer (FCT, ideal, slowdown)
    result.ports                      # DataFrame: one row per switch port that carried traffic
    result.summary                    # dict: successes, FCT mean/p99, slowdown p50/p99, drops
    result.slowdown_by_size(4)        # DataFrame: p50/p95/p99 slowdown by size bucket

Campaigns of fabric experiments: :class:`drp.FabricCampaign`.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from drp import _drp
from drp.experiment import keyword_parameters, success_note

if TYPE_CHECKING:
    import pandas as pd

#: The parameter that marks a fabric experiment in a campaign's store.
SCENARIO = "fabric"

#: Parameter names, in the order of ``FabricScenario::Config``.
FABRIC_PARAMETERS = tuple(_drp.FabricConfig().to_dict())

#: The parameters of :func:`run_fabric` after the experiment's: where it runs
#: (:class:`Launch`), with their defaults (in this process).
LAUNCH_PARAMETERS: dict[str, Any] = {"ranks": 1, "program": None, "mpirun": "mpirun"}

#: Per-transfer columns, as in the CSV of ``FabricScenario::WriteCsvRows``
#: (times in microseconds), with the record's handshake counters.
TRANSFER_COLUMNS: tuple[str, ...] = (
    "source",
    "destination",
    "switches",
    "size",
    "start_us",
    "fct_us",
    "ideal_us",
    "slowdown",
    "status",
    "mode",
    "requests",
    "invalid_replies",
    "timeouts",
    "retransmissions",
    "cnps",
)

#: Per-port columns: the counters of every switch port that carried traffic
#: (ECN marks; PFC pauses sent and received and the time the port was paused,
#: 0 unless ``lossless``).
PORT_COLUMNS: tuple[str, ...] = (
    "switch",
    "port",
    "frames_out",
    "drops",
    "peak_frames",
    "peak_bytes",
    "ecn_marks",
    "pauses_sent",
    "pauses_received",
    "time_paused_seconds",
)

#: Counters of a lossless fabric (PFC pauses and the shared buffer's drops):
#: a run's counters end with them.
LOSSLESS_COUNTERS: tuple[str, ...] = (
    "pauses_sent",
    "pauses_received",
    "time_paused_seconds",
    "rnic_pauses_received",
    "rnic_time_paused_seconds",
    "headroom_drops",
    "shared_buffer_drops",
    "pfc_storms",
)

#: Counters of a run (host_count and switch_count: the fabric's size), summed
#: when runs are pooled.
FABRIC_COUNTERS = (
    "host_count",
    "switch_count",
    "flows",
    "drops",
    "link_drops",
    "rnic_drops",
    "host_drops",
    "ecn_marks",
    "cnps",
    "simulated_seconds",
    "events",
    "wall_seconds",
) + LOSSLESS_COUNTERS

#: Columns of :attr:`FabricRunResult.queues`: one sample of one switch port.
QUEUE_COLUMNS = ("time_s", "switch", "port", "frames", "bytes", "busy", "paused")

#: Columns of :attr:`FabricRunResult.flow_rates`: what one transfer sent in one
#: interval (flow_rate_interval): the interval's start, the transfer's row in
#: :attr:`FabricRunResult.transfers`, its hosts, the payload bytes and wire
#: bytes of its data frames (re-sends included) and the wire bytes' rate.
FLOW_RATE_COLUMNS = (
    "time_s",
    "transfer",
    "source",
    "destination",
    "bytes",
    "wire_bytes",
    "rate_bps",
)

#: Columns of :attr:`FabricRunResult.pfc_events`: a pause frame's class taking
#: effect at a port (pause True) or ending (False), as HPCC's pfc.txt lists them;
#: node is the node's id, port the interface index (a switch's port + 1, an RNIC 1).
PFC_EVENT_COLUMNS = ("time_s", "node", "switch", "port", "class", "pause")

#: Columns of :attr:`FabricRunResult.fct`: the successful transfers in the
#: layout of HPCC's fct.txt (node ids rather than their IP addresses).
FCT_COLUMNS = (
    "source_node",
    "destination_node",
    "source_port",
    "flow_id",
    "size",
    "start_ns",
    "fct_ns",
    "ideal_ns",
)

#: Columns of :attr:`FabricRunResult.drops`: frames dropped per kind of device
#: (switch, link, rnic, host) and reason, every reason listed.
DROP_COLUMNS = ("device", "reason", "frames")

#: Fields of :func:`summarize_fabric`, in order.
FABRIC_SUMMARY = (
    "n",
    "successes",
    "indirect",
    "retransmissions",
    "mean_fct_us",
    "ci95_fct_us",
    "p50_fct_us",
    "p99_fct_us",
    "p50_slowdown",
    "p99_slowdown",
    "note",
) + FABRIC_COUNTERS


def fabric_parameters(**params: Any) -> dict[str, Any]:
    """Return every parameter of a fabric experiment in canonical form.

    Unset parameters get their defaults, values their C++ types (``duration``
    in seconds, ``host_rate`` and ``fabric_rate`` in bit/s). Raises
    ``TypeError`` for an unknown parameter or a value of the wrong type,
    ``ValueError`` (naming the parameter, its value and what is valid) for an
    invalid value.
    """
    config = _drp.FabricConfig(**params)
    config.validate()
    return config.to_dict()


def nearest_rank(values: Sequence[float], q: float) -> float:
    """Return the nearest-rank ``q`` quantile of ``values`` (NaN if empty)."""
    ordered = np.sort(np.asarray(values, dtype=float))
    if ordered.size == 0:
        return math.nan
    return float(ordered[max(math.ceil(q * ordered.size), 1) - 1])


def summarize_fabric(
    transfers: Mapping[str, Any], counters: Mapping[str, Any]
) -> dict[str, Any]:
    """Summarize fabric transfers and the counters of the runs they come from.

    ``transfers`` maps :data:`TRANSFER_COLUMNS` to sequences (a dict of
    columns or a DataFrame, of one run or several pooled). Returns a dict:
    ``n`` (transfers ended), ``successes``, ``indirect``,
    ``retransmissions``, the successful transfers' mean FCT with the half
    width of its 95% Student-t interval, their nearest-rank p50 and p99 FCT
    and p50 and p99 slowdown (NaN where undefined), then the counters.
    """
    # dtype=str: a run without transfers gives an empty float array otherwise,
    # and comparing it with a string warns (and will fail) in numpy.
    status = np.asarray(transfers["status"], dtype=str)
    ok = status == "success"
    fct = np.asarray(transfers["fct_us"], dtype=float)[ok]
    slowdown = np.asarray(transfers["slowdown"], dtype=float)[ok]
    interval = _drp.mean_interval(fct.tolist(), 0.95)
    summary = {
        "n": len(status),
        "successes": interval.count,
        "indirect": int(np.count_nonzero(np.asarray(transfers["mode"], dtype=str) == "indirect")),
        "retransmissions": int(np.sum(np.asarray(transfers["retransmissions"], dtype=np.int64))),
        "mean_fct_us": interval.mean if interval.count > 0 else math.nan,
        "ci95_fct_us": interval.half_width if interval.count > 1 else math.nan,
        "p50_fct_us": nearest_rank(fct, 0.5),
        "p99_fct_us": nearest_rank(fct, 0.99),
        "p50_slowdown": nearest_rank(slowdown, 0.5),
        "p99_slowdown": nearest_rank(slowdown, 0.99),
        # Why the means are NaN, in words (a Poisson run without an arrival has no flow).
        "note": "no flows" if len(status) == 0 else success_note(interval.count),
    }
    summary.update((name, counters.get(name, math.nan)) for name in FABRIC_COUNTERS)
    return summary


def slowdown_by_size(transfers: Mapping[str, Any], buckets: int = 4) -> pd.DataFrame:
    """Return the slowdown of successful transfers by flow-size bucket, as a DataFrame.

    The transfers (a DataFrame or dict of :data:`TRANSFER_COLUMNS`, pooled
    runs welcome) are sorted by size and cut into ``buckets`` buckets of
    equal count, one size never in two, as the field reports slowdown
    (HPCC's ``fct_analysis.py``); the C++ ``FabricScenario::GetSlowdownBySize``
    computes it. Columns: ``min_bytes``, ``max_bytes``, ``count``, ``p50``,
    ``p95``, ``p99``.
    """
    import pandas as pd

    ok = np.asarray(transfers["status"]) == "success"
    sizes = np.asarray(transfers["size"], dtype=np.int64)[ok]
    slowdown = np.asarray(transfers["slowdown"], dtype=float)[ok]
    return pd.DataFrame(_drp.slowdown_by_size(sizes.tolist(), slowdown.tolist(), buckets))


@dataclass(frozen=True)
class Launch:
    """How a fabric experiment runs when not in this process: by the program ``rnic-fabric``.

    ``program`` is the path of an ``rnic-fabric`` built from the same
    source (in an ns-3 tree, e.g. by ``scripts/check-ns3-tree.sh``);
    ``ranks`` above 1 runs it split over that many MPI ranks, as ``mpirun
    -np RANKS PROGRAM --sync=granted ...``, which needs ns-3's mpi module in
    its tree; ``mpirun`` is the launcher's command and its own options
    (a string, or a list such as ``["mpirun", "--oversubscribe"]``);
    ``options`` are more of the program's own, after those of the
    parameters (e.g. ``["--SchedulerType=ns3::ArrivalsLastScheduler"]``, a
    global value no parameter sets).
    The program writes its whole result (``--resultFile``), read back as
    ``run_fabric`` returns it, the same to the nanosecond as the run in this
    process (over ranks: with ``ns3::ArrivalsLastScheduler``, see
    drp-building.rst, "The fabric experiment over ranks").
    """

    program: str
    ranks: int = 1
    mpirun: str | Sequence[str] = "mpirun"
    options: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.ranks, int) or self.ranks < 1:
            raise ValueError(f"ranks = {self.ranks!r} is out of range [1, ...]")
        object.__setattr__(self, "program", os.fspath(self.program))
        if not (os.path.isfile(self.program) and os.access(self.program, os.X_OK)):
            raise ValueError(f"program = {self.program!r} is not an executable file")

    @staticmethod
    def of(ranks: int, program: str | os.PathLike[str] | None, mpirun: str | Sequence[str]):
        """Return the launch of these parameters of :func:`run_fabric`; None: in this process."""
        if not isinstance(ranks, int) or ranks < 1:
            raise ValueError(f"ranks = {ranks!r} is out of range [1, ...]")
        if program is None:
            if ranks != 1:
                raise ValueError(
                    f"ranks = {ranks!r}: a run over MPI ranks is one of the program "
                    "rnic-fabric, built in an ns-3 tree with its mpi module; give its path as "
                    "program"
                )
            return None
        return Launch(os.fspath(program), ranks, mpirun)

    def command(self, arguments: Sequence[str]) -> list[str]:
        """Return the command that runs the program with ``arguments``."""
        if self.ranks == 1:
            return [self.program, *arguments]
        launcher = [self.mpirun] if isinstance(self.mpirun, str) else list(self.mpirun)
        if shutil.which(launcher[0]) is None:
            raise FileNotFoundError(
                f"mpirun = {launcher[0]!r} is not a command here (Debian: apt-get install "
                "openmpi-bin)"
            )
        return [*launcher, "-np", str(self.ranks), self.program, "--sync=granted", *arguments]

    def run(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Run the experiment of ``params``; return the dict of ``_drp.run_fabric``."""
        config = _drp.FabricConfig(**params)
        config.validate()
        config.require_carried(self.ranks)
        with tempfile.TemporaryDirectory(prefix="drp-fabric-") as directory:
            path = os.path.join(directory, "result.txt")
            arguments = [*config.arguments(), *self.options, f"--resultFile={path}"]
            command = self.command(arguments)
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0 or not os.path.exists(path):
                raise RuntimeError(
                    f"{' '.join(command)} ended with exit status {done.returncode}: "
                    f"{done.stderr.strip()[-2000:]}"
                )
            with open(path, encoding="utf-8") as file:
                return _drp.read_fabric_result(file.read(), **params)


def execute_fabric(params: Mapping[str, Any], launch: Launch | None = None) -> dict[str, Any]:
    """Run one fabric experiment (``params`` without :data:`SCENARIO`).

    In this process, or by the program of ``launch``. Returns the dict of
    ``_drp.run_fabric`` with its ``summary`` added.
    """
    result = launch.run(params) if launch else _drp.run_fabric(**params)
    result["summary"] = summarize_fabric(result["columns"], result["counters"])
    return result


class FabricRunResult:
    """What one fabric experiment produced.

    Attributes: ``params`` (every parameter, canonical), ``columns`` (the
    transfers, one array or list per column of :data:`TRANSFER_COLUMNS`),
    ``port_columns`` (:data:`PORT_COLUMNS`), ``drop_columns``
    (:data:`DROP_COLUMNS`), ``counters`` (dict, see :data:`FABRIC_COUNTERS`;
    ``drops`` counts the switch queues' drops, ``link_drops``, ``rnic_drops``
    and ``host_drops`` the others, ``simulated_seconds`` is when the last
    transfer ended), ``version``, ``queue_note`` (why the queue samples end
    before the run: they stop at the most a run holds; "" when they do not),
    ``flows_note`` (why the workload asked for no flow, as ``rnic-fabric``
    says it; "" when it asked for some);
    ``transfers``, ``ports``, ``drops`` and ``summary`` are derived on first
    use.
    """

    params: dict[str, Any]
    columns: dict[str, Any]
    port_columns: dict[str, Any]
    drop_columns: dict[str, Any]
    rate_columns: dict[str, Any]
    queue_columns: dict[str, Any]
    pfc_event_columns: dict[str, Any]
    id_columns: dict[str, Any]
    queue_note: str
    flows_note: str
    counters: dict[str, Any]
    version: str

    def __init__(self, raw: Mapping[str, Any]) -> None:
        """Wrap the dict that ``_drp.run_fabric`` returns."""
        self.params = raw["params"]
        self.columns = raw["columns"]
        self.port_columns = raw["ports"]
        self.drop_columns = raw["drops"]
        self.counters = raw["counters"]
        self.version = raw["version"]
        self.rate_columns = raw.get("rates", {})
        self.queue_columns = raw.get("queues", {})
        self.flow_rate_columns = raw.get("flow_rates", {})
        self.pfc_event_columns = raw.get("pfc_events", {})
        self.id_columns = raw.get("ids", {})
        self.queue_note = str(raw.get("queue_note", ""))
        self.flows_note = str(raw.get("flows_note", ""))

    @cached_property
    def host_limit_note(self) -> str:
        """What limits the hosts when the network does not: the note ``rnic-fabric``
        prints before the run ("" when the hosts fill their links)."""
        return str(_drp.FabricConfig(**self.params).host_limit_note())

    @cached_property
    def transfers(self) -> pd.DataFrame:
        """pandas DataFrame: one row per ended transfer (:data:`TRANSFER_COLUMNS`)."""
        import pandas as pd

        return pd.DataFrame({name: self.columns[name] for name in TRANSFER_COLUMNS})

    @cached_property
    def ports(self) -> pd.DataFrame:
        """pandas DataFrame: one row per switch port that carried traffic."""
        import pandas as pd

        return pd.DataFrame({name: self.port_columns[name] for name in PORT_COLUMNS})

    @cached_property
    def rates(self) -> pd.DataFrame:
        """pandas DataFrame: every pacing-rate change (rates=True): time_s, source, tid, rate_bps."""
        import pandas as pd

        return pd.DataFrame(
            {name: self.rate_columns.get(name, []) for name in ("time_s", "source", "tid", "rate_bps")}
        )

    @cached_property
    def queues(self) -> pd.DataFrame:
        """pandas DataFrame: every switch port's backlog at every tick (queue_interval > 0).

        Columns :data:`QUEUE_COLUMNS`: time_s, switch, port, frames and bytes
        waiting (every class), busy (a frame on the wire), paused (a pause
        from the peer holds a class).
        """
        import pandas as pd

        return pd.DataFrame({name: self.queue_columns.get(name, []) for name in QUEUE_COLUMNS})

    @cached_property
    def flow_rates(self) -> pd.DataFrame:
        """pandas DataFrame: what every transfer sent per interval (flow_rate_interval > 0).

        Columns :data:`FLOW_RATE_COLUMNS`, in time order, then transfer
        order: each transfer has a row for every interval from that of its
        first data frame to that of its last, 0 where it sent nothing;
        ``transfer`` is its row in :attr:`transfers`, ``rate_bps`` its wire
        bytes' rate (comparable with the links' rates). Use
        :meth:`flow_rate_table` for one column per transfer.
        """
        import pandas as pd

        return pd.DataFrame(
            {name: self.flow_rate_columns.get(name, []) for name in FLOW_RATE_COLUMNS}
        )

    def flow_rate_table(self, value: str = "rate_bps") -> pd.DataFrame:
        """Return :attr:`flow_rates` as a table: one row per interval from the
        first to the last, one column per transfer (its row in
        :attr:`transfers`), ``value`` (``rate_bps``, ``bytes`` or
        ``wire_bytes``) in the cells, 0 where a transfer sent nothing."""
        import pandas as pd

        rates = self.flow_rates
        table = rates.pivot(index="time_s", columns="transfer", values=value)
        if len(table) > 0:
            step = float(self.params["flow_rate_interval"])
            first, last = round(table.index[0] / step), round(table.index[-1] / step)
            table = table.reindex(
                [k * step for k in range(first, last + 1)], method="nearest", tolerance=step / 4
            )
        return table.fillna(0).rename_axis(index="time_s", columns="transfer")

    @cached_property
    def pfc_events(self) -> pd.DataFrame:
        """pandas DataFrame: every pause and resume a port received (lossless runs).

        Columns :data:`PFC_EVENT_COLUMNS`, in time order: what ``pfc_file``
        writes in the layout of HPCC's pfc.txt.
        """
        import pandas as pd

        return pd.DataFrame(
            {name: self.pfc_event_columns.get(name, []) for name in PFC_EVENT_COLUMNS}
        )

    @cached_property
    def fct(self) -> pd.DataFrame:
        """pandas DataFrame: the successful transfers as HPCC's fct.txt lists them.

        Columns :data:`FCT_COLUMNS`: node ids (of the topology file, or host
        indices), source port (10000 + the transfer's index on its host),
        flow id (a flow file's destination port; 200 for an incast's flows,
        100 for the others), size in bytes, start, FCT and ideal FCT in ns:
        what ``fct_file`` writes.
        """
        import pandas as pd

        frame = pd.DataFrame(
            {
                **{name: self.id_columns.get(name, []) for name in FCT_COLUMNS[:4]},
                "size": self.columns["size"],
                "start_ns": [round(us * 1000) for us in self.columns["start_us"]],
                "fct_ns": [round(us * 1000) for us in self.columns["fct_us"]],
                "ideal_ns": [round(us * 1000) for us in self.columns["ideal_us"]],
            }
        )
        ok = [status == "success" for status in self.columns["status"]]
        return frame[ok].reset_index(drop=True)

    @cached_property
    def drops(self) -> pd.DataFrame:
        """pandas DataFrame: frames dropped per device kind and reason (:data:`DROP_COLUMNS`)."""
        import pandas as pd

        return pd.DataFrame({name: self.drop_columns[name] for name in DROP_COLUMNS})

    @cached_property
    def summary(self) -> dict[str, Any]:
        """dict: :func:`summarize_fabric` of this run."""
        return summarize_fabric(self.columns, self.counters)

    def slowdown_by_size(self, buckets: int = 4) -> pd.DataFrame:
        """Return :func:`slowdown_by_size` of this run's transfers."""
        return slowdown_by_size(self.columns, buckets)

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<FabricRunResult {self.params['topology']} {self.params['workload']} "
            f"{self.params['method']} run={self.params['run']}: {s['successes']}/{s['n']} ok, "
            f"mean FCT {s['mean_fct_us']:.1f} us, {s['drops']} drops>"
        )


@keyword_parameters(_drp.FabricConfig)
def run_fabric(
    *,
    topology: str = "star",
    hosts: int = 9,
    leaves: int = 2,
    spines: int = 2,
    levels: int = 2,
    k: int = 4,
    workload: str = "incast",
    bytes: int = 65536,
    degree: int = 0,
    load: float = 0.5,
    cdf: str = "web-search",
    duration: float | str = 0.01,
    method: str = "dynamic",
    frp: float = 0.0,
    host_rate: int | str = 1_000_000_000,
    fabric_rate: int | str = 1_000_000_000,
    queue: str = "100p",
    ecn: bool = False,
    ecn_min: str = "4KB",
    ecn_max: str = "16KB",
    ecn_pmax: float = 0.2,
    ecn_marking: str = "red",
    cc: str = "none",
    rates: bool = False,
    seed: int = 1,
    run: int = 1,
    jitter: float | str = 0.0,
    ecmp_seed: int = 0,
    ecmp_per_run: bool = False,
    timeout_mode: str = "fixed",
    pcap: str = "",
    ascii: str = "",
    lossless: bool = False,
    buffer: str = "12MiB",
    threshold: str = "dynamic",
    pfc_watchdog: float | str = 0.2,
    pfc_watchdog_action: str = "drop",
    lossless_timers: bool = True,
    pfc_storm: str = "",
    receiver: int = 0,
    stagger: float | str = 0.0,
    victims: int = 0,
    victim_bytes: int = 65536,
    window: int = 0,
    queue_interval: float | str = 0.0,
    flow_rate_interval: float | str = 0.0,
    ack_every: int = 1,
    ack_delay: float | str = 0.0,
    nic: str = "auto",
    payload: int = 1024,
    mtu: int = 1500,
    ecn_by_rate: str = "",
    topology_file: str = "",
    flow_file: str = "",
    fct_file: str = "",
    pfc_file: str = "",
    qlen_file: str = "",
    defaults: Mapping[str, str] | None = None,
    ranks: int = 1,
    program: str | os.PathLike[str] | None = None,
    mpirun: str | Sequence[str] = "mpirun",
) -> FabricRunResult:
    """Run one fabric experiment and return its :class:`FabricRunResult`.

    In this process; or, given ``program`` (the path of an ``rnic-fabric``
    built from the same source), by that program, over ``ranks`` MPI ranks
    when above 1 (``mpirun -np RANKS``, ``mpirun`` the launcher and its own
    options): see :class:`Launch`. Over ranks the fabric must be a
    leaf-spine or a fat-tree with cables of a delay above 0 (``defaults``
    ``{"ns3::EthernetChannel::Delay": "1us"}``), and a run by a program
    brings back no records over time (``rates``, ``queue_interval``,
    ``flow_rate_interval``, ``pfc_file``, ``qlen_file``: ``ValueError``).

    Parameters (keyword-only, all optional; defaults those of ``drp.FabricConfig``): topology ("star", "tree", "leaf-spine",
    "fat-tree"), hosts (star: hosts; tree: fan-out; leaf-spine: per leaf),
    leaves, spines, levels, k, workload ("incast", "permutation",
    "all-to-all", "poisson"), bytes, degree, load, cdf ("web-search",
    "data-mining" or a file), duration (seconds or a string such as
    "20ms"), method, frp, host_rate, fabric_rate (bit/s or strings such as
    "10Gbps"), queue (an ns-3 QueueSize: "100p", "64KiB"), ecn (switch
    queues mark CE by the RED rule, EcnMarkingQueue, and RNICs send data
    ECN-capable and answer marks with CNPs), ecn_min and ecn_max (Kmin and
    Kmax, QueueSizes in one unit), ecn_pmax (Pmax, 0 to 1), ecn_marking ("red",
    the default, or "step": every frame above ecn_min marked, DCTCP's K), cc (the RNICs'
    congestion control: "none", "dcqcn", "dctcp", "timely" or "hpcc"; dcqcn and dctcp
    need ecn),
    rates (record every pacing-rate change: FabricRunResult.rates), seed, run, jitter
    (incast: each sender starts at an offset drawn uniformly from [0,
    jitter]; seconds or a string such as "20us"), ecmp_seed (every switch's
    ECMP hash seed), ecmp_per_run (True: the seed is ecmp_seed + run),
    timeout_mode ("fixed": the RNICs' published timers; "adaptive": RFC 6298
    timeouts estimated per peer), pcap and ascii (file prefixes:
    PREFIX-NODE-DEVICE.pcap and .tr for every RNIC and switch port; "" for
    none), lossless (True: a shared buffer, SwitchBuffer, in every switch,
    priority flow control on every port, the RNICs' DRP class lossless),
    buffer (lossless: each switch's buffer, a QueueSize in bytes such as
    "12MiB"), threshold (lossless: "dynamic" or "static" XOFF threshold),
    pfc_watchdog (lossless: every switch port's PFC watchdog, seconds or a
    string such as "200ms", the default, SONiC's; 0: none), pfc_watchdog_action
    ("drop", the default, or "forward") and pfc_storm (lossless: hosts,
    "3" or "3,7", whose RNICs pause their class for ever; "": none),
    lossless_timers (lossless: True, the default, RNIC timers that count no
    time paused and wait at least a switch buffer's drain at host_rate, so
    that nothing is re-sent that the fabric only delayed; False: the timers
    of timeout_mode, the published protocol's).
    A lossless run adds the counters pauses_sent, pauses_received and
    time_paused_seconds (switch ports), rnic_pauses_received,
    rnic_time_paused_seconds, headroom_drops, shared_buffer_drops and
    peak_buffer_bytes, and per-port columns of the same names in
    ``port_columns``. receiver (incast: the host written to; its senders are
    the first ``degree`` other hosts), stagger (incast: sender i starts i x
    stagger after the first), victims and victim_bytes (incast: flows
    beside it, victim k from the (degree + k)-th host other than the
    receiver to host (receiver + 1 + k) mod hosts), window (the transports'
    Window, frames in flight per transfer; 0: the default, 8),
    queue_interval (sample
    every switch port's backlog at this interval: ``FabricRunResult.queues``;
    0 for none), flow_rate_interval (count what every transfer sends per
    interval of this length, seconds or a string such as "100us":
    ``FabricRunResult.flow_rates``, each transfer's sending rate over time;
    0 for none), ack_every (the transports' AckEvery, acknowledgement
    coalescing: frames that land in order acknowledged this many at a time;
    1, the default, acknowledges each, as the published protocol) and
    ack_delay (the longest an owed acknowledgement waits; seconds or a
    string such as "100us"; 0: the default, 50 us), nic (the RNICs' NIC
    profile: "auto", the default, the card of host_rate, read back as its
    name: "paper-1g" up to 1 Gb/s, the paper's card, whose PCIe moves at most
    7.7 Gb/s; above it the slowest of "25g-pcie3x8", "100g-pcie3x16",
    "200g-pcie4x16" and "400g-pcie5x16" that reaches host_rate, server RNICs
    of that rate and PCIe; or one of those names; host_rate sets the port's
    rate), payload (bytes per data frame, 1 to mtu - 32) and mtu (every
    port's MTU, 46 to 9216; 9000 for jumbo frames), ecn_by_rate (ecn:
    thresholds per port rate, "RATE:KMIN:KMAX:PMAX,...", in place of ecn_min,
    ecn_max and ecn_pmax, as HPCC's KMIN_MAP, KMAX_MAP, PMAX_MAP), topology_file and
    flow_file (files of HPCC's simulator, topology.txt and flow.txt: a fabric
    and flows of their own instead of topology, its counts, host_rate and
    fabric_rate, and of the workload's parameters, which must be left out),
    fct_file, pfc_file and qlen_file (write the run's transfers, pause
    events (lossless) and queue samples (queue_interval) in the layouts of
    HPCC's fct.txt, pfc.txt and queue monitor; also
    ``FabricRunResult.fct``, ``.pfc_events`` and ``.queues``), defaults (dict of ns-3
    attribute defaults, e.g. {"ns3::DrpDcqcn::RateAi": "10Mbps"}; None sets
    none; those the scenario sets itself, such as
    ns3::EthernetNetDevice::DataRate, are refused naming the parameter to
    use). ns-3's attribute defaults are reset before each run.

    Raises ``TypeError`` for an unknown parameter or a wrong type,
    ``ValueError`` for an invalid value.
    """
    params = dict(locals())
    params["defaults"] = {} if defaults is None else defaults
    launch = Launch.of(params.pop("ranks"), params.pop("program"), params.pop("mpirun"))
    result = FabricRunResult(launch.run(params) if launch else _drp.run_fabric(**params))
    if result.flows_note:
        warnings.warn(result.flows_note, RuntimeWarning, stacklevel=3)
    if result.queue_note:
        note = result.queue_note.removeprefix("note: ").replace("queueInterval", "queue_interval")
        warnings.warn(note, RuntimeWarning, stacklevel=3)
    return result


def hpcc_config(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[str]]:
    """Read a config.txt of HPCC's simulator as the fabric experiment it describes.

    Returns ``(params, notes)``: ``params`` are :func:`run_fabric`'s
    parameters (its topology and flow files, read relative to the current
    directory as HPCC's simulator reads them; its congestion control, ECN
    thresholds per rate, buffer and output files; ns-3 attribute defaults in
    ``params["defaults"]``), ready for ``run_fabric(**params)`` or a
    campaign grid; ``notes`` name, key by key, what drp does not follow as
    HPCC's simulator does. Raises ``ValueError`` for a key or value it
    cannot run (an unknown key, ``CC_MODE`` 3, 7 or 10, ...), naming the
    file and the line. drp's table of every key is in drp-fabrics.rst, "Coming from
    HPCC's simulator".
    """
    raw = _drp.read_hpcc_config(os.fspath(path))
    return dict(raw["params"]), list(raw["notes"])
