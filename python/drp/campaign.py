"""Campaigns: a parameter grid times repetitions, computed into a results store.

On the pattern of ns-3's SEM, without an ns-3 source tree::

    from drp import Campaign

    with Campaign("results.db") as campaign:
        grid = {"method": ["traditional", "dynamic"], "lfp": [0.01, 0.05], "transfers": 100}
        campaign.run(grid, repetitions=5)          # computes only what the store lacks
        transfers = campaign.to_dataframe(grid)    # one row per transfer
        runs = campaign.runs_dataframe(grid)       # one row per run
        settings = campaign.settings_dataframe(grid)  # repetitions pooled

Any parameter can be swept, e.g. the line rate and the transfers in flight::

    grid = {"rate": ["1Gbps", "10Gbps"], "concurrency": [1, 4], "lfp": 0.01}

A run is identified by its parameters (every parameter, canonical, see
:func:`drp.parameters`: ``rate`` in bit/s) and its run number (1..R); running a campaign again
computes only the runs the store lacks, so an interrupted campaign resumes
where it stopped. Each stored run records the module version and the git
revision of the source tree the module was built from (at build time).
Whenever the runs a call selects (those of its grid, or the whole store)
include runs of other builds, it warns (:class:`BuildWarning`), saying how
to recompute them: ``run(..., recompute_other_builds=True)``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import warnings
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Union


from drp import _build, _drp
from drp.executors import run_dask, run_local
from drp.experiment import (
    COUNTERS,
    PARAMETERS,
    SUMMARY,
    parameter_columns,
    parameters,
    success_note,
    summarize,
)
from drp.fabric import (
    FABRIC_COUNTERS,
    FABRIC_PARAMETERS,
    FABRIC_SUMMARY,
    Launch,
    fabric_parameters,
    summarize_fabric,
)
from drp.fabric import SCENARIO as FABRIC_SCENARIO
from drp.store import ADDED_COUNTERS, Store, key_params, params_key

if TYPE_CHECKING:
    import pandas as pd

#: Parameters of single runs only: the prefixes of capture files and the
#: files of HPCC's layouts a run writes.
CAPTURE_PARAMETERS = ("pcap", "ascii", "fct_file", "pfc_file", "qlen_file")

#: A parameter grid: names to a value or a list of values; or a list of grids.
Grid = Union[Mapping[str, Any], Sequence[Mapping[str, Any]]]


def param_combinations(grid: Grid, kind: Kind | None = None) -> list[dict[str, Any]]:
    """Return every combination of a parameter grid, in canonical form.

    ``grid`` maps parameter names to lists (or tuples) of values; any other
    value, such as a dict for ``defaults``, is a single value. The result is
    a list of complete parameter dicts without ``run`` (run numbers come from
    the repetitions), each once. Raises ``TypeError``/``ValueError`` for an
    invalid parameter or value before anything runs.

    ``grid`` may also be a list of grids: their combinations together (for
    parameters that vary together, such as ``frp`` = ``lfp``). ``kind`` is
    :data:`P2P` (the default: ``DrpScenario`` parameters) or :data:`FABRIC`.
    """
    kind = kind or P2P
    combinations: dict[str, dict[str, Any]] = {}
    if isinstance(grid, (list, tuple)):
        for one in grid:
            for params in param_combinations(one, kind):
                combinations.setdefault(params_key(params), params)
        return list(combinations.values())
    if not isinstance(grid, Mapping):
        raise TypeError(
            f"a grid is a mapping of parameter names to values, or a list of them, "
            f"not {type(grid).__name__}"
        )
    if "run" in grid:
        raise ValueError("run is not a grid parameter: run numbers are 1..repetitions")
    names = list(grid)
    choices = [v if isinstance(v, (list, tuple)) else [v] for v in grid.values()]
    for values in itertools.product(*choices):
        params = kind.parameters(**dict(zip(names, values)))
        del params["run"]
        combinations.setdefault(params_key(params), params)
    return list(combinations.values())


def estimated_cost(params: Mapping[str, Any]) -> float:
    """Return a rough relative cost of a run: data frames, weighted for load.

    Only the order of a campaign's runs depends on it (longest first);
    results do not.
    """
    frames = params["transfers"] * -(-params["size"] // params["payload"])
    background = 1.6 if params["pings"] else 1.0  # the pings' own frames and IP stack
    return frames * background * (1 + 2 * params["lfp"] + params["frp"])


def estimated_fabric_cost(params: Mapping[str, Any]) -> float:
    """Return a rough relative cost of a fabric run: bytes the workload offers.

    Only the order of a campaign's runs depends on it (longest first).
    """
    topology = params["topology"]
    hosts = {
        "star": params["hosts"],
        "tree": params["hosts"] ** params["levels"],
        "leaf-spine": params["leaves"] * params["hosts"],
        "fat-tree": params["k"] ** 3 // 4,
    }[topology]
    if params["workload"] == "poisson":
        return hosts * params["load"] * params["duration"] * params["host_rate"] / 8
    senders = params["degree"] or hosts - 1
    flows = {"incast": senders, "permutation": hosts, "all-to-all": hosts * (hosts - 1)}
    return flows[params["workload"]] * params["bytes"]


class Kind:
    """What a campaign's experiments are: their parameters, runs and summaries.

    :data:`P2P` (``DrpScenario``, :func:`drp.run`) or :data:`FABRIC`
    (``FabricScenario``, :func:`drp.run_fabric`). A fabric run's parameters
    carry ``scenario = "fabric"`` (:data:`drp.fabric.SCENARIO`), so that the
    two kinds share one store without sharing an identity, and the workers
    know which to run.
    """

    def __init__(
        self,
        name: str,
        parameters: Callable[..., dict[str, Any]],
        names: Sequence[str],
        summarize: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]],
        summary: Sequence[str],
        counters: Sequence[str],
        cost: Callable[[Mapping[str, Any]], float],
        table: str,
    ) -> None:
        self.name = name
        self._parameters = parameters
        #: parameter names, in the order of the C++ Config
        self.names = names
        #: summarize(transfers, counters) -> dict of :attr:`summary` fields
        self.summarize = summarize
        #: fields of a run's summary, in order
        self.summary = summary
        #: counters of a run, summed when runs are pooled
        self.counters = counters
        #: estimated_cost(params): only orders the runs
        self.estimated_cost = cost
        #: the store's table of this kind's transfers
        self.table = table

    def parameters(self, **params: Any) -> dict[str, Any]:
        """Return every parameter in canonical form (with the kind's marker).

        Captures (``pcap``, ``ascii``) and output files (``fct_file``,
        ``pfc_file``, ``qlen_file``) are no campaign parameters: runs in
        parallel would write the same files. Capture one run with
        :func:`drp.run` or :func:`drp.run_fabric`.
        """
        canonical = self._parameters(**params)
        for name in CAPTURE_PARAMETERS:
            if canonical.get(name, ""):
                raise ValueError(
                    f"{name} = {params[name]!r}: captures are not a campaign parameter (runs "
                    f"in parallel would write the same files); capture one run with "
                    f"drp.run or drp.run_fabric"
                )
        if self.name == FABRIC_SCENARIO:
            canonical["scenario"] = FABRIC_SCENARIO
        return canonical

    def columns(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Return a run's parameters as table columns (without the kind's marker)."""
        if self.name == FABRIC_SCENARIO:
            columns = {name: params[name] for name in self.names if name in params}
            if "defaults" in columns:
                columns["defaults"] = json.dumps(columns["defaults"], sort_keys=True)
            return columns
        return parameter_columns(params)


#: Experiments of the paper's kind: two hosts, losses from an error model.
P2P = Kind("p2p", parameters, PARAMETERS, summarize, SUMMARY, COUNTERS, estimated_cost, "transfers")

#: Fabric experiments: hosts on switches, losses where queues overflow.
FABRIC = Kind(
    FABRIC_SCENARIO,
    fabric_parameters,
    FABRIC_PARAMETERS,
    summarize_fabric,
    FABRIC_SUMMARY,
    FABRIC_COUNTERS,
    estimated_fabric_cost,
    "fabric_transfers",
)


class BuildWarning(UserWarning):
    """Selected runs come from other builds of drp than this one."""


def _describe_build(version, git_revision):
    """Return a build as "version revision" (the revision shortened)."""
    dirty = "-dirty" if git_revision.endswith("-dirty") else ""
    return f"{version} {git_revision.removesuffix('-dirty')[:12]}{dirty}"


def check_workers(workers: int | None) -> None:
    """Raise ``ValueError`` unless ``workers`` is None (one per core) or at least 1."""
    if workers is not None and not workers >= 1:
        raise ValueError(f"workers = {workers} is out of range [1, ...]")


def _other_builds(runs):
    """Return a mask of the stored ``runs`` that other builds computed."""
    return (runs["version"] != _drp.__version__) | (runs["git_revision"] != _build.GIT_REVISION)


class Campaign:
    """A results store (an SQLite file, see :mod:`drp.store`) and the runs to fill it."""

    #: the experiments this campaign runs (:class:`FabricCampaign`: fabric ones)
    kind: Kind = P2P

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        """Open the store at ``path``, creating it if needed.

        A file with tables that is not a store raises ``ValueError``
        (:class:`drp.store.NotAStoreError`) and is left alone. ``read_only``:
        open an existing store for reading only (``FileNotFoundError`` if
        there is none).
        """
        self.store = Store(path, read_only=read_only)

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def missing(self, grid: Grid, repetitions: int = 1) -> list[dict[str, Any]]:
        """Return the runs of ``grid`` x ``repetitions`` the store lacks.

        A list of parameter dicts, ``run`` included, repetition by repetition
        (every combination's run 1 first), so that an interrupted campaign
        leaves whole repetitions behind; within a repetition the longest runs
        come first (:func:`estimated_cost`), so that the workers run out of
        work together rather than one waiting for a long run at the end.
        """
        if repetitions < 1:
            raise ValueError(f"repetitions = {repetitions} is out of range [1, ...]")
        done = self.store.done()
        combinations = sorted(
            param_combinations(grid, self.kind), key=self.kind.estimated_cost, reverse=True
        )
        return [
            dict(params, run=run)
            for run in range(1, repetitions + 1)
            for params in combinations
            if (params_key(params), run) not in done
        ]

    def run(
        self,
        grid: Grid,
        repetitions: int = 1,
        *,
        workers: int | None = None,
        scheduler: str | None = None,
        progress: bool = True,
        recompute_other_builds: bool = False,
        launch: Launch | None = None,
    ) -> int:
        """Compute the runs of ``grid`` x ``repetitions`` the store lacks.

        Runs execute in local worker processes (``workers`` at a time, default
        one per core) or, given the address of a Dask scheduler
        (``scheduler``), on that cluster. Each run is stored as it finishes.
        ``progress`` shows a progress bar (runs done, left, ETA) on standard
        error. Returns the number of runs executed. A failed run stops the
        campaign: the runs not started are cancelled and its exception raised.
        Raises ``ValueError`` for ``workers`` below 1.

        Stored runs of the grid that other builds computed are kept and
        reported by a :class:`BuildWarning`; ``recompute_other_builds``
        deletes those of run numbers 1..``repetitions`` first, so that this
        build computes them again.
        ``launch`` (:class:`drp.fabric.Launch`, fabric runs only): each run by
        that program, e.g. over MPI ranks (:meth:`FabricCampaign.run`).
        """
        check_workers(workers)
        param_combinations(grid, self.kind)  # validate before anything changes
        if recompute_other_builds:
            runs = self._runs(grid)
            others = runs[_other_builds(runs) & (runs["run"] <= repetitions)]
            self.store.delete(others.index)
        tasks = self.missing(grid, repetitions)
        self._warn_other_builds(self._runs(grid), stacklevel=3)
        if not tasks:
            return 0
        from tqdm import tqdm

        results = (
            run_dask(tasks, scheduler, launch) if scheduler else run_local(tasks, workers, launch)
        )
        with tqdm(total=len(tasks), unit="run", desc="drp", disable=not progress) as bar:
            bar.set_postfix_str(f"{len(tasks)} left", refresh=False)
            try:
                for params, result in results:
                    self.store.add(params, result, _build.GIT_REVISION)
                    bar.set_postfix_str(f"{bar.total - bar.n - 1} left", refresh=False)
                    bar.update()
            finally:
                results.close()
        return len(tasks)

    def _warn_other_builds(self, runs, stacklevel):
        """Warn if ``runs`` (stored runs, as :meth:`_runs` returns) include other builds."""
        others = runs[_other_builds(runs)]
        if others.empty:
            return
        counts = others.groupby(["version", "git_revision"]).size()
        builds = ", ".join(
            f"{_describe_build(*build)} ({n} run{'s' if n > 1 else ''})"
            for build, n in counts.items()
        )
        this = _describe_build(_drp.__version__, _build.GIT_REVISION)
        warnings.warn(
            f"{self.store.path}: {len(others)} of the {len(runs)} selected runs come from "
            f"other builds than this one ({this}): {builds}; to recompute them with this "
            "build, run the grid again with recompute_other_builds=True (drp-campaign run "
            "--recompute-other-builds)",
            BuildWarning,
            stacklevel=stacklevel,
        )

    def _runs(self, grid):
        """Return the stored runs of ``grid`` (all with None), indexed by id."""
        runs = self.store.runs_frame().set_index("id")
        if grid is not None:
            keys = {params_key(params) for params in param_combinations(grid, self.kind)}
            return runs[runs["params"].isin(keys)]
        # Every run of this campaign's kind: fabric runs carry the marker.
        marked = runs["params"].map(lambda key: json.loads(key).get("scenario") == FABRIC_SCENARIO)
        marked = marked.astype(bool)
        return runs[marked] if self.kind is FABRIC else runs[~marked]

    def _parameter_frame(self, runs):
        """Return the parameters of ``runs`` as columns, one row per run."""
        import pandas as pd

        rows = [
            self.kind.columns(dict(key_params(params), run=run))
            for params, run in zip(runs["params"], runs["run"])
        ]
        return pd.DataFrame(rows, columns=self.kind.names, index=runs.index)

    def _summary(self, stored):
        """Return a stored run's summary (JSON) as a dict; fabric runs stored
        before the counters of :data:`drp.store.ADDED_COUNTERS` read 0 there."""
        summary = json.loads(stored)
        if self.kind is FABRIC:
            summary = {**dict.fromkeys(ADDED_COUNTERS, 0), **summary}
        return summary

    def to_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return the stored transfers of ``grid`` (of every run with None).

        One row per transfer: the parameters, then the record columns, as
        :attr:`drp.RunResult.records` has them. Warns if the runs include
        other builds (:class:`BuildWarning`).
        """
        runs = self._runs(grid)
        self._warn_other_builds(runs, stacklevel=3)
        transfers = self.store.transfers_frame(runs.index, self.kind.table)
        params = self._parameter_frame(runs).loc[transfers["run_id"]].reset_index(drop=True)
        return params.join(transfers.drop(columns="run_id"))

    def runs_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return one row per stored run of ``grid`` (of every run with None).

        Columns: the parameters, ``version``, ``git_revision``, ``finished``
        (UTC), then the run's summary (see :func:`drp.summarize`). Warns if
        the runs include other builds (:class:`BuildWarning`).
        """
        import pandas as pd

        runs = self._runs(grid)
        self._warn_other_builds(runs, stacklevel=3)
        summaries = pd.DataFrame(
            [self._summary(s) for s in runs["summary"]], columns=self.kind.summary, index=runs.index
        )
        # Runs stored before summaries had a note get theirs from the counts.
        if self.kind is P2P:
            summaries["note"] = [success_note(n) for n in summaries["successes"]]
        else:
            summaries["note"] = [
                "no flows" if n == 0 else success_note(ok)
                for n, ok in zip(summaries["n"], summaries["successes"])
            ]
        frame = self._parameter_frame(runs).join(runs[["version", "git_revision", "finished"]])
        return frame.join(summaries).reset_index(drop=True)

    def settings_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return one row per parameter combination, its repetitions pooled.

        Columns: the parameters but ``run``, ``runs`` (repetitions stored),
        then :func:`drp.summarize` of all their transfers, counters summed.
        Repetitions whose transfers came out identical (a setting in which
        nothing is drawn at random, such as an incast without ``jitter`` or
        failures) are pooled once: their copies would narrow the 95 %
        interval without adding information; the ``note`` says so ("3 runs,
        1 distinct: identical runs counted once"). Warns if the runs include
        other builds (:class:`BuildWarning`).
        """
        import pandas as pd

        runs = self._runs(grid)
        self._warn_other_builds(runs, stacklevel=3)
        transfers = self.store.transfers_frame(runs.index, self.kind.table)
        rows = []
        for params, group in runs.groupby("params", sort=False):
            pooled = transfers[transfers["run_id"].isin(group.index)]
            distinct = _distinct_runs(pooled, group.index)
            pooled = pooled[pooled["run_id"].isin(distinct)]
            summaries = [self._summary(s) for s in group.loc[distinct, "summary"]]
            counters = {
                name: sum(s.get(name, math.nan) for s in summaries) for name in self.kind.counters
            }
            row = self.kind.columns(key_params(params))
            row["runs"] = len(group)
            row.update(self.kind.summarize(pooled, counters))
            if len(distinct) < len(group):
                identical = f"{len(group)} runs, {len(distinct)} distinct: identical runs counted once"
                row["note"] = "; ".join(filter(None, [identical, row.get("note", "")]))
            rows.append(row)
        columns = [name for name in self.kind.names if name != "run"] + ["runs", *self.kind.summary]
        return pd.DataFrame(rows, columns=columns)


def _distinct_runs(transfers, run_ids):
    """Return the ids of the runs whose transfers differ from each earlier run's, in id order.

    ``transfers`` are the runs' stored transfers (a run's in their stored
    order); two runs are the same if their transfers have the same outcomes
    and times.
    """
    time = "fct_us" if "fct_us" in transfers.columns else "duration_us"
    runs = dict(tuple(transfers.groupby("run_id", sort=False)))  # a run without transfers: none
    seen = set()
    distinct = []
    for run_id in sorted(run_ids):
        part = runs.get(run_id, transfers.iloc[:0])
        key = (tuple(part[time].tolist()), tuple(part["status"].tolist()))
        if key not in seen:
            seen.add(key)
            distinct.append(run_id)
    return distinct


class FabricCampaign(Campaign):
    """A campaign of fabric experiments (:func:`drp.run_fabric`), in a results store.

    The same store, resumption, workers and build checks as :class:`Campaign`;
    grids name ``FabricScenario`` parameters::

        with FabricCampaign("results.db") as campaign:
            grid = {"workload": "incast", "degree": [2, 4, 8], "method": ["traditional", "dynamic"]}
            campaign.run(grid, repetitions=5)
            campaign.to_dataframe(grid)        # one row per transfer (FCT, ideal, slowdown)
            campaign.runs_dataframe(grid)      # one row per run (summary, drops)
            campaign.ports_dataframe(grid)     # one row per switch port and run

    Fabric runs and runs of the paper's kind can share one store: each
    campaign sees only its own kind.
    """

    kind = FABRIC

    def run(
        self,
        grid: Grid,
        repetitions: int = 1,
        *,
        ranks: int = 1,
        program: str | os.PathLike[str] | None = None,
        mpirun: str | Sequence[str] = "mpirun",
        workers: int | None = None,
        **options: Any,
    ) -> int:
        """Compute the runs of ``grid`` x ``repetitions`` the store lacks (:meth:`Campaign.run`).

        ``program``, ``ranks`` and ``mpirun`` as :func:`drp.run_fabric`'s:
        each run by the program ``rnic-fabric``, over ``ranks`` MPI ranks
        when above 1; then ``workers`` defaults to the cores divided by
        ``ranks``. The results are those of the run in this process (over
        ranks, with ``ns3::ArrivalsLastScheduler``), stored as this build's.
        Every run of the grid is checked first (``ValueError``: what a run
        over ranks cannot do, see :func:`drp.run_fabric`).
        """
        launch = Launch.of(ranks, program, mpirun)
        if launch:
            check_workers(workers)
            for params in param_combinations(grid, self.kind):
                config = _drp.FabricConfig(**{k: v for k, v in params.items() if k != "scenario"})
                config.require_carried(launch.ranks)
            if workers is None:
                workers = max(1, (os.cpu_count() or 1) // launch.ranks)
        return super().run(grid, repetitions, workers=workers, launch=launch, **options)

    def ports_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return the stored switch-port counters of ``grid`` (of every fabric run with None).

        One row per port and run: the parameters, then the port's columns
        (:data:`drp.fabric.PORT_COLUMNS`).
        """
        runs = self._runs(grid)
        self._warn_other_builds(runs, stacklevel=3)
        ports = self.store.ports_frame(runs.index)
        params = self._parameter_frame(runs).loc[ports["run_id"]].reset_index(drop=True)
        return params.join(ports.drop(columns="run_id"))

    def pfc_events_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return the stored pause events of ``grid`` (of every fabric run with None).

        One row per pause or resume a port received, per run, in time order:
        the parameters and ``run``, then :data:`drp.fabric.PFC_EVENT_COLUMNS`
        (what ``pfc_file`` writes in the layout of HPCC's pfc.txt).
        """
        return self._rows_dataframe(grid, self.store.pfc_events_frame, "pfc")

    def queues_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return the stored queue samples of ``grid`` (runs with ``queue_interval``).

        One row per switch port and tick, per run: the parameters and
        ``run``, then :data:`drp.fabric.QUEUE_COLUMNS`, ``bytes`` as
        ``queue_bytes`` (``bytes`` is the parameter).
        """
        return self._rows_dataframe(grid, self.store.queues_frame, "queue")

    def flow_rates_dataframe(self, grid: Grid | None = None) -> pd.DataFrame:
        """Return what the transfers of ``grid``'s runs sent per interval (runs with
        ``flow_rate_interval``).

        One row per transfer and interval, per run: the parameters and
        ``run``, then :data:`drp.fabric.FLOW_RATE_COLUMNS`, ``bytes`` as
        ``flow_bytes`` (``bytes`` is the parameter).
        """
        return self._rows_dataframe(grid, self.store.flow_rates_frame, "flow")

    def _rows_dataframe(
        self, grid: Grid | None, frame: Callable[[Any], pd.DataFrame], table: str
    ) -> pd.DataFrame:
        """Return ``frame(run ids)`` of ``grid``'s runs, each row with its run's parameters.

        A column of the rows named as a parameter becomes ``table``_name.
        """
        runs = self._runs(grid)
        self._warn_other_builds(runs, stacklevel=4)
        rows = frame(runs.index)
        params = self._parameter_frame(runs).loc[rows["run_id"]].reset_index(drop=True)
        # A column named as a parameter (a queue's bytes) keeps its table's name first.
        rows = rows.rename(columns={c: f"{table}_{c}" for c in rows.columns if c in params})
        return params.join(rows.drop(columns="run_id"))
