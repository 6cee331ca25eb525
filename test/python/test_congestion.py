"""Congestion experiments from Python: queue sampling, staggered senders, victim flows, figures."""

import numpy as np
import pytest

import drp
from drp import congestion_figures
from drp.fabric import FLOW_RATE_COLUMNS, QUEUE_COLUMNS


def test_queue_interval_samples_every_port_and_changes_nothing():
    """Three ports of a star, one sample each per tick; transfers as without sampling."""
    plain = drp.run_fabric(hosts=3, degree=2, bytes=262144)
    sampled = drp.run_fabric(hosts=3, degree=2, bytes=262144, queue_interval="10us")
    assert len(plain.queues) == 0
    assert tuple(sampled.queues.columns) == QUEUE_COLUMNS
    assert list(sampled.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    q = sampled.queues
    assert len(q) % 3 == 0
    ticks = np.arange(len(q) // 3) * 10e-6
    assert np.allclose(q["time_s"].to_numpy()[::3], ticks)
    receiver = congestion_figures.port_samples(sampled, 0, 0)
    assert receiver["bytes"].max() > 0
    assert receiver["bytes"].max() <= int(plain.port_columns["peak_bytes"][0])
    assert not q["paused"].any()
    assert sampled.params["queue_interval"] == pytest.approx(10e-6)


def test_stagger_window_and_victims():
    """Sender i starts at i x stagger; the victim goes from the next host to the receiver's next."""
    result = drp.run_fabric(hosts=3, degree=2, bytes=65536, stagger="1ms", window=4)
    starts = result.transfers.sort_values("source")["start_us"].to_numpy()
    assert starts[0] < 100 and 1000 <= starts[1] < 1100
    assert result.params["window"] == 4
    result = drp.run_fabric(hosts=6, degree=2, receiver=1, victims=2, victim_bytes=4096)
    pairs = set(zip(result.transfers["source"], result.transfers["destination"]))
    # senders 0 and 2 to host 1; victims from hosts 3 and 4 to hosts 2 and 3
    assert pairs == {(0, 1), (2, 1), (3, 2), (4, 3)}
    assert sorted(result.transfers["size"])[:2] == [4096, 4096]


@pytest.mark.parametrize(
    "params, name",
    [
        ({"hosts": 3, "receiver": 3}, "receiver"),
        ({"hosts": 3, "degree": 2, "victims": 1}, "victims"),
        ({"workload": "permutation", "victims": 1}, "incast workload only"),
        ({"stagger": 2000}, "stagger"),
        ({"window": 2000}, "window"),
        ({"queue_interval": 2}, "queue_interval"),
        ({"queue_interval": "1fs"}, "queue_interval .* below the simulator's time resolution"),
        ({"queue_interval": 1e-15}, "queue_interval .* below the simulator's time resolution"),
        (
            {"workload": "poisson", "duration": "10ms", "queue_interval": "1ns"},
            "queue_interval = \\+1ns would sample",
        ),
    ],
)
def test_invalid_options_name_themselves(params, name):
    """A bad value raises ValueError naming the option (in Python's spelling)."""
    with pytest.raises(ValueError, match=name):
        drp.run_fabric(**params)


def test_queue_samples_stop_at_their_bound_with_a_warning():
    """A run that reaches the most queue samples a run holds stops sampling there and warns."""
    with pytest.warns(RuntimeWarning, match="queue_interval = \\+1ns reached the 4000000 samples"):
        result = drp.run_fabric(hosts=3, degree=2, bytes=262144, queue_interval="1ns")
    assert len(result.queues) == 4_000_000 // 3 * 3
    assert result.queue_note.startswith("note: the queue samples stop at")
    assert drp.run_fabric(hosts=3, degree=2, bytes=262144, queue_interval="10us").queue_note == ""


def test_fairness_and_rates():
    """Jain's index and the time-averaged pacing rate of a recorded run."""
    assert congestion_figures.jain([1, 1]) == pytest.approx(1)
    assert congestion_figures.jain([1, 0]) == pytest.approx(0.5)
    result = drp.run_fabric(
        hosts=3, degree=2, bytes=1_000_000, ecn=True, cc="dcqcn", rates=True, window=64
    )
    assert len(result.rates) > 0
    end = result.counters["simulated_seconds"]
    for source in (1, 2):
        mean = congestion_figures.mean_rate(result, source, 0.0, end)
        assert 0 < mean <= 1e9


def test_convergence_figure_files(tmp_path, monkeypatch):
    """The dcqcn-convergence target writes its table and figure (a short version here)."""
    short = dict(
        congestion_figures.CONVERGENCE, bytes=10_000_000, victim_bytes=10_000_000, stagger="1ms"
    )
    monkeypatch.setattr(congestion_figures, "CONVERGENCE", short)
    table = congestion_figures.make_congestion_figure("dcqcn-convergence", tmp_path, workers=1)
    for suffix in ("png", "pdf", "csv", "md"):
        assert (tmp_path / f"dcqcn-convergence.{suffix}").stat().st_size > 0
    row = table.iloc[0]
    assert 0.5 <= row["jain_second_half"] <= 1
    assert row["drops"] == 0
    assert row["queue_max_kb"] > 0
    with pytest.raises(ValueError, match="not a congestion figure"):
        congestion_figures.make_congestion_figure("nope", tmp_path)


def test_flow_rate_interval_counts_every_frame_and_changes_nothing():
    """What each transfer sent per interval adds up to its frames; transfers as without counting."""
    plain = drp.run_fabric(hosts=3, degree=2, bytes=262144)
    counted = drp.run_fabric(hosts=3, degree=2, bytes=262144, flow_rate_interval="100us")
    assert len(plain.flow_rates) == 0
    assert list(counted.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    rates = counted.flow_rates
    assert tuple(rates.columns) == FLOW_RATE_COLUMNS
    assert (np.diff(rates["time_s"].to_numpy()) >= 0).all()
    for row, transfer in counted.transfers.iterrows():
        mine = rates[rates["transfer"] == row]
        frames = transfer["size"] // 1024 + transfer["retransmissions"]
        assert mine["bytes"].sum() == frames * 1024
        assert mine["wire_bytes"].sum() == frames * 1094
        assert (mine["source"] == transfer["source"]).all()
        assert np.allclose(np.diff(mine["time_s"].to_numpy()), 100e-6)
    assert np.allclose(rates["rate_bps"], rates["wire_bytes"] * 8 / 100e-6)
    # Each sender's 1 Gb/s link: an interval holds the frames that start in it, so it
    # carries at most the line plus the one frame that started before its end.
    table = counted.flow_rate_table()
    assert list(table.columns) == [0, 1]
    assert table.max().max() <= 1e9 + 1094 * 8 / 100e-6
    assert np.allclose(np.diff(table.index.to_numpy()), 100e-6)


def test_flow_rate_interval_is_refused_outside_its_range():
    with pytest.raises(ValueError, match="flow_rate_interval"):
        drp.run_fabric(hosts=3, flow_rate_interval=2)


def test_the_campaign_store_keeps_flow_rates(tmp_path):
    campaign = drp.FabricCampaign(tmp_path / "runs.db")
    grid = {"hosts": 3, "degree": 2, "bytes": 262144, "flow_rate_interval": "200us"}
    campaign.run(grid, repetitions=1)
    alone = drp.run_fabric(**grid)
    stored = campaign.flow_rates_dataframe()
    assert len(stored) == len(alone.flow_rates) > 0
    assert list(stored.columns[-7:]) == ["time_s", "transfer", "source", "destination"] + [
        "flow_bytes",
        "wire_bytes",
        "rate_bps",
    ]
    assert stored["flow_bytes"].tolist() == alone.flow_rates["bytes"].tolist()
    assert stored["rate_bps"].tolist() == pytest.approx(alone.flow_rates["rate_bps"].tolist())
    # A run without flow_rate_interval keeps its identity of before and stores none.
    campaign.run({"hosts": 3, "degree": 2, "bytes": 262144}, repetitions=1)
    assert len(campaign.flow_rates_dataframe({"hosts": 3, "degree": 2, "bytes": 262144})) == 0


def test_run_fabric_accepts_hpcc_and_its_queues_stay_small():
    r = drp.run_fabric(
        hosts=3, degree=2, bytes=2_000_000, host_rate="40Gbps", cc="hpcc", window=1024,
        queue="8MB", rates=True, queue_interval="1us",
    )
    assert r.params["cc"] == "hpcc" and not r.params["ecn"]
    assert r.summary["successes"] == 2 and r.counters["drops"] == 0
    assert len(r.rates) > 0
    assert r.queues["bytes"].max() < 100_000
    with pytest.raises(ValueError, match="valid port rates: 1Gbps, 10Gbps"):
        drp.run_fabric(hosts=3, host_rate="2500Mbps", cc="hpcc")


def test_hpcc_web_search_figure_files(tmp_path, monkeypatch):
    """The hpcc-web-search target writes its table and figure (a short version here):
    per scheme and load, the size buckets hold every successful flow once, the
    percentiles are ordered, and the lossless fabric drops nothing."""
    from drp import cc_validation

    monkeypatch.setattr(cc_validation, "WEB_RUN", {**cc_validation.WEB_RUN, "duration": "300us"})
    monkeypatch.setattr(cc_validation, "WEB_REPETITIONS", 1)
    monkeypatch.setattr(cc_validation, "WEB_BUCKETS", 2)
    table = cc_validation.make_cc_validation_figure("hpcc-web-search", tmp_path, workers=1)
    for suffix in ("png", "pdf", "csv", "md"):
        assert (tmp_path / f"hpcc-web-search.{suffix}").stat().st_size > 0
    assert set(table["scheme"]) == {"hpcc", "dcqcn"}
    assert set(table["load"]) == set(cc_validation.WEB_LOADS)
    for (scheme, load), part in table.groupby(["scheme", "load"]):
        total = part[part["sizes"] == "all"].iloc[0]
        buckets = part[part["sizes"] != "all"]
        assert len(buckets) == 2 and buckets["flows"].sum() == total["flows"] > 0
        assert (part["p50"] >= 1).all() and (part["p50"] <= part["p95"]).all()
        assert (part["p95"] <= part["p99"]).all()
        assert total["drops"] == 0 and total["failed"] == 0
