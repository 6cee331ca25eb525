"""Fabric experiments from Python: drp.run_fabric, slowdown by size, FabricCampaign."""

import csv
import json
import math
import pathlib
import sqlite3
import subprocess

import numpy as np
import pytest

import drp
from drp.fabric import DROP_COLUMNS, FABRIC_SUMMARY, PORT_COLUMNS, TRANSFER_COLUMNS

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(drp.__file__).resolve().parents[2]

#: Incast of 4 into an 8-frame queue, registrations failing at 20 %: the two
#: methods differ, and runs differ from each other.
GRID = {
    "hosts": 5,
    "queue": "8p",
    "frp": 0.2,
    "bytes": 16384,
    "method": ["traditional", "dynamic"],
}


def test_run_fabric_gives_what_rnic_fabric_prints(tmp_path):
    """One definition: the Python run and the program agree transfer by transfer."""
    path = tmp_path / "flows.csv"
    program = BUILD / "examples" / "rnic-fabric"
    subprocess.run(
        [program, "--hosts=9", "--queue=8p", "--frp=0.1", "--run=3", f"--csv={path}"],
        check=True,
        capture_output=True,
    )
    with open(path) as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    result = drp.run_fabric(hosts=9, queue="8p", frp=0.1, run=3)
    transfers = result.transfers
    assert list(transfers.columns) == list(TRANSFER_COLUMNS)
    # The program's CSV has Python's columns, in the same order.
    assert reader.fieldnames == list(TRANSFER_COLUMNS)
    assert len(rows) == len(transfers) == 8
    for row, (_, t) in zip(rows, transfers.iterrows()):
        assert int(row["source"]) == t["source"] and int(row["destination"]) == t["destination"]
        assert int(row["size"]) == t["size"] == 65536
        assert float(row["fct_us"]) == pytest.approx(t["fct_us"], abs=1e-6)
        assert float(row["ideal_us"]) == pytest.approx(t["ideal_us"], abs=1e-6)
        assert row["status"] == t["status"] and row["mode"] == t["mode"]
        for counter in ("requests", "invalid_replies", "timeouts", "retransmissions", "cnps"):
            assert int(row[counter]) == t[counter], counter
    ratio = transfers["fct_us"] / transfers["ideal_us"]
    assert np.allclose(transfers["slowdown"], ratio, rtol=1e-12, atol=0)
    assert result.counters["drops"] == result.ports["drops"].sum() > 0
    assert list(result.ports.columns) == list(PORT_COLUMNS)


def test_summary_of_a_run():
    result = drp.run_fabric(hosts=9, queue="8p")
    s = result.summary
    assert list(s) == list(FABRIC_SUMMARY)
    assert s["n"] == s["successes"] == s["flows"] == 8
    assert s["host_count"] == 9 and s["switch_count"] == 1
    fct = np.sort(result.transfers["fct_us"].to_numpy())
    assert s["mean_fct_us"] == pytest.approx(fct.mean())
    assert s["p99_fct_us"] == fct[-1] and s["p50_fct_us"] == fct[3]
    assert s["p50_slowdown"] > 1  # the queue overflowed


def test_parameters_are_canonical_and_checked():
    params = drp.fabric_parameters(host_rate="10Gbps", workload="poisson", duration="20ms")
    assert params["host_rate"] == 10_000_000_000 and params["duration"] == 0.02
    with pytest.raises(TypeError, match="unknown parameter 'hostRate'; valid: topology"):
        drp.fabric_parameters(hostRate="10Gbps")
    with pytest.raises(ValueError, match='topology = "ring" is not valid; valid: star, tree'):
        drp.run_fabric(topology="ring")
    with pytest.raises(ValueError, match=r"load = 1.5 is out of range \(0, 1\]"):
        drp.run_fabric(workload="poisson", load=1.5)
    with pytest.raises(ValueError, match="queue = 8x is no queue size"):
        drp.run_fabric(queue="8x")
    with pytest.raises(ValueError, match=r"StarFabricHelper hosts = 0 is out of range \[1, 65535\]"):
        drp.run_fabric(hosts=0)


def test_the_card_follows_the_host_rate_unless_named():
    # nic = "auto" (the default) reads back as the card of host_rate, so that a
    # run's identity names the card that ran.
    cards = {
        "1Gbps": "paper-1g",
        "10Gbps": "25g-pcie3x8",
        "25Gbps": "25g-pcie3x8",
        "40Gbps": "100g-pcie3x16",
        "100Gbps": "100g-pcie3x16",
        "200Gbps": "200g-pcie4x16",
        "400Gbps": "400g-pcie5x16",
        "800Gbps": "400g-pcie5x16",
    }
    for rate, card in cards.items():
        assert drp.fabric_parameters(host_rate=rate)["nic"] == card, rate
    assert drp.fabric_parameters(host_rate="100Gbps", nic="paper-1g")["nic"] == "paper-1g"
    # A lone 1 MB write at 100 Gb/s in 4 KiB payloads and jumbo frames: the
    # server card's data moves at the line's rate, its FCT equals the ideal.
    result = drp.run_fabric(
        hosts=2, degree=1, bytes=1_000_000, host_rate="100Gbps", payload=4096, mtu=9000
    )
    assert result.params["nic"] == "100g-pcie3x16"
    assert (result.params["payload"], result.params["mtu"]) == (4096, 9000)
    (slowdown,) = result.transfers["slowdown"]
    assert slowdown == pytest.approx(1.0, abs=0.01)
    with pytest.raises(ValueError, match=r"payload \(with mtu 1500\) = 4096 is out of range"):
        drp.run_fabric(payload=4096)
    # The note rnic-fabric prints: none for the card of the rate, the PCIe
    # bound for the paper's card on a faster link.
    assert result.host_limit_note == ""
    note = drp.FabricConfig(host_rate="25Gbps", nic="paper-1g").host_limit_note()
    assert note.startswith("note: the RNICs (nic = paper-1g) move at most 7.7283 Gb/s")
    assert "limited by their PCIe" in note


def test_slowdown_by_size_cuts_equal_counts_and_keeps_one_size_together():
    sizes = [100, 200, 300, 400, 500, 600, 700, 800]
    slowdown = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    table = drp.slowdown_by_size(
        {"size": sizes, "slowdown": slowdown, "status": ["success"] * 8}, buckets=4
    )
    assert table["count"].tolist() == [2, 2, 2, 2]
    assert table["max_bytes"].tolist() == [200, 400, 600, 800]
    assert table["p50"].tolist() == [1.0, 3.0, 5.0, 7.0]
    assert table["p99"].tolist() == [2.0, 4.0, 6.0, 8.0]
    # One size never straddles two buckets; failed transfers do not count.
    table = drp.slowdown_by_size(
        {
            "size": [1, 5, 5, 5, 5, 9],
            "slowdown": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            "status": ["success"] * 5 + ["data-failed"],
        },
        buckets=2,
    )
    assert table["count"].tolist() == [5]
    assert (table["min_bytes"].tolist(), table["max_bytes"].tolist()) == ([1], [5])
    with pytest.raises(ValueError, match=r"buckets = 0 is out of range \[1, 1000\]"):
        drp.slowdown_by_size({"size": [1], "slowdown": [1.0], "status": ["success"]}, 0)


def test_fabric_campaign_runs_resumes_and_pools(tmp_path):
    with drp.FabricCampaign(tmp_path / "results.db") as campaign:
        assert campaign.run(GRID, repetitions=2, workers=2, progress=False) == 4
        assert campaign.run(GRID, repetitions=2, workers=2, progress=False) == 0
        runs = campaign.runs_dataframe(GRID)
        assert len(runs) == 4 and (runs["n"] == 4).all()
        # The stored run is the run in this process.
        one = runs[(runs["method"] == "dynamic") & (runs["run"] == 2)].iloc[0]
        again = drp.run_fabric(**{**GRID, "method": "dynamic", "run": 2})
        assert one["mean_fct_us"] == pytest.approx(again.summary["mean_fct_us"])
        assert one["drops"] == again.summary["drops"]
        transfers = campaign.to_dataframe(GRID)
        assert len(transfers) == 16 and set(TRANSFER_COLUMNS) <= set(transfers.columns)
        settings = campaign.settings_dataframe(GRID)
        assert len(settings) == 2 and (settings["runs"] == 2).all() and (settings["n"] == 8).all()
        ports = campaign.ports_dataframe(GRID)
        assert len(ports) == 4 * 5 and ports["drops"].sum() == runs["drops"].sum()


def test_attribute_defaults_in_fabric_runs_campaigns_and_the_command_line(tmp_path):
    """ns-3 attribute defaults reach a fabric run, sweep in a campaign and keep old identities."""
    from drp import cli
    from drp.campaign import FABRIC
    from drp.store import params_key

    small = {"hosts": 3, "degree": 2, "bytes": 100000}
    cable = {"ns3::EthernetChannel::Delay": "10us"}
    plain = drp.run_fabric(**small)
    slow = drp.run_fabric(**small, defaults=cable)
    assert plain.params["defaults"] == {} and slow.params["defaults"] == cable
    # Every frame and acknowledgement crosses two 10 us cables more.
    assert slow.summary["mean_fct_us"] > plain.summary["mean_fct_us"] + 40
    with pytest.raises(ValueError, match="use the scenario parameters host_rate, fabric_rate"):
        drp.run_fabric(defaults={"ns3::EthernetNetDevice::DataRate": "10Gbps"})
    with pytest.raises(ValueError, match="Delay"):
        drp.run_fabric(defaults={"ns3::EthernetChannel::Delay": "soon"})
    # A run without defaults has the identity of the stores written before they existed.
    assert "defaults" not in json.loads(params_key(FABRIC.parameters(**small)))
    assert "defaults" in json.loads(params_key(FABRIC.parameters(**small, defaults=cable)))
    grid = {**small, "defaults": [{}, cable]}
    with drp.FabricCampaign(tmp_path / "results.db") as campaign:
        assert campaign.run(grid, repetitions=1, workers=1, progress=False) == 2
        runs = campaign.runs_dataframe(grid).sort_values("mean_fct_us")
        assert list(runs["defaults"]) == ["{}", json.dumps(cable)]
        assert runs["mean_fct_us"].tolist() == pytest.approx(
            [plain.summary["mean_fct_us"], slow.summary["mean_fct_us"]]
        )
    argv = ["run", str(tmp_path / "cli.db"), "--fabric", "-p", "hosts=3", "-p", "degree=2",
            "-p", "bytes=100000", "-d", "ns3::EthernetChannel::Delay=0us,10us", "-q"]
    assert cli.main(argv) == 0
    with drp.FabricCampaign(tmp_path / "cli.db", read_only=True) as campaign:
        assert len(campaign.runs_dataframe()) == 2


def test_fabric_and_paper_runs_share_a_store(tmp_path):
    path = tmp_path / "results.db"
    with drp.Campaign(path) as campaign:
        campaign.run({"transfers": 3, "size": 4096}, repetitions=1, workers=1, progress=False)
    with drp.FabricCampaign(path) as campaign:
        assert campaign.runs_dataframe().empty
        campaign.run({**GRID, "method": "dynamic"}, repetitions=1, workers=1, progress=False)
        assert len(campaign.runs_dataframe()) == 1
    with drp.Campaign(path) as campaign:
        assert len(campaign.runs_dataframe()) == 1 and len(campaign.to_dataframe()) == 3


def test_a_store_from_before_fabric_runs_reads_and_gains_the_tables(tmp_path):
    path = tmp_path / "results.db"
    with drp.Campaign(path) as campaign:
        campaign.run({"transfers": 2, "size": 4096}, repetitions=1, workers=1, progress=False)
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE fabric_transfers; DROP TABLE fabric_ports;")
    db.close()
    with drp.FabricCampaign(path, read_only=True) as campaign:
        assert campaign.runs_dataframe().empty and campaign.to_dataframe().empty
    with drp.FabricCampaign(path) as campaign:
        assert campaign.run({**GRID, "method": "traditional"}, 1, workers=1, progress=False) == 1
    with drp.Campaign(path, read_only=True) as campaign:
        assert len(campaign.to_dataframe()) == 2


def test_run_fabric_reports_every_drop_by_device_and_reason():
    result = drp.run_fabric(hosts=9, queue="8p", frp=0.5)
    drops = result.drops
    assert list(drops.columns) == list(DROP_COLUMNS)
    assert set(drops["device"]) == {"switch", "link", "rnic", "host"}
    by = {(d, r): f for d, r, f in drops.itertuples(index=False)}
    assert by[("switch", "egress-queue-full")] == result.counters["drops"] > 0
    for device in ("link", "rnic", "host"):
        assert result.counters[f"{device}_drops"] == drops[drops["device"] == device]["frames"].sum()


def test_simulated_seconds_is_when_the_last_transfer_ended():
    """And the simulator stops then too: released records run no idle check
    (before, the clock ran on some 140 ms after a few-ms incast)."""
    result = drp.run_fabric(hosts=9, queue="8p")
    last_end_us = (result.transfers["start_us"] + result.transfers["fct_us"]).max()
    assert result.counters["simulated_seconds"] == pytest.approx(last_end_us * 1e-6, abs=1e-9)
    assert result.counters["simulator_end_seconds"] == result.counters["simulated_seconds"]


@pytest.mark.parametrize(
    "params, message",
    [
        ({"queue": "4294968kB"}, r"queue = 4294968kB is 4294968000 bytes, out of range"),
        ({"workload": "poisson", "load": 1e-300}, r"load = 1e-300 makes the mean gap"),
        ({"hosts": 1, "workload": "all-to-all"}, r"the star fabric has 1 host \(hosts = 1\)"),
        ({"lossless": True, "buffer": "100p"}, r"buffer = 100p must be in bytes"),
        ({"lossless": True, "threshold": "adaptive"}, r'threshold = "adaptive" is not valid'),
        ({"lossless": True, "buffer": "64KB"}, r"buffer = 64KB \(64000 bytes\) is below the"),
        ({"lossless": True, "queue": "8p"}, r"queue has no effect here: it is for lossy fabrics"),
        ({"lossless": True, "pfc_storm": "9"}, r"pfc_storm = 9 names host 9, out of range"),
    ],
)
def test_run_fabric_raises_for_what_cannot_run(params, message):
    """A ValueError naming the parameter: never an abort of the interpreter."""
    with pytest.raises(ValueError, match=message):
        drp.run_fabric(**params)


def test_a_run_without_flows_summarizes_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # The one warning such a run gives on purpose: it says why there are no flows.
        warnings.filterwarnings("ignore", message="no arrival within duration")
        result = drp.run_fabric(
            topology="leaf-spine", workload="poisson", load=0.3, cdf="data-mining", duration="10ms"
        )
        summary = result.summary
    assert summary["n"] == 0 and summary["flows"] == 0 and math.isnan(summary["mean_fct_us"])


#: The README's incast campaign, smaller: repetitions that differ.
README_INCAST = {
    "workload": "incast",
    "hosts": 9,
    "degree": 8,
    "method": ["traditional", "dynamic"],
    "frp": 0.05,
    "jitter": "20us",
}


def test_repetitions_of_the_readme_incast_differ(tmp_path):
    with drp.FabricCampaign(tmp_path / "incast.db") as campaign:
        campaign.run(README_INCAST, repetitions=3, workers=1, progress=False)
        runs = campaign.runs_dataframe(README_INCAST)
    assert len(runs) == 6 and runs["jitter"].tolist() == [pytest.approx(20e-6)] * 6
    for method in ("traditional", "dynamic"):
        fcts = runs[runs["method"] == method]["mean_fct_us"]
        assert fcts.nunique() == 3, fcts.tolist()
    by_method = runs.groupby("method")["mean_fct_us"].mean()
    assert by_method["traditional"] != by_method["dynamic"]


def test_jitter_draws_sender_starts_and_zero_changes_nothing():
    plain = drp.run_fabric(hosts=5)
    zero = drp.run_fabric(hosts=5, jitter=0, ecmp_seed=0, ecmp_per_run=False)
    assert list(zero.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    assert zero.params["jitter"] == 0.0
    one = drp.run_fabric(hosts=5, jitter="50us", run=1)
    again = drp.run_fabric(hosts=5, jitter="50us", run=1)
    other = drp.run_fabric(hosts=5, jitter="50us", run=2)
    assert list(one.transfers["fct_us"]) == list(again.transfers["fct_us"])
    assert list(one.transfers["fct_us"]) != list(other.transfers["fct_us"])
    assert list(one.transfers["fct_us"]) != list(plain.transfers["fct_us"])


def test_ecmp_per_run_changes_paths_from_run_to_run():
    params = {"topology": "leaf-spine", "leaves": 2, "spines": 4, "hosts": 4,
              "workload": "all-to-all", "bytes": 16384}
    fixed = [drp.run_fabric(**params, run=r).ports for r in (1, 2)]
    assert fixed[0].equals(fixed[1])  # no draw in the workload, one hash
    varied = [drp.run_fabric(**params, run=r, ecmp_per_run=True).ports for r in (1, 2)]
    assert not varied[0].equals(varied[1])
    seeded = drp.run_fabric(**params, ecmp_seed=1)
    assert seeded.ports.equals(varied[0])  # seed 0 + run 1


def test_timeout_mode_adaptive_estimates_the_timers():
    """Fixed is the default; adaptive timers wait out the queues of an incast."""
    params = {"hosts": 9, "queue": "8p"}
    plain = drp.run_fabric(**params)
    fixed = drp.run_fabric(**params, timeout_mode="fixed")
    assert list(fixed.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    assert fixed.params["timeout_mode"] == "fixed"
    adaptive = drp.run_fabric(**params, timeout_mode="adaptive")
    assert adaptive.params["timeout_mode"] == "adaptive"
    assert adaptive.summary["successes"] == adaptive.summary["n"] == 8
    assert list(adaptive.transfers["fct_us"]) != list(plain.transfers["fct_us"])
    assert adaptive.summary["retransmissions"] < plain.summary["retransmissions"]
    with pytest.raises(ValueError, match=r"timeout_mode = \"sometimes\" is not valid"):
        drp.run_fabric(**params, timeout_mode="sometimes")


def test_ack_every_coalesces_acknowledgements():
    """1 (the default) is the published protocol; 4 leaves the transfers whole."""
    params = {"hosts": 9, "queue": "8p"}
    plain = drp.run_fabric(**params)
    each = drp.run_fabric(**params, ack_every=1)
    assert list(each.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    four = drp.run_fabric(**params, ack_every=4, ack_delay="100us")
    assert four.params["ack_every"] == 4
    assert four.summary["successes"] == four.summary["n"] == 8
    assert list(four.transfers["fct_us"]) != list(plain.transfers["fct_us"])
    with pytest.raises(ValueError, match=r"ack_every = 0 is out of range \[1, 65535\]"):
        drp.run_fabric(**params, ack_every=0)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"jitter": -1e-6}, r"jitter = -1us is out of range \[0s, \+1000s\]|jitter = .* out of range"),
        ({"jitter": "1ms", "workload": "permutation"}, r"jitter = \+?1ms is for the incast"),
    ],
)
def test_bad_jitter_is_refused(params, message):
    with pytest.raises(ValueError, match=message):
        drp.run_fabric(**params)


def test_ecn_marks_and_congestion_notifications():
    """Switch queues that mark, and RNICs that answer marks with CNPs."""
    plain = drp.run_fabric(hosts=5)
    marked = drp.run_fabric(hosts=5, ecn=True, ecn_min="4KB", ecn_max="16KB", ecn_pmax=0.2)
    assert plain.counters["ecn_marks"] == 0 and plain.counters["cnps"] == 0
    assert marked.counters["ecn_marks"] > 0
    assert 0 < marked.counters["cnps"] <= marked.counters["ecn_marks"]
    assert sum(marked.port_columns["ecn_marks"]) == marked.counters["ecn_marks"]
    # Without rate control the marks change no timing.
    assert list(marked.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    with pytest.raises(ValueError, match="ecn_min = 5p must be below ecn_max = 16KB"):
        drp.run_fabric(hosts=5, ecn=True, ecn_min="5p")
    with pytest.raises(ValueError, match="ecn_pmax"):
        drp.run_fabric(hosts=5, ecn=True, ecn_pmax=1.5)


def test_a_lossless_incast_drops_nothing_and_pauses_the_senders():
    """The same 16:1 incast through 8-frame queues: lossy it drops, lossless
    (a 1 MB shared buffer, PFC) it drops nothing and the switch pauses the
    senders instead."""
    params = {"hosts": 17, "bytes": 131072}
    lossy = drp.run_fabric(**params, queue="8p")
    # 64 frames in flight per sender, so that the burst outgrows the buffer's
    # threshold (the lossless timers send nothing twice to help it).
    lossless = drp.run_fabric(**params, lossless=True, buffer="1MB", window=64)
    assert lossy.counters["drops"] > 0 and lossy.counters["pauses_sent"] == 0
    assert lossless.summary["successes"] == 16
    by = {(d, r): f for d, r, f in lossless.drops.itertuples(index=False)}
    assert by[("switch", "headroom-overflow")] == lossless.counters["headroom_drops"] == 0
    assert by[("switch", "shared-buffer-full")] == lossless.counters["shared_buffer_drops"] == 0
    # Nothing is lost in a switch or on a link (the RNICs may discard late
    # copies of frames their timers resent while the originals waited).
    assert sum(f for (device, _), f in by.items() if device in ("switch", "link")) == 0
    counters = lossless.counters
    assert counters["pauses_sent"] > 16 and counters["rnic_pauses_received"] > 16
    assert counters["rnic_time_paused_seconds"] > 0
    assert 0 < counters["peak_buffer_bytes"] <= 1_000_000
    ports = lossless.port_columns
    assert ports["pauses_sent"].sum() == counters["pauses_sent"]
    assert ports["time_paused_seconds"].sum() == pytest.approx(counters["time_paused_seconds"])
    assert lossless.params["lossless"] and lossless.params["buffer"] == "1MB"


def test_congestion_control():
    """DCQCN paces the incast's senders (their rates recorded); cc needs ecn."""
    plain = drp.run_fabric(hosts=5, ecn=True)
    dcqcn = drp.run_fabric(hosts=5, ecn=True, cc="dcqcn", rates=True)
    assert dcqcn.params["cc"] == "dcqcn"
    assert len(plain.rates) == 0
    rates = dcqcn.rates
    assert len(rates) > 0 and set(rates["source"]) <= set(dcqcn.transfers["source"])
    assert all(0 <= r <= 1_000_000_000 for r in rates["rate_bps"])
    assert list(rates["time_s"]) == sorted(rates["time_s"])
    with pytest.raises(ValueError, match="needs ecn"):
        drp.run_fabric(hosts=5, cc="dctcp")
    valid = 'cc = "swift" is not valid; valid: none, dcqcn, dctcp, timely, hpcc'
    with pytest.raises(ValueError, match=valid):
        drp.run_fabric(hosts=5, ecn=True, cc="swift")


#: A 8:1 incast of 256 KiB writes, lossless (a 400 kB buffer and 64 frames in
#: flight per sender: pauses) with ECN and DCQCN (marks and CNPs), adaptive timers.
MARKED = {
    "hosts": 9,
    "bytes": 262144,
    "window": 64,
    "lossless": True,
    "buffer": "400KB",
    "ecn": True,
    "cc": "dcqcn",
    "timeout_mode": "adaptive",
}


def test_cnps_marks_and_pauses_are_columns_and_counters():
    result = drp.run_fabric(**MARKED)
    transfers, ports, counters = result.transfers, result.ports, result.counters
    assert transfers["cnps"].sum() == counters["cnps"] > 0
    assert ports["ecn_marks"].sum() == counters["ecn_marks"] > 0
    assert ports["pauses_sent"].sum() == counters["pauses_sent"] > 0
    assert ports["pauses_received"].sum() == counters["pauses_received"]
    assert ports["time_paused_seconds"].sum() == pytest.approx(counters["time_paused_seconds"])
    for name in ("pauses_sent", "rnic_time_paused_seconds", "headroom_drops"):
        assert result.summary[name] == counters[name]
    assert counters["rnic_pauses_received"] > 0 and counters["rnic_time_paused_seconds"] > 0
    # A lossy run without ECN has them all, at 0.
    plain = drp.run_fabric(hosts=5)
    assert plain.transfers["cnps"].sum() == 0 and plain.ports["pauses_sent"].sum() == 0
    assert plain.counters["headroom_drops"] == plain.counters["shared_buffer_drops"] == 0


def test_fabric_campaign_stores_marks_cnps_and_pauses(tmp_path):
    """cc, ecn, lossless, buffer and timeout_mode are grid parameters; what the
    runs count comes back from the store as it came from the run."""
    grid = {**MARKED, "method": ["traditional", "dynamic"], "threshold": ["dynamic", "static"]}
    with drp.FabricCampaign(tmp_path / "results.db") as campaign:
        assert campaign.run(grid, repetitions=1, workers=2, progress=False) == 4
        runs = campaign.runs_dataframe(grid)
        assert (runs["cc"] == "dcqcn").all() and runs["lossless"].all() and runs["ecn"].all()
        assert (runs["timeout_mode"] == "adaptive").all() and (runs["buffer"] == "400KB").all()
        assert sorted(runs["threshold"]) == ["dynamic", "dynamic", "static", "static"]
        assert (runs["ecn_marks"] > 0).all() and (runs["cnps"] > 0).all()
        assert (runs["pauses_sent"] > 0).all() and (runs["rnic_time_paused_seconds"] > 0).all()
        one = runs[(runs["method"] == "dynamic") & (runs["threshold"] == "static")].iloc[0]
        again = drp.run_fabric(**{**MARKED, "threshold": "static"})
        for name in ("ecn_marks", "cnps", "pauses_sent", "pauses_received", "time_paused_seconds"):
            assert one[name] == pytest.approx(again.counters[name])
        transfers = campaign.to_dataframe(grid)
        assert transfers.groupby(["method", "threshold"])["cnps"].sum().tolist() == [
            runs.set_index(["method", "threshold"]).loc[key, "cnps"]
            for key in sorted(zip(runs["method"], runs["threshold"]))
        ]
        ports = campaign.ports_dataframe(grid)
        assert ports["ecn_marks"].sum() == runs["ecn_marks"].sum()
        assert ports["pauses_sent"].sum() == runs["pauses_sent"].sum()
        paused = runs["time_paused_seconds"].sum()
        assert ports["time_paused_seconds"].sum() == pytest.approx(paused)
        assert ports["time_paused_seconds"].dtype == float
        settings = campaign.settings_dataframe(grid)
        assert settings["pauses_sent"].sum() == runs["pauses_sent"].sum()


#: The tables of a schema-1 store as that schema wrote them.
SCHEMA_1_FABRIC = """
CREATE TABLE fabric_transfers (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    "source" INTEGER NOT NULL, "destination" INTEGER NOT NULL, "switches" INTEGER NOT NULL,
    "size" INTEGER NOT NULL, "start_us" REAL NOT NULL, "fct_us" REAL NOT NULL,
    "ideal_us" REAL NOT NULL, "slowdown" REAL NOT NULL, "status" TEXT NOT NULL,
    "mode" TEXT NOT NULL, "requests" INTEGER NOT NULL, "invalid_replies" INTEGER NOT NULL,
    "timeouts" INTEGER NOT NULL, "retransmissions" INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE fabric_ports (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    "switch" INTEGER NOT NULL, "port" INTEGER NOT NULL, "frames_out" INTEGER NOT NULL,
    "drops" INTEGER NOT NULL, "peak_frames" INTEGER NOT NULL, "peak_bytes" INTEGER NOT NULL,
    PRIMARY KEY (run_id, "switch", "port")
);
"""


def _schema_1_store(path, grid):
    """Write a store as schema 1 did: its fabric tables without the columns
    schema 2 added, summaries without the added counters, user_version 1."""
    from drp.store import ADDED_COLUMNS, ADDED_COUNTERS

    new = path.with_name("new.db")
    with drp.FabricCampaign(new) as campaign:
        campaign.run(grid, repetitions=1, workers=1, progress=False)
    db = sqlite3.connect(new)
    for table, columns in ADDED_COLUMNS.items():
        info = db.execute(f"PRAGMA table_info({table})")
        kept = [row[1] for row in info if row[1] not in columns]
        quoted = ", ".join(f'"{c}"' for c in kept)
        db.execute(f"CREATE TABLE old_{table} AS SELECT {quoted} FROM {table}")
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY, params TEXT NOT NULL, run INTEGER NOT NULL, "
        "version TEXT NOT NULL, git_revision TEXT NOT NULL, finished TEXT NOT NULL, "
        "wall_seconds REAL NOT NULL, summary TEXT NOT NULL, UNIQUE (params, run));"
        + db.execute("SELECT sql FROM sqlite_master WHERE name = 'transfers'").fetchone()[0]
        + ";"
        + SCHEMA_1_FABRIC
        + "PRAGMA user_version = 1;"
    )
    for row in db.execute("SELECT * FROM runs"):
        summary = {k: v for k, v in json.loads(row[-1]).items() if k not in ADDED_COUNTERS}
        values = (*row[:-1], json.dumps(summary))
        old.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
    for table in ADDED_COLUMNS:
        rows = db.execute(f"SELECT * FROM old_{table}").fetchall()
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            old.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    old.commit()
    old.close()
    db.close()


def test_a_schema_1_store_reads_and_is_migrated(tmp_path):
    path = tmp_path / "old.db"
    _schema_1_store(path, GRID)
    # Read-only it reads 0 in the new columns and counters, and stays schema 1.
    with drp.FabricCampaign(path, read_only=True) as campaign:
        runs = campaign.runs_dataframe(GRID)
        assert len(runs) == 2 and (runs["pauses_sent"] == 0).all()
        assert (runs["rnic_time_paused_seconds"] == 0).all() and (runs["drops"] > 0).any()
        assert (campaign.to_dataframe(GRID)["cnps"] == 0).all()
        ports = campaign.ports_dataframe(GRID)
        assert (ports["ecn_marks"] == 0).all() and ports["drops"].sum() == runs["drops"].sum()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    db.close()
    # For writing it is migrated: its runs keep their identity (nothing to
    # compute again) and new runs are stored beside them.
    with drp.FabricCampaign(path) as campaign:
        assert campaign.run(GRID, repetitions=1, workers=1, progress=False) == 0
        assert campaign.run(GRID, repetitions=2, workers=2, progress=False) == 2
        runs = campaign.runs_dataframe(GRID)
        assert len(runs) == 4 and (runs["pauses_sent"] == 0).all()
        transfers = campaign.to_dataframe(GRID)
        assert len(transfers) == 16 and (transfers["cnps"] == 0).all()
        assert campaign.settings_dataframe(GRID)["time_paused_seconds"].tolist() == [0, 0]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (2,)
    columns = {row[1]: row[2] for row in db.execute("PRAGMA table_info(fabric_ports)")}
    assert columns["time_paused_seconds"] == "REAL" and columns["pauses_sent"] == "INTEGER"
    db.close()


def test_a_migrated_store_finds_runs_whose_identity_named_ecn_at_its_defaults(tmp_path):
    # Schema-1 stores written before ecn, ecn_min, ecn_max, ecn_pmax, cc and
    # rates joined LATER_PARAMETERS hold them at their defaults in each run's
    # identity; the migration stores the identity in today's form.
    path = tmp_path / "window.db"
    _schema_1_store(path, GRID)
    window = {"ecn": False, "ecn_min": "4KB", "ecn_max": "16KB", "ecn_pmax": 0.2}
    window.update(cc="none", rates=False)
    db = sqlite3.connect(path)
    for run_id, key in db.execute("SELECT id, params FROM runs").fetchall():
        old = json.dumps({**json.loads(key), **window}, sort_keys=True)
        db.execute("UPDATE runs SET params = ? WHERE id = ?", (old, run_id))
    db.commit()
    db.close()
    with drp.FabricCampaign(path) as campaign:
        assert campaign.run(GRID, repetitions=1, workers=1, progress=False) == 0
        assert len(campaign.runs_dataframe(GRID)) == 2
    db = sqlite3.connect(path)
    keys = [json.loads(key) for (key,) in db.execute("SELECT params FROM runs")]
    db.close()
    assert len(keys) == 2 and not any("ecn" in key or "cc" in key for key in keys)


def test_a_store_of_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    with drp.FabricCampaign(path):
        pass
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 3")
    db.close()
    with pytest.raises(ValueError, match=r"store schema 3, this drp reads schemas 1 to 2"):
        drp.FabricCampaign(path)


def test_a_run_without_flows_says_why(tmp_path, capsys):
    """A Poisson run with no arrival: a warning, a note in its summary, in a campaign's rows and
    in drp-campaign's table, rather than a row of NaN without a word."""
    from drp import cli

    params = {"workload": "poisson", "hosts": 3, "duration": "1us"}
    with pytest.warns(RuntimeWarning, match="no arrival within duration = \\+0.001ms"):
        result = drp.run_fabric(**params)
    assert result.flows_note.startswith("no arrival within duration")
    assert result.summary["note"] == "no flows" and math.isnan(result.summary["mean_fct_us"])
    assert drp.run_fabric(hosts=3, degree=2, bytes=4096).summary["note"] == ""
    store = str(tmp_path / "empty.db")
    argv = ["run", store, "--fabric", "-p", "workload=poisson", "-p", "hosts=3",
            "-p", "duration=1us", "-q"]
    assert cli.main(argv) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[-2:] == ["no", "flows"]
    with drp.FabricCampaign(store, read_only=True) as campaign:
        assert list(campaign.runs_dataframe()["note"]) == ["no flows"]


def test_roce_runs_the_fabric_workloads_over_the_verbs(tmp_path):
    """method="roce": the same workloads over RoCEv2's reliable connection.
    Alone, a write takes its ideal to the nanosecond; in a lossy incast,
    go-back-N resends what the full queue dropped; lossless (PFC), nothing
    is dropped or resent. Campaigns take the three methods in one grid."""
    alone = drp.run_fabric(hosts=3, degree=1, bytes=100000, method="roce")
    row = alone.transfers.iloc[0]
    assert row["status"] == "success" and row["fct_us"] == pytest.approx(row["ideal_us"], abs=1e-3)
    lossy = drp.run_fabric(hosts=9, bytes=65536, queue="8p", method="roce")
    assert lossy.summary["successes"] == 8
    assert lossy.counters["drops"] > 0 and lossy.transfers["retransmissions"].sum() > 0
    lossless = drp.run_fabric(hosts=9, bytes=65536, lossless=True, buffer="1MB", method="roce")
    assert lossless.summary["successes"] == 8
    assert lossless.counters["drops"] == 0 and lossless.transfers["retransmissions"].sum() == 0
    grid = {"hosts": 5, "bytes": 16384, "queue": "8p",
            "method": ["traditional", "dynamic", "roce"]}
    with drp.FabricCampaign(tmp_path / "results.db") as campaign:
        assert campaign.run(grid, repetitions=1, workers=1, progress=False) == 3
        runs = campaign.runs_dataframe(grid)
        assert sorted(runs["method"]) == ["dynamic", "roce", "traditional"]
        assert (runs["successes"] == 4).all()


def test_dcqcn_and_timely_over_roce():
    """RoCE under DCQCN: switches mark CE, receivers send CNPs at most one per CnpInterval
    (50 us) per queue pair, senders slow down: a lossless incast sends far fewer PFC pauses
    than without congestion control. TIMELY runs too; hpcc and dctcp are refused."""
    params = {"hosts": 17, "bytes": 1000000, "lossless": True, "buffer": "1MB", "method": "roce"}
    plain = drp.run_fabric(**params)
    dcqcn = drp.run_fabric(**params, ecn=True, cc="dcqcn")
    timely = drp.run_fabric(**params, cc="timely")
    for run in (plain, dcqcn, timely):
        assert run.summary["successes"] == 16 and run.counters["drops"] == 0
    assert plain.counters["cnps"] == 0 and dcqcn.counters["cnps"] > 0
    assert dcqcn.counters["pauses_sent"] * 5 < plain.counters["pauses_sent"]
    fct_us = dcqcn.transfers["fct_us"]
    assert (dcqcn.transfers["cnps"] <= fct_us / 50 + 1).all(), "one CNP per 50 us at most"
    for cc in ("hpcc", "dctcp"):
        with pytest.raises(ValueError, match=f"cc = {cc} is not built for method = roce"):
            drp.run_fabric(method="roce", ecn=True, cc=cc)
