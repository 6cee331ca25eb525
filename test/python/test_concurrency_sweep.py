"""scripts/concurrency-sweep: the tables of a quick sweep on a few cells."""

import os
import pathlib
import subprocess
import sys

import pandas as pd
import pytest

import drp

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "concurrency-sweep"
BUILD = pathlib.Path(drp.__file__).resolve().parents[2]

#: The headings of each table (loss and rate head the tables).
HEADINGS = [
    "op",
    "N",
    "method",
    "ok",
    "indirect %",
    "retx",
    "timeouts",
    "mean us",
    "p99 us",
    "Gb/s",
    "% of ideal",
    "events/transfer",
    "wall s",
]


def sweep(*args):
    if not (BUILD / "examples" / "drp-paper-p2p").exists():
        pytest.skip("examples not built")
    env = dict(os.environ, DRP_BUILD=str(BUILD))
    command = [sys.executable, str(SCRIPT), "--quick", "-q", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=100)


def markdown_tables(text):
    """Return {title: DataFrame} of the Markdown tables under bold titles."""
    tables, title, rows = {}, None, []
    for line in text.splitlines() + [""]:
        if line.startswith("**"):
            title = line.strip("*")
        elif line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            tables[title] = pd.DataFrame(rows[2:], columns=rows[0])
            rows = []
    return tables


def test_quick_sweep_tables(tmp_path):
    out, csv = tmp_path / "table.md", tmp_path / "cells.csv"
    done = sweep(
        "--concurrency", "1,32", "--rates", "10Gbps", "--format", "md",
        "--out", str(out), "--csv", str(csv),
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text() == done.stdout
    tables = markdown_tables(done.stdout)
    assert list(tables) == ["FRP = LFP = 0 %, 10Gbps", "FRP = LFP = 5 %, 10Gbps"]
    for table in tables.values():
        assert list(table.columns) == HEADINGS
        # 2 operations x 2 concurrencies x 2 methods
        assert len(table) == 8
        assert set(table["op"]) == {"write", "read"}
        assert set(table["method"]) == {"traditional", "dynamic"}
    lossless = tables["FRP = LFP = 0 %, 10Gbps"]
    for _, row in lossless.iterrows():
        ok, run = row["ok"].split("/")
        assert ok == run == str(max(int(row["N"]), 16))
        assert row["retx"] == "0" and row["timeouts"] == "0" and row["indirect %"] == "0.0"
        assert 0 < float(row["% of ideal"]) <= 100

    cells = pd.read_csv(csv)
    assert len(cells) == 16
    assert (cells["transfers"] == cells["concurrency"].clip(lower=16)).all()
    assert (cells["ideal_pct"] <= 100).all()
    assert (cells["events_per_transfer"] > 0).all()
    clean = cells[cells["loss"] == 0]
    assert (clean["successes"] == clean["transfers"]).all()
    assert (clean["retransmissions"] == 0).all() and (clean["frames_lost"] == 0).all()
    lossy = cells[cells["loss"] == 0.05]
    assert (lossy["frames_lost"] > 0).all()


def test_restructured_text_table():
    done = sweep("--concurrency", "4", "--rates", "1Gbps", "--operations", "write", "--loss", "0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(".. concurrency-sweep --quick:")
    assert "**FRP = LFP = 0 %, 1Gbps**" in lines
    rules = [i for i, line in enumerate(lines) if line.startswith("===")]
    assert len(rules) == 3 and rules[1] == rules[0] + 2
    assert lines[rules[0] + 1].split()[:3] == ["op", "N", "method"]
    body = [line.split() for line in lines[rules[1] + 1 : rules[2]]]
    assert [row[:4] for row in body] == [
        ["write", "4", "traditional", "16/16"],
        ["write", "4", "dynamic", "16/16"],
    ]


@pytest.mark.parametrize(
    "option, message",
    [
        (["--concurrency", "0"], "concurrency = '0' is not valid"),
        (["--operations", "send"], "operation = 'send' is not one of write, read"),
        (["--rates", "fast"], "rate = 'fast' is not valid"),
        (["--jobs", "0"], "jobs = 0 is out of range"),
        (["-d", "Window=4"], "default = 'Window=4' is not NAME=VALUE"),
    ],
)
def test_refused_options(option, message):
    done = sweep(*option)
    assert done.returncode == 2 and message in done.stderr


def test_a_refused_run_ends_the_sweep():
    done = sweep(
        "--concurrency", "1", "--rates", "1Gbps", "--operations", "write", "--loss", "0",
        "-d", "ns3::DrpTransport::NoSuchAttribute=1",
    )
    assert done.returncode == 1 and done.stdout == ""
    assert 'concurrency-sweep: error: drp-paper-p2p failed' in done.stderr
    assert 'ns3::DrpTransport has no attribute "NoSuchAttribute"' in done.stderr
