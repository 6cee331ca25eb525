"""One experiment: :func:`run` and its :class:`RunResult`.

An experiment is ``DrpScenario::Run`` of the C++ module: the same parameters
(snake_case names) and the same numbers as its programs.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

import numpy as np

from drp import _drp

if TYPE_CHECKING:
    import pandas as pd

#: Parameter names, in the order of ``DrpScenario::Config``.
PARAMETERS = tuple(_drp.Config().to_dict())

#: Per-transfer columns, as in the CSV of ``DrpScenario::WriteCsvRows``
#: (times in microseconds).
RECORD_COLUMNS: tuple[str, ...] = (
    "index",
    "tid",
    "mode",
    "status",
    "requests",
    "invalid_replies",
    "timeouts",
    "retransmissions",
    "start_us",
    "end_us",
    "duration_us",
)

#: Counters of a run, summed when runs are pooled.
COUNTERS = (
    "corrupt_transfers",
    "frames_lost",
    "host_drops",
    "drp_drops",
    "buffer_overflows",
    "pcie_requests",
    "ping_replies",
    "simulated_seconds",
    "wall_seconds",
)

#: Fields of :func:`summarize`, in order.
SUMMARY = ("n", "successes", "indirect", "mean_us", "stddev_us", "ci95_us", "note") + COUNTERS

#: What a summary says instead of a mean when no transfer succeeded.
NO_SUCCESSES = "no successful transfers"


_Function = TypeVar("_Function", bound=Callable[..., Any])


def keyword_parameters(config: type) -> Callable[[_Function], _Function]:
    """Decorate a function of keyword-only parameters, the fields of ``config``.

    The function keeps its signature (``inspect.signature``, ``help()``); a
    positional argument raises ``TypeError``, and so does an unknown keyword,
    with the message of the bindings (``unknown parameter 'x'; valid: ...``).
    """

    def decorate(function: _Function) -> _Function:
        names = set(inspect.signature(function).parameters)

        @functools.wraps(function)
        def checked(*args: Any, **params: Any) -> Any:
            if args:
                raise TypeError(
                    f"{function.__name__}() takes keyword arguments only "
                    f"({len(args)} positional given)"
                )
            if not names.issuperset(params):
                config(**params)  # raises TypeError naming the parameter and the valid ones
            return function(**params)

        return checked  # type: ignore[return-value]

    return decorate


def success_note(successes: int) -> str:
    """Return the ``note`` of a summary of ``successes`` successful transfers.

    Says in words why the mean or its interval is missing (NaN): "no
    successful transfers", "one successful transfer: no interval"; else "".
    """
    if successes == 0:
        return NO_SUCCESSES
    if successes == 1:
        return "one successful transfer: no interval"
    return ""


def parameters(**params: Any) -> dict[str, Any]:
    """Return every parameter of an experiment in canonical form.

    Unset parameters get their defaults, values their C++ types (``lfp=0``
    becomes ``0.0``, ``ping_interval="1ms"`` becomes ``0.001`` seconds,
    ``rate="10Gbps"`` becomes ``10000000000`` bit/s), so that equal
    experiments have equal parameters. Raises ``TypeError`` for an
    unknown parameter or a value of the wrong type, ``ValueError`` (naming the
    parameter, its value and the valid range) for an invalid value.
    """
    config = _drp.Config(**params)
    config.validate()
    return config.to_dict()


def parameter_columns(params: Mapping[str, Any]) -> dict[str, Any]:
    """Return parameters as table columns: ``defaults`` as a JSON string."""
    columns = {name: value for name, value in params.items() if name in PARAMETERS}
    columns["defaults"] = json.dumps(params["defaults"], sort_keys=True)
    return columns


def summarize(records: Mapping[str, Any], counters: Mapping[str, Any]) -> dict[str, Any]:
    """Summarize transfer records and the counters of the runs they come from.

    ``records`` maps column names to sequences (a dict of columns or a
    DataFrame, of one run or of several pooled). Returns a dict: ``n``
    (transfers), ``successes``, ``indirect``, ``mean_us``, ``stddev_us`` and
    ``ci95_us`` (half width of the 95% Student-t interval) of the successful
    transfers' durations (NaN where undefined), ``note`` (why they are
    undefined, in words: "no successful transfers", see :func:`success_note`;
    "" when they are defined), then the counters.
    """
    status = np.asarray(records["status"])
    durations = np.asarray(records["duration_us"], dtype=float)[status == "success"]
    interval = _drp.mean_interval(durations.tolist(), 0.95)
    summary = {
        "n": len(status),
        "successes": interval.count,
        "indirect": int(np.count_nonzero(np.asarray(records["mode"]) == "indirect")),
        "mean_us": interval.mean if interval.count > 0 else math.nan,
        "stddev_us": interval.stddev if interval.count > 1 else math.nan,
        "ci95_us": interval.half_width if interval.count > 1 else math.nan,
        "note": success_note(interval.count),
    }
    # A run stored before a counter existed did not count it: unknown (NaN), not 0.
    summary.update((name, counters.get(name, math.nan)) for name in COUNTERS)
    return summary


def records_frame(params: Mapping[str, Any], records: Mapping[str, Any]) -> pd.DataFrame:
    """Return a DataFrame of transfer records with the parameters as columns.

    ``params`` are the parameters of the run, ``records`` its columns.
    """
    import pandas as pd  # on first use: worker processes need no pandas

    data = parameter_columns(params)
    data.update((name, records[name]) for name in RECORD_COLUMNS)
    return pd.DataFrame(data)


class RunResult:
    """What one experiment produced.

    Attributes: ``params`` (every parameter, canonical), ``columns`` (the
    transfer records, one array or list per column of :data:`RECORD_COLUMNS`),
    ``counters`` (dict, see :data:`COUNTERS`), ``version`` (of the module
    that ran it); ``records`` and ``summary`` are derived on first use.
    """

    params: dict[str, Any]
    columns: dict[str, Any]
    counters: dict[str, Any]
    version: str

    def __init__(self, raw: Mapping[str, Any]) -> None:
        """Wrap the dict that ``_drp.run`` returns."""
        self.params = raw["params"]
        self.columns = raw["columns"]
        self.counters = raw["counters"]
        self.version = raw["version"]

    @cached_property
    def records(self) -> pd.DataFrame:
        """pandas DataFrame: one row per transfer, parameters then record columns."""
        return records_frame(self.params, self.columns)

    @cached_property
    def summary(self) -> dict[str, Any]:
        """dict: :func:`summarize` of this run."""
        return summarize(self.columns, self.counters)

    def __repr__(self) -> str:
        s = self.summary
        mean = f"mean {s['mean_us']:.1f} us" if s["successes"] > 0 else NO_SUCCESSES
        return (
            f"<RunResult {self.params['method']} frp={self.params['frp']} "
            f"lfp={self.params['lfp']} run={self.params['run']}: "
            f"{s['successes']}/{s['n']} ok, {mean}>"
        )


@keyword_parameters(_drp.Config)
def run(
    *,
    method: str = "dynamic",
    frp: float = 0.0,
    lfp: float = 0.0,
    loss_model: str = "rate",
    mean_burst: float = 2.5,
    transfers: int = 800,
    concurrency: int = 1,
    size: int = 131072,
    payload: int = 1024,
    operation: str = "write",
    topology: str = "p2p",
    switches: int = 2,
    rate: int | str = 1_000_000_000,
    pings: bool = False,
    ping_interval: float | str = 0.001,
    seed: int = 1,
    run: int = 1,
    paired_streams: bool = True,
    verify: bool = True,
    defaults: Mapping[str, str] | None = None,
    pcap: str = "",
    ascii: str = "",
    nic: str = "paper-1g",
    mtu: int = 1500,
) -> RunResult:
    """Run one experiment in this process and return its :class:`RunResult`.

    Parameters (keyword-only, all optional; defaults are the paper's
    simulation, those of ``drp.Config``; ``defaults=None`` sets no attribute):
    method ("traditional", "dynamic" or "roce"), frp, lfp, loss_model ("rate" or
    "burst"), mean_burst, transfers, concurrency (transfers in flight at
    once, default 1), size, payload, operation ("write" or "read"), topology
    ("p2p" or "line"), switches, rate (line rate of every link: bit/s, or a
    string such as "10Gbps"; default 1 Gb/s), pings, ping_interval (seconds,
    or a string such as "1ms"), seed, run, paired_streams (fresh loss and
    registration streams per transfer, default True), verify, defaults (dict
    of ns-3 attribute defaults, e.g.
    {"ns3::DrpTransport::HandshakeTimeout": "2ms"}), pcap and ascii (file
    prefixes: PREFIX-NODE-DEVICE.pcap and .tr for both RNICs and every switch
    port; "" for none), nic (the RNICs' NIC profile: "paper-1g", the
    paper's card and the default; "paper-testbed", that card in the paper's
    hardware testbed, host included; "25g-pcie3x8", "100g-pcie3x16",
    "200g-pcie4x16" or "400g-pcie5x16", server RNICs of that rate; "auto",
    the card of rate; rate sets the port's rate, and a value in defaults wins
    over the profile's), mtu (every port's MTU, 46 to 9216, 9000 for jumbo
    frames; payload at most mtu - 32). ns-3's attribute defaults are reset
    before each run.

    Raises ``TypeError`` for an unknown parameter or a wrong type,
    ``ValueError`` for an invalid value.
    """
    params = dict(locals())
    params["defaults"] = {} if defaults is None else defaults
    return RunResult(_drp.run(**params))
