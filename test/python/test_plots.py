"""Plots of campaign results (drp.plots, drp-campaign plot): values, selection, errors."""

import pathlib
import subprocess
import sys

import pytest

import drp
from drp.plots import column, plot_cdf, plot_settings, select

ROOT = pathlib.Path(__file__).resolve().parents[2]

GRID = {
    "method": ["traditional", "dynamic"],
    "frp": [0.0, 0.5],
    "transfers": 5,
    "size": 16384,
    "defaults": [{"ns3::IndirectBuffer::Capacity": "4096"}, {"ns3::IndirectBuffer::Capacity": "65536"}],
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("plots") / "results.db"
    with drp.Campaign(path) as campaign:
        campaign.run(GRID, workers=2, progress=False)
    return path


def test_column_reads_parameters_and_attribute_defaults(store):
    with drp.Campaign(store, read_only=True) as campaign:
        settings = campaign.settings_dataframe()
    assert sorted(column(settings, "frp").unique()) == [0.0, 0.5]
    assert sorted(column(settings, "ns3::IndirectBuffer::Capacity").unique()) == [4096, 65536]
    with pytest.raises(ValueError, match="'nope' is neither a column nor an attribute default"):
        column(settings, "nope")


def test_plot_settings_and_cdf(store, tmp_path):
    with drp.Campaign(store, read_only=True) as campaign:
        settings = campaign.settings_dataframe()
        transfers = campaign.to_dataframe()
    dynamic = select(settings, {"method": ["dynamic"]})
    assert set(dynamic["method"]) == {"dynamic"} and len(dynamic) == 4
    points = plot_settings(
        dynamic, "ns3::IndirectBuffer::Capacity", "mean_us", tmp_path / "t.pdf", by=["frp"]
    )
    assert list(points["series"].unique()) == ["frp=0.0", "frp=0.5"]
    assert list(points["x"]) == [4096, 65536, 4096, 65536]
    assert points["ci95"].notna().all()
    assert (tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")
    table = plot_cdf(transfers, tmp_path / "c.png", by=["method"])
    assert list(table["n"]) == [20, 20]
    assert (table["median"] <= table["p99"]).all() and (table["p99"] <= table["max"]).all()
    with pytest.raises(ValueError, match="no runs match"):
        select(settings, {"frp": ["0.7"]})


def run(*args):
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drp-campaign"), *args],
        capture_output=True,
        text=True,
    )


def test_command_line(store, tmp_path):
    out = tmp_path / "m.png"
    done = run("plot", str(store), "--x", "frp", "--by", "method", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "method=dynamic" in done.stdout and out.stat().st_size > 10000
    done = run("plot", str(store), "--x", "nope", "-o", str(out))
    assert done.returncode == 2 and "'nope' is neither a column" in done.stderr
    done = run("plot", str(store), "-o", str(out))
    assert done.returncode == 2 and "--x NAME is required" in done.stderr
    done = run("plot", str(store), "--cdf", "--where", "frp=0.7", "-o", str(out))
    assert done.returncode == 2 and "no runs match" in done.stderr
