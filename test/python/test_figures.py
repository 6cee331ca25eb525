"""Every figure command writes its files from a small campaign."""

import os
import pathlib
import subprocess
import sys

import pandas as pd
import pytest

from drp.figures import FIGURES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_all_figures_from_a_small_campaign(tmp_path):
    out = tmp_path / "figures"
    command = [
        sys.executable,
        str(ROOT / "scripts" / "drp-figures"),
        "all",
        "--transfers", "10",
        "--repetitions", "2",
        "--max-validation-repetitions", "2",
        "--store", str(tmp_path / "paper.db"),
        "--out", str(out),
        "-q",
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    # 0: the validation holds, 1: it does not (expected at this size); 2 would be a usage error.
    assert done.returncode in (0, 1), done.stderr
    for name in FIGURES:
        for extension in ("png", "pdf", "csv", "md"):
            path = out / f"{name}.{extension}"
            assert path.stat().st_size > 0, path
        table = pd.read_csv(out / f"{name}.csv")
        assert {"traditional_us", "dynamic_us", "reduction_pct"} <= set(table.columns)
        assert (table["runs"] == 2).all()
        assert (out / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert (out / f"{name}.pdf").read_bytes()[:4] == b"%PDF"
    validation = (out / "validation.md").read_text()
    assert "Fig. 6" in validation and "published" in validation


def test_one_figure_and_resume(tmp_path):
    args = ["--transfers", "5", "--repetitions", "2", "--store", str(tmp_path / "s.db"),
            "--out", str(tmp_path), "-q"]
    script = str(ROOT / "scripts" / "drp-figures")
    first = subprocess.run([sys.executable, script, "fig6", *args], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "fig6.csv").read_text()
    # A second invocation finds every run in the store: same table.
    second = subprocess.run([sys.executable, script, "fig6", *args], capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    assert (tmp_path / "fig6.csv").read_text() == before


def test_unknown_figure_is_a_usage_error(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drp-figures"), "fig7", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "fig7" in done.stderr and "fig4" in done.stderr


def test_fabric_figures_from_a_small_campaign(tmp_path, monkeypatch):
    """The fabric figures' tables, plots and Markdown, on grids cut down to seconds."""
    from drp import FabricCampaign, fabric_figures

    monkeypatch.setattr(fabric_figures, "INCAST_DEGREES", (2, 4))
    monkeypatch.setattr(fabric_figures, "WEB_SEARCH_LOADS", (0.5,))
    monkeypatch.setitem(fabric_figures.WEB_SEARCH, "duration", "20ms")
    monkeypatch.setitem(fabric_figures.WEB_SEARCH, "frp", 0.3)
    with FabricCampaign(tmp_path / "fabric.db") as campaign:
        for name in fabric_figures.FABRIC_FIGURES:
            table = fabric_figures.make_fabric_figure(
                campaign, name, tmp_path, 2, workers=2, progress=False
            )
            for extension in ("png", "pdf", "csv", "md"):
                assert (tmp_path / f"{name}.{extension}").stat().st_size > 0
            assert (table["runs"] == 2).all()
        incast = pd.read_csv(tmp_path / "incast.csv")
        assert list(zip(incast["frp"], incast["degree"])) == [(0, 2), (0, 4), (0.05, 2), (0.05, 4)]
        # Without registration failures both methods go direct: the same flows, the same times.
        no_failures = incast[incast["frp"] == 0]
        assert (no_failures["traditional_mean_us"] == no_failures["dynamic_mean_us"]).all()
        assert (no_failures["reduction_pct"] == 0).all()
        web = pd.read_csv(tmp_path / "web-search.csv")
        assert web["bucket"].tolist() == [
            *(label for label, _, _ in fabric_figures.SIZE_BUCKETS),
            fabric_figures.FAILED,
        ]
        sized = web[web["bucket"] != fabric_figures.FAILED]
        transfers = campaign.to_dataframe(fabric_figures.fabric_grids("web-search"))
        assert sized["traditional_flows"].sum() == (transfers["method"] == "traditional").sum()
        assert (web["dynamic_p50"].dropna() >= 1).all()
        markdown = (tmp_path / "web-search.md").read_text()
        assert "| 50% | < 100 kB | 2 |" in markdown and "registration failed" in markdown


def test_fabric_is_a_figure_group(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drp-figures"), "fabric", "fig7"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "valid: fig4" in done.stderr and "all, fabric" in done.stderr


def test_argument_figures_from_a_small_campaign(tmp_path, monkeypatch):
    """The argument figures' tables, plots and Markdown, on grids cut down to seconds."""
    from drp import FabricCampaign, fabric_figures

    monkeypatch.setattr(fabric_figures, "INCAST_DEGREES", (2, 8))
    monkeypatch.setattr(fabric_figures, "WEB_SEARCH_LOADS", (0.5,))
    monkeypatch.setattr(fabric_figures, "ARGUMENT_DURATION", "10ms")
    monkeypatch.setattr(fabric_figures, "ARGUMENT_FRPS", (0.0, 0.3))
    networks = list(fabric_figures.NETWORKS)
    with FabricCampaign(tmp_path / "fabric.db") as campaign:
        for name in fabric_figures.ARGUMENT_FIGURES:
            grids = fabric_figures.fabric_grids(name)
            assert all(grid["timeout_mode"] == "adaptive" for grid in grids)
            assert [fabric_figures.network_of(grid) for grid in grids] == networks
            assert grids[2]["buffer"] == fabric_figures.ARGUMENT_BUFFERS[name]
            assert "buffer" not in grids[0] and "buffer" not in grids[1]
            table = fabric_figures.make_fabric_figure(
                campaign, name, tmp_path, 2, workers=2, progress=False
            )
            for extension in ("png", "pdf", "csv", "md"):
                assert (tmp_path / f"{name}.{extension}").stat().st_size > 0
            assert (table["runs"] == 2).all()
        incast = pd.read_csv(tmp_path / "lossless-incast.csv")
        assert len(incast) == 2 * 2 * 3 and incast["network"].tolist()[:3] == networks
        # Without congestion control nothing marks; without PFC nothing pauses.
        runs = campaign.runs_dataframe(fabric_figures.fabric_grids("lossless-incast"))
        assert (runs[runs["cc"] == "none"]["ecn_marks"] == 0).all()
        assert (runs[runs["cc"] == "dcqcn"]["cnps"] > 0).any()
        lossy = incast[incast["network"] != "lossless+DCQCN"]
        assert (lossy["dynamic_paused_ms"] == 0).all()
        assert (lossy["traditional_port_paused_ms"] == 0).all()
        lossless = incast[incast["network"] == "lossless+DCQCN"]
        assert (lossless["dynamic_drops"] == 0).all() and (lossless["traditional_drops"] == 0).all()
        # RoCE beside them: lossless it drops and resends nothing; lossy, go-back-N resends.
        assert (lossless["roce_drops"] == 0).all() and (lossless["roce_retransmissions"] == 0).all()
        assert (lossless["roce_ok"] == lossless["roce_flows"]).all()
        lossy8 = incast[(incast["network"] == "lossy") & (incast["degree"] == 8)]
        assert (lossy8["roce_retransmissions"] > lossy8["dynamic_retransmissions"]).all()
        assert "roce p99" in (tmp_path / "lossless-incast.md").read_text()
        # The 8:1 incast drops in 100-frame queues; the mean over runs is what a run drops.
        plain = runs[(runs["cc"] == "none") & (runs["degree"] == 8) & (runs["method"] == "dynamic")]
        at = (incast["degree"] == 8) & (incast["frp"] == 0.3)
        row = incast[(incast["network"] == "lossy") & at]
        expected = plain[plain["frp"] == 0.3]["drops"] + plain[plain["frp"] == 0.3]["link_drops"]
        assert row["dynamic_drops"].iloc[0] == pytest.approx(expected.mean())
        web = pd.read_csv(tmp_path / "lossless-web-search.csv")
        labels = [label for label, _, _ in fabric_figures.SIZE_BUCKETS] + [fabric_figures.ALL_FLOWS]
        at_zero = web[web["frp"] == 0]
        assert at_zero["bucket"].tolist() == labels * 3
        assert web[web["frp"] == 0.3]["bucket"].tolist() == (labels + [fabric_figures.FAILED]) * 3
        transfers = campaign.to_dataframe(fabric_figures.fabric_grids("lossless-web-search"))
        whole = web[web["bucket"] == fabric_figures.ALL_FLOWS]
        assert whole["dynamic_flows"].sum() == (transfers["method"] == "dynamic").sum()
        sized = web[web["bucket"].isin(labels[:-1])]
        assert sized["dynamic_flows"].sum() == whole["dynamic_flows"].sum()
        # At FRP 0 both methods go direct: the same flows, the same times.
        assert (at_zero["traditional_p99"].fillna(-1) == at_zero["dynamic_p99"].fillna(-1)).all()
        markdown = (tmp_path / "lossless-web-search.md").read_text()
        assert "| 30% | 50% | lossless+DCQCN | all flows | 2 |" in markdown
        assert "RNICs paused (ms)" in markdown


def test_argument_is_a_figure_group():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drp-figures"), "argument", "fig7"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "lossless-incast" in done.stderr
    assert "all, fabric, congestion, argument" in done.stderr


def test_long_flow_loss_figure_from_a_small_campaign(tmp_path, monkeypatch):
    """One long write against link loss, on a grid cut down to seconds: RoCE's go-back-N
    loses more of its lossless goodput than DRP's methods at the highest loss rate."""
    from drp import Campaign, loss_figures

    monkeypatch.setattr(loss_figures, "LOSS_RATES", (0.0, 1e-3, 1e-2))
    monkeypatch.setattr(loss_figures, "LONG_FLOW", {**loss_figures.LONG_FLOW,
                                                    "size": 1024 * 1024, "transfers": 4})
    with Campaign(tmp_path / "loss.db") as campaign:
        table = loss_figures.make_loss_figure(campaign, "long-flow-loss", tmp_path, 2,
                                              workers=2, progress=False)
    for extension in ("png", "pdf", "csv", "md"):
        assert (tmp_path / f"long-flow-loss.{extension}").stat().st_size > 0
    assert table["lfp"].tolist() == [0.0, 1e-3, 1e-2] and (table["runs"] == 2).all()
    for m in loss_figures.METHODS:
        assert table[f"{m}_of_lossless"].iloc[0] == 1.0
        assert (table[f"{m}_ok"] == table[f"{m}_n"]).all()
    worst = table.iloc[-1]
    assert worst["roce_of_lossless"] < worst["dynamic_of_lossless"]
    assert "roce (Gb/s)" in (tmp_path / "long-flow-loss.md").read_text()


def test_connection_per_request_figure_from_a_small_campaign(tmp_path, monkeypatch):
    """A connection per write against a long-lived queue pair, on a grid cut down to
    seconds: RoCEv2 through the connection manager takes longer than over a queue pair
    connected beforehand, and DRP's handshake lies between them at 100 Gb/s."""
    from drp import Campaign, loss_figures

    monkeypatch.setattr(loss_figures, "REQUEST_SIZES", (4096,))
    monkeypatch.setattr(loss_figures, "REQUEST_TRANSFERS", 3)
    monkeypatch.setattr(loss_figures, "REQUEST_CARDS", {"100g-pcie3x16": "100Gbps"})
    with Campaign(tmp_path / "connection.db") as campaign:
        table = loss_figures.make_loss_figure(campaign, "connection-per-request", tmp_path, 1,
                                              workers=2, progress=False)
    for extension in ("png", "pdf", "csv", "md"):
        assert (tmp_path / f"connection-per-request.{extension}").stat().st_size > 0
    row = table.iloc[0]
    assert row["runs"] == 1 and row["roce_of_roce"] == 1.0
    for variant in loss_figures.REQUEST_VARIANTS:
        key = variant.replace(" ", "_")
        assert row[f"{key}_ok"] == row[f"{key}_n"] == 3
    assert 1.0 < row["dynamic_of_roce"] < row["roce_per_transfer_of_roce"]
    assert "roce per transfer (µs)" in (tmp_path / "connection-per-request.md").read_text()
