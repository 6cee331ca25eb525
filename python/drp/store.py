"""The results store of a campaign: one SQLite file.

Schema (``PRAGMA user_version`` = 2)::

    runs                       one row per run
      id           INTEGER     primary key
      params       TEXT        JSON object of every parameter but run, keys
                               sorted, less those of LATER_PARAMETERS at
                               their earlier value; with run, the identity
                               of the run
      run          INTEGER     ns-3 RNG run number (the repetition, 1..R)
      version      TEXT        drp module version that computed the run
      git_revision TEXT        git revision of the source tree that module was
                               built from (full commit id, "-dirty" if the
                               tree had changes, "unknown" outside git)
      finished     TEXT        UTC time the run was stored, ISO 8601
      wall_seconds REAL        wall-clock time of the simulation
      summary      TEXT        JSON object: drp.summarize() of the run
      UNIQUE (params, run)

    transfers                  one row per transfer
      run_id       INTEGER     runs.id
      index, tid, requests, invalid_replies, timeouts, retransmissions
                   INTEGER     as the record columns of drp.run()
      mode, status TEXT
      start_us, end_us, duration_us
                   REAL
      PRIMARY KEY (run_id, index)
    fabric_transfers           one row per transfer of a fabric run (params
                               with "scenario": "fabric")
      run_id       INTEGER     runs.id
      seq          INTEGER     the transfer's row in the run (0, 1, ...)
      source, destination, switches, bytes, requests, invalid_replies,
      timeouts, retransmissions, cnps
                   INTEGER     as the columns of drp.run_fabric()
      status, mode TEXT
      start_us, fct_us, ideal_us, slowdown
                   REAL
      PRIMARY KEY (run_id, seq)
    fabric_ports               one row per switch port of a fabric run
      run_id       INTEGER     runs.id
      switch, port, frames_out, drops, peak_frames, peak_bytes, ecn_marks,
      pauses_sent, pauses_received
                   INTEGER
      time_paused_seconds
                   REAL
      PRIMARY KEY (run_id, switch, port)
    fabric_pfc_events          every pause and resume a port received (lossless
                               fabric runs; FabricRunResult.pfc_events)
      run_id       INTEGER     runs.id
      seq          INTEGER     the event's row in the run (0, 1, ...)
      time_s       REAL
      node, switch, port, class, pause
                   INTEGER     as the columns of FabricRunResult.pfc_events
      PRIMARY KEY (run_id, seq)
    fabric_queues              every switch port's backlog at every tick (fabric
                               runs with queue_interval; FabricRunResult.queues)
      run_id       INTEGER     runs.id
      seq          INTEGER     the sample's row in the run
      time_s       REAL
      switch, port, frames, bytes, busy, paused
                   INTEGER
      PRIMARY KEY (run_id, seq)
    fabric_flow_rates          what every transfer sent per interval (fabric runs
                               with flow_rate_interval; FabricRunResult.flow_rates)
      run_id       INTEGER     runs.id
      seq          INTEGER     the row in the run
      time_s, rate_bps
                   REAL
      transfer, source, destination, bytes, wire_bytes
                   INTEGER
      PRIMARY KEY (run_id, seq)

The fabric tables came after the first stores: opening an older store for
writing adds them (they are empty), and a store opened read-only without
them reads as one without fabric runs.

Schema 2 added the columns of :data:`ADDED_COLUMNS` (a transfer's CNPs, a
port's ECN marks and PFC pauses) and the summary counters of
:data:`ADDED_COUNTERS`. Opening a schema-1 store for writing migrates it: the
columns are added, 0 for the runs already stored, and ``user_version``
becomes 2. Read-only, a schema-1 store reads the same without being changed.
Either way a run of schema 1 reads 0 in those columns and counters, which
is what it had unless it ran with ``ecn`` or ``lossless`` (those marked or
paused uncounted): recompute such runs (they are of another build,
``recompute_other_builds``). The migration also stores every run's identity
in today's form: schema-1 stores written while ``ecn``, ``ecn_min``,
``ecn_max``, ``ecn_pmax``, ``cc`` and ``rates`` were not yet among
:data:`LATER_PARAMETERS` hold those at their defaults in their identities;
read-only, such a store's fabric runs are not found by a grid (open it for
writing once).

Only the process that drives a campaign writes; each run is committed on its
own, so an interrupted campaign keeps every run that finished.
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import pathlib
import sqlite3
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    import pandas as pd

from drp.experiment import RECORD_COLUMNS
from drp.fabric import (
    FLOW_RATE_COLUMNS,
    LOSSLESS_COUNTERS,
    PFC_EVENT_COLUMNS,
    PORT_COLUMNS,
    QUEUE_COLUMNS,
    TRANSFER_COLUMNS,
)

SCHEMA_VERSION = 2

#: Columns that schema 2 added to the fabric tables; runs stored before read 0.
ADDED_COLUMNS = {
    "fabric_transfers": ("cnps",),
    "fabric_ports": ("ecn_marks", "pauses_sent", "pauses_received", "time_paused_seconds"),
}

#: Counters that schema 2 added to fabric runs' summaries; runs stored before read 0.
ADDED_COUNTERS = LOSSLESS_COUNTERS


def _sql_type(column):
    """Return the SQLite type of a record, transfer or port column."""
    if column in ("mode", "status"):
        return "TEXT"
    real = column.endswith(("_us", "_seconds")) or column in ("slowdown", "time_s", "rate_bps")
    return "REAL" if real else "INTEGER"


def _quoted(columns):
    """Return column names quoted for SQL, comma-separated."""
    return ", ".join(f'"{c}"' for c in columns)


_COLUMNS = ", ".join(f'"{c}"' for c in RECORD_COLUMNS)

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    params TEXT NOT NULL,
    run INTEGER NOT NULL,
    version TEXT NOT NULL,
    git_revision TEXT NOT NULL,
    finished TEXT NOT NULL,
    wall_seconds REAL NOT NULL,
    summary TEXT NOT NULL,
    UNIQUE (params, run)
);
CREATE TABLE IF NOT EXISTS transfers (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    {", ".join(f'"{c}" {_sql_type(c)} NOT NULL' for c in RECORD_COLUMNS)},
    PRIMARY KEY (run_id, "index")
);
PRAGMA user_version = {SCHEMA_VERSION};
"""

#: The tables of a fabric run's rows in their order (run_id, seq, then the
#: columns): the table, the key of the run's result that holds the columns,
#: and the columns.
_SEQ_TABLES = (
    ("fabric_transfers", "columns", TRANSFER_COLUMNS),
    ("fabric_pfc_events", "pfc_events", PFC_EVENT_COLUMNS),
    ("fabric_queues", "queues", QUEUE_COLUMNS),
    ("fabric_flow_rates", "flow_rates", FLOW_RATE_COLUMNS),
)


def _seq_table(table, columns):
    """Return the SQL that makes a table of rows in their run's order."""
    return f"""
CREATE TABLE IF NOT EXISTS {table} (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    {", ".join(f'"{c}" {_sql_type(c)} NOT NULL' for c in columns)},
    PRIMARY KEY (run_id, seq)
);"""


#: The tables of fabric runs (added to older stores when opened for writing).
_FABRIC_SCHEMA = "".join(_seq_table(table, columns) for table, _, columns in _SEQ_TABLES) + f"""
CREATE TABLE IF NOT EXISTS fabric_ports (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    {", ".join(f'"{c}" {_sql_type(c)} NOT NULL' for c in PORT_COLUMNS)},
    PRIMARY KEY (run_id, "switch", "port")
);
"""


#: Parameters added after the first stores were written, with the value that
#: every run had before they existed. A run's identity leaves them out at that
#: value, so that the runs of an older store keep their identity: a campaign
#: resumes them rather than computing them again.
LATER_PARAMETERS = {
    "concurrency": 1,
    "rate": 1_000_000_000,
    "jitter": 0.0,
    "ecmp_seed": 0,
    "ecmp_per_run": False,
    "timeout_mode": "fixed",
    "pcap": "",
    "ascii": "",
    "lossless": False,
    "buffer": "12MiB",
    "threshold": "dynamic",
    "ecn": False,
    "ecn_min": "4KB",
    "ecn_max": "16KB",
    "ecn_pmax": 0.2,
    "cc": "none",
    "rates": False,
    "receiver": 0,
    "stagger": 0.0,
    "victims": 0,
    "victim_bytes": 65536,
    "window": 0,
    "queue_interval": 0.0,
    "ack_every": 1,
    "ack_delay": 0.0,
    "nic": "paper-1g",
    "payload": 1024,
    "mtu": 1500,
}


#: Parameters that fabric runs gained after their first stores were written,
#: with the value every fabric run had before (as :data:`LATER_PARAMETERS`;
#: kept apart because runs of the paper's kind had them from the start).
LATER_FABRIC_PARAMETERS: dict[str, Any] = {
    "defaults": {},
    "ecn_by_rate": "",
    "topology_file": "",
    "flow_file": "",
    "fct_file": "",
    "pfc_file": "",
    "qlen_file": "",
    "pfc_watchdog": 0.2,
    "pfc_watchdog_action": "drop",
    "pfc_storm": "",
    "ecn_marking": "red",
    "flow_rate_interval": 0.0,
    # Runs before had the published timers, lossless too.
    "lossless_timers": False,
}

#: Later parameters that act on lossless runs only: a lossy run's identity
#: leaves them out whatever their value, so that it stays the one it had.
_LOSSLESS_ONLY = ("lossless_timers",)


def _later(params: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return the later parameters, with their earlier values, of ``params``' kind."""
    if params.get("scenario") == "fabric":
        return {**LATER_PARAMETERS, **LATER_FABRIC_PARAMETERS}
    return LATER_PARAMETERS


def params_key(params: Mapping[str, Any]) -> str:
    """Return the identity of a run's parameters (all but run) as stored."""
    later = _later(params)
    return json.dumps(
        {
            name: value
            for name, value in params.items()
            if name != "run"
            and not (name in later and value == later[name])
            and not (name in _LOSSLESS_ONLY and not params.get("lossless"))
        },
        sort_keys=True,
    )


def key_params(key: str) -> dict[str, Any]:
    """Return the parameters (all but run) of a stored identity (see :func:`params_key`)."""
    params = json.loads(key)
    return {**_later(params), **params}


class NotAStoreError(ValueError):
    """A file that is not a drp results store (nor an empty one)."""


class Store:
    """A campaign's SQLite file, created on first use.

    A file becomes a new store only if it holds no tables (a new or empty
    file); a database with other tables, or of another schema version, is
    refused (:class:`NotAStoreError`) and left as it is.
    """

    def __init__(self, path: str | os.PathLike[str], read_only: bool = False) -> None:
        """Open (or create) the store at ``path``.

        ``read_only``: open an existing store for reading only; a missing
        file raises ``FileNotFoundError``, a file without tables
        :class:`NotAStoreError`. Errors of SQLite (``sqlite3.Error``, such as
        a file that is not a database) name the path.
        """
        self.path = str(path)
        if read_only and not os.path.exists(self.path):
            raise FileNotFoundError(f"{self.path}: no such results store")
        try:
            if read_only:
                uri = pathlib.Path(self.path).resolve().as_uri() + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True)
            else:
                self._db = sqlite3.connect(self.path)
        except sqlite3.Error as error:
            raise type(error)(f"{self.path}: {error}") from None
        try:
            self._open(read_only)
        except BaseException as error:
            self._db.close()
            if isinstance(error, sqlite3.Error):
                raise type(error)(f"{self.path}: {error}") from None
            raise

    def _open(self, read_only):
        """Check that the file is a store (or has no tables: make it one)."""
        self._db.execute("PRAGMA foreign_keys = ON")
        tables = sorted(
            name
            for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not name.startswith("sqlite_")
        )
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if not tables and version == 0:
            if read_only:
                raise NotAStoreError(f"{self.path}: not a drp results store (it has no tables)")
            self._db.executescript(_SCHEMA)
        elif version > SCHEMA_VERSION:
            raise NotAStoreError(
                f"{self.path}: store schema {version}, this drp reads schemas 1 to "
                f"{SCHEMA_VERSION} (a newer drp wrote it: use that one)"
            )
        elif version == 0 or not {"runs", "transfers"} <= set(tables):
            has = f"tables {', '.join(tables)}" if tables else "no tables"
            raise NotAStoreError(f"{self.path}: not a drp results store (it has {has})")
        elif version < SCHEMA_VERSION and not read_only:
            self._migrate(tables)
        if not read_only:
            self._db.executescript(_FABRIC_SCHEMA)
        self._fabric = read_only is False or "fabric_transfers" in tables
        #: the fabric tables this store has (a read-only older store lacks later ones)
        self._tables = set(tables) | (
            {"fabric_ports", *(table for table, _, _ in _SEQ_TABLES)}
            if not read_only
            else set()
        )
        #: per table, the columns of ADDED_COLUMNS it lacks (read as 0)
        self._lacking = {
            table: [c for c in added if c not in self._table_columns(table)]
            for table, added in ADDED_COLUMNS.items()
        }

    def _table_columns(self, table):
        """Return the names of a table's columns (none for a missing table)."""
        return {row[1] for row in self._db.execute(f'PRAGMA table_info("{table}")')}

    def _migrate(self, tables):
        """Bring a schema-1 store to schema 2 in one transaction: add ADDED_COLUMNS, 0."""
        self._db.execute("BEGIN")
        try:
            for table, added in ADDED_COLUMNS.items():
                if table not in tables:
                    continue  # made whole by _FABRIC_SCHEMA
                have = self._table_columns(table)
                for column in added:
                    if column not in have:
                        self._db.execute(
                            f'ALTER TABLE {table} ADD COLUMN "{column}" {_sql_type(column)} '
                            "NOT NULL DEFAULT 0"
                        )
            self._rekey()
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.rollback()
            raise
        self._db.commit()

    def _rekey(self):
        """Store every run's identity in today's form (:func:`params_key`).

        Schema-1 stores written while ``ecn``, ``ecn_min``, ``ecn_max``,
        ``ecn_pmax``, ``cc`` and ``rates`` were not yet in
        :data:`LATER_PARAMETERS` hold them in their identities at their
        default values; without them a later campaign would not find those
        runs. Should a store hold one run in both forms, the newer is kept.
        """
        rows = self._db.execute("SELECT id, params, run FROM runs ORDER BY id DESC").fetchall()
        for run_id, key, run in rows:
            canonical = params_key(key_params(key))
            if canonical == key:
                continue
            clash = self._db.execute(
                "SELECT id FROM runs WHERE params = ? AND run = ?", (canonical, run)
            ).fetchone()
            if clash:
                self._db.execute("DELETE FROM runs WHERE id = ?", (run_id,))
            else:
                self._db.execute("UPDATE runs SET params = ? WHERE id = ?", (canonical, run_id))

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def done(self) -> set[tuple[str, int]]:
        """Return the set of (params key, run) of every stored run."""
        return set(self._db.execute("SELECT params, run FROM runs"))

    def builds(self) -> set[tuple[str, str]]:
        """Return the set of (version, git revision) of the stored runs."""
        return set(self._db.execute("SELECT DISTINCT version, git_revision FROM runs"))

    def add(self, params: Mapping[str, Any], result: Mapping[str, Any], git_revision: str) -> None:
        """Store one run in one transaction.

        ``params`` are its parameters (run included), ``result`` the dict of
        the worker (columns, counters, summary, version). A run already stored
        (by another process) is left as it is.
        """
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (params, run, version, git_revision, finished, "
                "wall_seconds, summary) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (params, run) DO NOTHING",
                (
                    params_key(params),
                    params["run"],
                    result["version"],
                    git_revision,
                    datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    result["counters"]["wall_seconds"],
                    json.dumps(result["summary"]),
                ),
            )
            if cursor.rowcount == 0:
                return
            if "ports" in result:
                self._add_fabric(cursor.lastrowid, result)
                return
            columns = result["columns"]
            rows = zip(
                itertools.repeat(cursor.lastrowid), *(_as_sql(columns[c]) for c in RECORD_COLUMNS)
            )
            placeholders = ", ".join("?" * (len(RECORD_COLUMNS) + 1))
            self._db.executemany(
                f"INSERT INTO transfers (run_id, {_COLUMNS}) VALUES ({placeholders})", rows
            )

    def _add_fabric(self, run_id, result):
        """Store a fabric run's transfers, pause events, queue samples, flow rates
        and ports (inside the caller's transaction)."""
        for table, key, names in _SEQ_TABLES:
            columns = result.get(key) or {}
            count = len(columns.get(names[0], []))
            rows = zip(
                itertools.repeat(run_id), range(count), *(_as_sql(columns[c]) for c in names)
            )
            placeholders = ", ".join("?" * (len(names) + 2))
            self._db.executemany(
                f"INSERT INTO {table} (run_id, seq, {_quoted(names)}) VALUES ({placeholders})",
                rows,
            )
        ports = result["ports"]
        rows = zip(itertools.repeat(run_id), *(_as_sql(ports[c]) for c in PORT_COLUMNS))
        placeholders = ", ".join("?" * (len(PORT_COLUMNS) + 1))
        self._db.executemany(
            f"INSERT INTO fabric_ports (run_id, {_quoted(PORT_COLUMNS)}) VALUES ({placeholders})",
            rows,
        )

    def delete(self, run_ids: Iterable[int]) -> None:
        """Delete the given runs and their transfers, in one transaction."""
        with self._db:
            self._db.executemany("DELETE FROM runs WHERE id = ?", ((int(i),) for i in run_ids))

    def runs_frame(self) -> pd.DataFrame:
        """Return the runs table as a DataFrame (params and summary as JSON)."""
        import pandas as pd

        return pd.read_sql_query("SELECT * FROM runs ORDER BY id", self._db)

    def _select(self, run_ids, table, columns, order):
        """Return ``columns`` of ``table`` for the given runs as a DataFrame."""
        import pandas as pd

        if table != "transfers" and (not self._fabric or table not in self._tables):
            return pd.DataFrame(columns=["run_id", *columns])  # an older store, read-only
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id INTEGER PRIMARY KEY)")
        with self._db:
            self._db.execute("DELETE FROM wanted")
            self._db.executemany("INSERT INTO wanted VALUES (?)", ((int(i),) for i in run_ids))
        lacking = self._lacking.get(table, ())
        selected = ", ".join(f'0 AS "{c}"' if c in lacking else f'"{c}"' for c in columns)
        return pd.read_sql_query(
            f"SELECT run_id, {selected} FROM {table} JOIN wanted ON run_id = wanted.id "
            f"ORDER BY run_id, {order}",
            self._db,
        )

    def transfers_frame(self, run_ids: Iterable[int], table: str = "transfers") -> pd.DataFrame:
        """Return the transfers of the given runs as a DataFrame, each run's in end order.

        ``table``: "transfers" (runs of the paper's kind) or "fabric_transfers".
        """
        if table == "fabric_transfers":
            return self._select(run_ids, table, TRANSFER_COLUMNS, "seq")
        return self._select(run_ids, table, RECORD_COLUMNS, "transfers.rowid")

    def ports_frame(self, run_ids: Iterable[int]) -> pd.DataFrame:
        """Return the switch ports of the given fabric runs as a DataFrame."""
        return self._select(run_ids, "fabric_ports", PORT_COLUMNS, '"switch", "port"')

    def pfc_events_frame(self, run_ids: Iterable[int]) -> pd.DataFrame:
        """Return the pause events of the given fabric runs as a DataFrame, in time order."""
        return self._select(run_ids, "fabric_pfc_events", PFC_EVENT_COLUMNS, "seq")

    def queues_frame(self, run_ids: Iterable[int]) -> pd.DataFrame:
        """Return the queue samples of the given fabric runs as a DataFrame, in time order."""
        return self._select(run_ids, "fabric_queues", QUEUE_COLUMNS, "seq")

    def flow_rates_frame(self, run_ids: Iterable[int]) -> pd.DataFrame:
        """Return what the given fabric runs' transfers sent per interval, in time order."""
        return self._select(run_ids, "fabric_flow_rates", FLOW_RATE_COLUMNS, "seq")


def _as_sql(column):
    """Return a column's values as Python objects SQLite accepts (not numpy scalars)."""
    return column.tolist() if hasattr(column, "tolist") else column
