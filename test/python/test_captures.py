"""Captures of the experiments: --pcap and --ascii of rnic-fabric and
drp-paper-p2p, and the pcap and ascii parameters of drp.run_fabric and drp.run.

Every RNIC and switch port gets PREFIX-NODE-DEVICE.pcap (the names of ns-3's
EnablePcapAll), an Ethernet capture holding the DRP frames it sent and
received; capturing changes no result.
"""

import pathlib
import re
import struct
import subprocess

import pytest
from pcap_file import read_pcap

import drp

BUILD = pathlib.Path(drp.__file__).resolve().parents[2]
DRP_ETHERTYPE = 0x01FF
PCAP_NAME = re.compile(r"^(?P<prefix>.+)-(?P<node>\d+)-(?P<device>\d+)\.pcap$")


def drp_frames(path):
    return [f for f in read_pcap(path) if struct.unpack("!H", f[12:14])[0] == DRP_ETHERTYPE]


def captures(folder, prefix):
    """Map (node, device) to each capture file of a prefix in a folder."""
    found = {}
    for path in folder.iterdir():
        match = PCAP_NAME.match(path.name)
        if match and match["prefix"] == prefix:
            found[(int(match["node"]), int(match["device"]))] = path
    return found


def run_program(name, folder, *args):
    program = BUILD / "examples" / name
    if not program.exists():
        pytest.skip("examples not built")
    return subprocess.run(
        [str(program), *args], cwd=folder, capture_output=True, text=True, timeout=120, check=True
    )


FABRIC = {"topology": "star", "hosts": 4, "workload": "incast", "bytes": 8192}


def test_rnic_fabric_captures_every_rnic_and_switch_port(tmp_path):
    run_program(
        "rnic-fabric", tmp_path, "--topology=star", "--hosts=4", "--bytes=8192",
        "--pcap=incast", "--ascii=incast",
    )
    files = captures(tmp_path, "incast")
    # 4 hosts on one switch: 4 RNICs and 4 switch ports.
    assert len(files) == 8, sorted(p.name for p in tmp_path.iterdir())
    for path in files.values():
        assert drp_frames(path), f"{path.name} holds no DRP frame"
        assert path.with_suffix(".tr").stat().st_size > 0
    # The switch's ports (one node) carry what the RNICs (one node each) carry.
    nodes = {}
    for (node, _), path in files.items():
        nodes.setdefault(node, []).append(len(drp_frames(path)))
    switch = max(nodes.values(), key=len)
    assert len(switch) == 4 and sum(len(v) for v in nodes.values()) == 8


def test_run_fabric_captures_as_rnic_fabric_does_and_changes_no_result(tmp_path):
    run_program(
        "rnic-fabric", tmp_path, "--topology=star", "--hosts=4", "--bytes=8192", "--pcap=program"
    )
    plain = drp.run_fabric(**FABRIC)
    captured = drp.run_fabric(**FABRIC, pcap=str(tmp_path / "python"))
    assert captured.params["pcap"] == str(tmp_path / "python")
    assert list(captured.transfers["fct_us"]) == list(plain.transfers["fct_us"])
    program, python = captures(tmp_path, "program"), captures(tmp_path, "python")
    assert set(python) == set(program) and len(python) == 8
    for key in python:
        assert python[key].read_bytes() == program[key].read_bytes()


def test_run_and_drp_paper_p2p_capture_both_rnics(tmp_path):
    result = drp.run(transfers=3, size=8192, pcap=str(tmp_path / "p2p"))
    files = captures(tmp_path, "p2p")
    assert len(files) == 2
    # Every transfer: REQ, data, REL one way; REQ_ACK, ACKs, REL_ACK the other.
    for path in files.values():
        assert len(drp_frames(path)) > 3 * 8
    assert result.summary["successes"] == 3
    run_program(
        "drp-paper-p2p", tmp_path, "--transfers=2", "--size=4096", "--repetitions=2",
        "--pcap=paper",
    )
    for method in ("traditional", "dynamic"):
        for run in (1, 2):
            assert len(captures(tmp_path, f"paper-{method}-run{run}")) == 2


@pytest.mark.parametrize("runner", [drp.run, drp.run_fabric])
def test_a_prefix_in_a_missing_folder_is_refused(tmp_path, runner):
    with pytest.raises(ValueError, match=r"pcap = .*missing/x: cannot write in the folder"):
        runner(pcap=str(tmp_path / "missing" / "x"))
    with pytest.raises(ValueError, match=r"ascii = .*/: names a folder|ascii = .* names a folder"):
        runner(ascii=str(tmp_path) + "/")


def test_campaigns_refuse_captures(tmp_path):
    with drp.FabricCampaign(str(tmp_path / "c.db")) as campaign:
        with pytest.raises(ValueError, match="pcap"):
            campaign.run({**FABRIC, "pcap": "x"}, repetitions=1)
