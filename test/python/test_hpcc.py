"""Users who come from HPCC's simulator: their topology and flow files in,
fct.txt, pfc.txt and the queue monitor's file out, read as their scripts read
them (the published column order, not drp's own readers)."""

import pathlib
import random
import subprocess

import pytest

import drp

EXAMPLES = pathlib.Path(drp.__file__).resolve().parents[2] / "examples"

#: Leaf-spine of HPCC's file layout: 8 ToRs of 9 hosts (72 hosts, node ids
#: 0 to 71), then the ToRs (72 to 79) and 4 spines (80 to 83).
TORS, PER_TOR, SPINES = 8, 9, 4
HOSTS = TORS * PER_TOR


def write_topology(path, host_rate="25Gbps", trunk_rate="100Gbps"):
    """Write a topology.txt as HPCC's generators do: hosts first, then switches."""
    tors = [HOSTS + t for t in range(TORS)]
    spines = [HOSTS + TORS + s for s in range(SPINES)]
    links = [f"{h} {tors[h // PER_TOR]} {host_rate} 1000ns 0.000000" for h in range(HOSTS)]
    links += [f"{t} {s} {trunk_rate} 1000ns 0.000000" for t in tors for s in spines]
    path.write_text(
        f"{HOSTS + TORS + SPINES} {TORS + SPINES} {len(links)}\n"
        + " ".join(map(str, tors + spines))
        + "\n"
        + "\n".join(links)
        + "\n"
    )


def write_flows(path, flows):
    """Write a flow.txt: count, then src dst pg dport size start_time (s)."""
    path.write_text(
        f"{len(flows)}\n" + "".join(f"{s} {d} 3 {p} {b} {t:.9f}\n" for s, d, p, b, t in flows)
    )


def random_flows(n, seed=7):
    """n flows between random hosts, 1 KB to 200 KB, over the first 0.5 ms."""
    rng = random.Random(seed)
    flows = []
    for _ in range(n):
        src, dst = rng.sample(range(HOSTS), 2)
        flows.append((src, dst, 100, rng.randint(1000, 200_000), rng.uniform(0, 0.0005)))
    return sorted(flows, key=lambda f: f[4])


def node_of(ip_hex):
    """HPCC's ip_to_node_id(): (ip >> 8) & 0xffff."""
    return (int(ip_hex, 16) >> 8) & 0xFFFF


def read_fct(path):
    """fct.txt in its published column order: sip dip sport dport size start fct ideal."""
    rows = []
    for line in path.read_text().splitlines():
        sip, dip, sport, dport, size, start, fct, ideal = line.split()
        rows.append(
            {
                "src": node_of(sip),
                "dst": node_of(dip),
                "sport": int(sport),
                "dport": int(dport),
                "size": int(size),
                "start": int(start),
                "fct": int(fct),
                "ideal": int(ideal),
            }
        )
    return rows


def read_pfc(path):
    """pfc.txt: time node node_type if_index type (1 pause, 0 resume), then drp's class."""
    return [tuple(int(x) for x in line.split()) for line in path.read_text().splitlines()]


def read_qlen(path):
    """The queue monitor's file: "time: T", then "node port count0 count1 ..." per port."""
    lines = path.read_text().splitlines()
    assert lines[0].startswith("time: ")
    ports = {}
    for line in lines[1:]:
        node, port, *counts = map(int, line.split())
        ports[(node, port)] = counts
    return int(lines[0].split()[1]), ports


def example(name, *args, cwd):
    """Run one of the module's programs in ``cwd``."""
    program = EXAMPLES / name
    if not program.exists():
        pytest.skip("examples not built")
    return subprocess.run(
        [str(program), *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def rnic_fabric(*args, cwd):
    return example("rnic-fabric", *args, cwd=cwd)


def test_a_72_host_run_from_their_files_writes_their_fct_txt(tmp_path):
    write_topology(tmp_path / "topology.txt")
    flows = random_flows(120)
    write_flows(tmp_path / "flow.txt", flows)
    result = rnic_fabric(
        "--topology-file=topology.txt",
        "--flow-file=flow.txt",
        "--fct-file=fct.txt",
        "--timeoutMode=adaptive",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert f"topology file topology.txt: {HOSTS} hosts, {TORS + SPINES} switches" in result.stdout
    rows = read_fct(tmp_path / "fct.txt")
    assert len(rows) == len(flows)
    # Every flow of the file, once: its nodes, size, id and start time (ns).
    assert sorted((r["src"], r["dst"], r["size"], r["dport"], r["start"]) for r in rows) == sorted(
        (s, d, b, p, round(t * 1e9)) for s, d, p, b, t in flows
    )
    # Source ports as HPCC numbers them: from 10000 per host, in file order.
    for host in {r["src"] for r in rows}:
        ports = sorted(r["sport"] for r in rows if r["src"] == host)
        assert ports == list(range(10000, 10000 + len(ports)))
    # fct_analysis.py's slowdown, $7 / $8: at least 1 but for the port's slot
    # rests (a nanosecond at most), which the ideal counts from an idle port.
    assert all(r["fct"] >= r["ideal"] - 1 and r["ideal"] > 0 for r in rows)


def test_run_fabric_with_their_files_and_their_three_outputs(tmp_path):
    write_topology(tmp_path / "topology.txt")
    # An incast of 8 hosts on other ToRs into host 0 (id 200, as HPCC's
    # scripts mark incast flows) beside background flows (id 100).
    senders = [9, 18, 27, 36, 45, 54, 63, 64]
    flows = [(h, 0, 200, 200_000, 0.0) for h in senders]
    flows += [(1, 20, 100, 50_000, 0.00001), (30, 2, 100, 50_000, 0.00002)]
    write_flows(tmp_path / "flow.txt", flows)
    result = drp.run_fabric(
        topology_file=str(tmp_path / "topology.txt"),
        flow_file=str(tmp_path / "flow.txt"),
        lossless=True,
        buffer="1MB",
        timeout_mode="adaptive",
        queue_interval="10us",
        fct_file=str(tmp_path / "fct.txt"),
        pfc_file=str(tmp_path / "pfc.txt"),
        qlen_file=str(tmp_path / "qlen.txt"),
    )
    assert result.counters["host_count"] == HOSTS
    rows = read_fct(tmp_path / "fct.txt")
    assert len(rows) == len(flows) == result.summary["successes"]
    fct = result.fct
    assert list(fct.columns) == list(drp.fabric.FCT_COLUMNS)
    assert [(r["src"], r["dst"], r["sport"], r["dport"], r["fct"]) for r in rows] == list(
        fct[["source_node", "destination_node", "source_port", "flow_id", "fct_ns"]].itertuples(
            index=False, name=None
        )
    )
    assert sorted(fct.flow_id) == [100, 100] + [200] * 8

    events = read_pfc(tmp_path / "pfc.txt")
    assert events, "the incast paused someone"
    frame = result.pfc_events
    assert len(frame) == len(events)
    assert [e[0] for e in events] == [round(t * 1e9) for t in frame.time_s]
    assert {e[2] for e in events} <= {0, 1}
    assert all((e[2] == 1) == (e[1] >= HOSTS) for e in events), "switches are nodes 72 to 83"
    assert {e[5] for e in events} == {3}, "the flows' priority group"
    assert sum(e[4] for e in events) == int(frame.pause.sum())

    last, ports = read_qlen(tmp_path / "qlen.txt")
    assert last == round(result.queues.time_s.iloc[-1] * 1e9)
    # Every switch port, numbered as HPCC's interfaces (from 1).
    assert len(ports) == TORS * (PER_TOR + SPINES) + SPINES * TORS
    ticks = len(result.queues) // len(ports)
    assert all(sum(counts) == ticks for counts in ports.values())
    # Host 0's ToR port (node 72, interface 1) held most of the incast.
    assert len(ports[(HOSTS, 1)]) > 1


def test_files_that_are_not_theirs_are_refused_with_file_and_line(tmp_path):
    write_topology(tmp_path / "topology.txt")
    write_flows(tmp_path / "flow.txt", [(0, 75, 100, 1000, 0.0)])
    result = rnic_fabric(
        "--topology-file=topology.txt", "--flow-file=flow.txt", cwd=tmp_path
    )
    assert result.returncode == 1
    assert (
        "error: flow.txt:2: node 75 is not a host of the fabric (its 72 hosts have the node ids "
        "0 to 71)" in result.stderr
    )
    result = rnic_fabric("--topology-file=topology.txt", "--hosts=4", cwd=tmp_path)
    assert "replaces the built-in topologies: leave out hosts" in result.stderr
    with pytest.raises(ValueError, match="flow.txt replaces the workload: leave out workload"):
        drp.run_fabric(flow_file=str(tmp_path / "flow.txt"), workload="permutation")


def test_a_flow_file_on_a_built_in_topology_names_hosts_by_index(tmp_path):
    write_flows(tmp_path / "flow.txt", [(0, 8, 100, 4096, 0.0), (8, 0, 7, 4096, 0.0001)])
    result = drp.run_fabric(flow_file=str(tmp_path / "flow.txt"), hosts=9)
    assert sorted(zip(result.transfers.source, result.transfers.destination)) == [(0, 8), (8, 0)]
    assert sorted(result.fct.flow_id) == [7, 100]


def test_output_files_are_no_campaign_parameters(tmp_path):
    campaign = drp.FabricCampaign(tmp_path / "runs.db")
    with pytest.raises(ValueError, match="fct_file = 'fct.txt': captures are not a campaign"):
        campaign.run({"fct_file": "fct.txt"}, repetitions=1)


#: A config.txt in the layout of HPCC's run.py (DCTCP: KMIN = KMAX, a step).
CONFIG = """ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1

PACKET_PAYLOAD_SIZE 1000

TOPOLOGY_FILE topology.txt
FLOW_FILE flow.txt
TRACE_FILE trace.txt
TRACE_OUTPUT_FILE mix.tr
FCT_OUTPUT_FILE fct_dctcp.txt
PFC_OUTPUT_FILE pfc_dctcp.txt

SIMULATOR_STOP_TIME 4.00

CC_MODE {mode}
EWMA_GAIN 0.0625
RATE_AI 10Mb/s
RATE_HAI 10Mb/s
DCTCP_RATE_AI 615Mb/s
L2_ACK_INTERVAL 1
HAS_WIN 1
ACK_HIGH_PRIO 0
LINK_DOWN 0 0 0
KMAX_MAP 2 25000000000 75 100000000000 300
KMIN_MAP 2 25000000000 75 100000000000 300
PMAX_MAP 2 25000000000 1.00 100000000000 1.00
BUFFER_SIZE 8
QLEN_MON_FILE qlen_dctcp.txt
QLEN_MON_START 2000000000
QLEN_MON_END 3000000000
"""


def drp_hpcc_config(*args, cwd):
    return example("drp-hpcc-config", *args, cwd=cwd)


def test_drp_hpcc_config_runs_their_config_and_names_what_it_does_not_follow(tmp_path):
    write_topology(tmp_path / "topology.txt")
    flows = [(h, 0, 200, 100_000, 0.0) for h in (9, 18, 27, 36)] + random_flows(40)
    write_flows(tmp_path / "flow.txt", flows)
    (tmp_path / "config.txt").write_text(CONFIG.format(mode=8))
    result = drp_hpcc_config("config.txt", "--show", "--queueInterval=20us", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "CC_MODE                    8                        cc = dctcp" in result.stdout
    assert "ns3::DrpDctcp::G = 0.0625" in result.stdout
    for key in ("TRACE_FILE", "SIMULATOR_STOP_TIME", "DCTCP_RATE_AI", "HAS_WIN", "QLEN_MON_START"):
        assert f"note: {key} (line " in result.stderr
    rows = read_fct(tmp_path / "fct_dctcp.txt")
    assert len(rows) == len(flows)
    assert sum(r["dport"] == 200 for r in rows) == 4
    assert (tmp_path / "pfc_dctcp.txt").exists()
    last, ports = read_qlen(tmp_path / "qlen_dctcp.txt")
    assert last > 0 and len(ports) == TORS * (PER_TOR + SPINES) + SPINES * TORS

    (tmp_path / "config.txt").write_text(CONFIG.format(mode=10))
    result = drp_hpcc_config("config.txt", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "error: config.txt:15: CC_MODE 10 is HPCC-PINT, which drp does not have yet (drp has "
        "1, DCQCN, 3, HPCC, 7, TIMELY, and 8, DCTCP)" in result.stderr
    )

    (tmp_path / "config.txt").write_text(CONFIG.format(mode=3))
    result = drp_hpcc_config("config.txt", "--show", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "cc = hpcc" in result.stdout
    assert "ns3::DrpHpcc::RateAi = 10Mbps" in result.stdout
    assert len(read_fct(tmp_path / "fct_dctcp.txt")) == len(flows)


def test_hpcc_config_gives_run_fabric_its_parameters(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # HPCC's simulator reads the files it names from here
    write_topology(tmp_path / "topology.txt")
    write_flows(tmp_path / "flow.txt", random_flows(10))
    (tmp_path / "config.txt").write_text(CONFIG.format(mode=8))
    params, notes = drp.hpcc_config("config.txt")
    assert params["cc"] == "dctcp" and params["lossless"] and params["payload"] == 1000
    assert params["ecn_by_rate"] == "25Gbps:75000B:75001B:1,100Gbps:300000B:300001B:1"
    assert params["defaults"]["ns3::DrpDctcp::G"] == "0.0625"
    assert any(note.startswith("HAS_WIN (line 21)") for note in notes)
    result = drp.run_fabric(**params)
    assert result.summary["successes"] == 10
    assert len(read_fct(tmp_path / "fct_dctcp.txt")) == 10
    (tmp_path / "config.txt").write_text(CONFIG.format(mode=7))
    params, notes = drp.hpcc_config("config.txt")
    assert params["cc"] == "timely"
    assert params["defaults"]["ns3::DrpTimely::AdditiveStep"] == "10Mbps"  # RATE_AI
    assert any(note.startswith("CC_MODE 7: drp's TIMELY updates") for note in notes)
    result = drp.run_fabric(**params)
    assert result.summary["successes"] == 10


def test_the_campaign_store_keeps_pause_events_and_queue_samples(tmp_path):
    campaign = drp.FabricCampaign(tmp_path / "runs.db")
    grid = {
        "hosts": 5,
        "bytes": 200_000,
        "lossless": True,
        "buffer": "200KB",
        "timeout_mode": "adaptive",
        "queue_interval": "20us",
    }
    campaign.run(grid, repetitions=1)
    alone = drp.run_fabric(**grid)
    events = campaign.pfc_events_dataframe()
    assert len(events) == len(alone.pfc_events) > 0
    assert list(events.columns[-6:]) == list(drp.fabric.PFC_EVENT_COLUMNS)
    assert events["time_s"].tolist() == alone.pfc_events["time_s"].tolist()
    assert events["pause"].astype(bool).tolist() == alone.pfc_events["pause"].tolist()
    queues = campaign.queues_dataframe()
    assert len(queues) == len(alone.queues) > 0
    assert queues["queue_bytes"].tolist() == alone.queues["bytes"].tolist()
    assert set(queues["hosts"]) == {5}  # each row with its run's parameters
    # A lossy run without samples stores none.
    campaign.run({"hosts": 5, "bytes": 200_000}, repetitions=1)
    assert len(campaign.pfc_events_dataframe({"hosts": 5, "bytes": 200_000})) == 0
