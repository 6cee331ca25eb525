"""Priority flow control frames in a capture, as Wireshark decodes them.

pfc-pause --pcap=pfc-pause writes what each port of one link sent and received; port 1
pauses class 3 of port 0 (XOFF, refreshed, then XON). tshark must decode every
MAC Control frame of port 1's capture as IEEE 802.1Qbb PFC ("Class Based Flow
Control [CBFC] Pause") with the class-enable vector and pause times that the
frame's bytes hold (read here from the pcap file independently, with its
FCS), and report no expert warning or error.
"""

import pathlib
import shutil
import struct
import subprocess
import zlib

import pytest
from pcap_file import read_pcap

import drp

BUILD = pathlib.Path(drp.__file__).resolve().parents[2]
LUA = pathlib.Path(__file__).resolve().parents[2] / "contrib" / "drp" / "wireshark" / "drp.lua"
TSHARK = shutil.which("tshark")

pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (scripts/setup.sh)")

#: pfc-pause's options: pause times of 100 quanta (51.2 us at 1 Gb/s, refreshed
#: every 25.6 us) from XOFF at 20 us to XON at 100 us.
QUANTA = 100
OPTIONS = [f"--quanta={QUANTA}", "--xoff=20us", "--xon=100us", "--frames=20", "--pcap=pfc-pause"]


@pytest.fixture(scope="module")
def capture(tmp_path_factory):
    program = BUILD / "examples" / "pfc-pause"
    if not program.exists():
        pytest.skip("examples not built")
    folder = tmp_path_factory.mktemp("pfc-capture")
    done = subprocess.run([str(program), *OPTIONS], cwd=folder, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    pcap = folder / "pfc-pause-1-0.pcap"
    assert pcap.stat().st_size > 0
    return {"pcap": pcap, "stdout": done.stdout, "home": folder}


def tshark(capture, *args):
    env = {"HOME": str(capture["home"]), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([TSHARK, "-n", "-o", "eth.check_fcs:TRUE", "-r", str(capture["pcap"]),
                           *args], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pause_frames(pcap):
    """The MAC Control frames port 1 sent: (vector, eight times) from their bytes."""
    frames = []
    for frame in read_pcap(pcap):
        if frame[12:14] != b"\x88\x08":
            continue
        assert len(frame) == 64, "a minimum-size frame"
        assert frame[0:6] == bytes.fromhex("0180c2000001"), "the PFC destination"
        assert struct.unpack("<I", frame[-4:])[0] == zlib.crc32(frame[:-4]), "FCS"
        opcode, vector, *times = struct.unpack(">HH8H", frame[14:34])
        assert opcode == 0x0101
        assert frame[34:60] == bytes(26), "zero padding"
        frames.append((vector, times))
    return frames


def test_the_bytes_are_the_expected_pauses(capture):
    frames = pause_frames(capture["pcap"])
    # XOFF at 20 us, refreshed at 45.6, 71.2 and 96.8 us (half of 51.2 us after
    # each), XON at 100 us.
    assert [vector for vector, _ in frames] == [1 << 3] * 5
    assert [times[3] for _, times in frames] == [QUANTA] * 4 + [0]
    assert all(times[c] == 0 for _, times in frames for c in range(8) if c != 3)


def test_tshark_decodes_pfc_as_the_bytes_say(capture):
    frames = pause_frames(capture["pcap"])
    fields = ["macc.opcode", "macc.cbfc.enbv"] + [f"macc.cbfc.pause_time.c{c}" for c in range(8)]
    args = ["-Y", "macc", "-T", "fields", "-E", "separator=,"]
    for field in fields:
        args += ["-e", field]
    rows = [line.split(",") for line in tshark(capture, *args).splitlines()]
    assert len(rows) == len(frames)
    for row, (vector, times) in zip(rows, frames):
        assert int(row[0], 16) == 0x0101
        assert int(row[1], 16) == vector
        assert [int(value) for value in row[2:]] == times


def test_tshark_names_pfc_fields(capture):
    verbose = tshark(capture, "-V", "-Y", "macc")
    assert "Opcode: Class Based Flow Control [CBFC] Pause (0x0101)" in verbose
    assert "CBFC Class Enable Vector: 0x0008, C3" in verbose
    assert "C3: True" in verbose
    assert "CBFC Class Pause Times" in verbose
    assert f"C3: {QUANTA}" in verbose


def test_no_expert_warnings_or_errors(capture):
    expert = tshark(capture, "-q", "-z", "expert")
    assert "Errors" not in expert and "Warns" not in expert, expert


def test_the_drp_dissector_takes_no_filler_frame_for_drp(capture):
    """The filler frames use EtherType 0x88B6, not DRP's 0x88B5 or 0x01FF: with drp.lua
    loaded, no frame is DRP and nothing is an error (there were 60 before)."""
    assert tshark(capture, "-X", f"lua_script:{LUA}", "-Y", "drp").strip() == ""
    expert = tshark(capture, "-X", f"lua_script:{LUA}", "-q", "-z", "expert")
    assert "Errors" not in expert, expert


def test_port_0_was_paused_and_went_on(capture):
    lines = capture["stdout"].splitlines()
    class0 = next(line for line in lines if line.startswith("class 0:"))
    class3 = next(line for line in lines if line.startswith("class 3:"))
    assert "20 frames sent" in class0 and "0 pause(s) received" in class0
    # Paused from the XOFF frame's arrival to the XON frame's: 80 us.
    assert "20 frames sent" in class3 and "5 pause(s) received, paused for +80us" in class3
