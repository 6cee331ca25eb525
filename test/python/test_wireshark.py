"""The Wireshark dissector (contrib/drp/wireshark/drp.lua) on rnic-first's captures.

rnic-first --pcap writes what each RNIC sent and received. tshark, with the
dissector loaded through -X lua_script, must decode every DRP field as the
frame's bytes say (read here from the pcap file independently), write the Info
column as documented, answer the display filters, leave ARP and ICMP as
Wireshark decodes them, find a correct FCS in every frame and report no
malformed frame, for both EtherTypes (0x01FF through the heuristic on eth,
0x88B5 through the ethertype table).
"""

import functools
import os
import pathlib
import re
import shutil
import struct
import subprocess
import zlib

import pytest
from pcap_file import read_pcap

import drp

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(drp.__file__).resolve().parents[2]
LUA = ROOT / "contrib" / "drp" / "wireshark" / "drp.lua"
TSHARK = shutil.which("tshark")

pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (scripts/setup.sh)")

#: CTRL bits.
REQ, REQ_ACK, DATA, REL, REL_ACK, READ, INDIRECT, ACK = (1 << i for i in range(8))
TYPE_NAMES = {REQ: "REQ", REQ_ACK: "REQ_ACK", DATA: "DATA", REL: "REL", REL_ACK: "REL_ACK"}
#: STATUS: bit 5 the congestion notification, bits 7-6 the ECN field.
STATUS_CNP = 0x20
ECN_NAMES = ("Not-ECT", "ECT(1)", "ECT(0)", "CE")

#: The captures: (EtherType, impaired). Impaired: registrations fail and frames
#: are lost, so invalid replies, indirect data and retransmissions appear.
CAPTURES = [(0x01FF, False), (0x01FF, True), (0x88B5, False), (0x88B5, True)]


def environment(home):
    """tshark with an empty personal configuration: no installed copy of the dissector."""
    env = dict(os.environ)
    env["HOME"] = str(home)
    env.pop("WIRESHARK_CONFIG_DIR", None)
    return env


@pytest.fixture(scope="module")
def captures(tmp_path_factory):
    program = BUILD / "examples" / "rnic-first"
    if not program.exists():
        pytest.skip("examples not built")
    made = {}
    for ethertype, impaired in CAPTURES:
        folder = tmp_path_factory.mktemp(f"capture-{ethertype:04x}-{int(impaired)}")
        args = [str(program), f"--etherType=0x{ethertype:04X}", "--pcap=rnic-first", "--ping=1"]
        args += ["--frp=0.5", "--lfp=0.05", "--transfers=8"] if impaired else [
            "--frp=0", "--transfers=2"]
        done = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        made[(ethertype, impaired)] = folder / "rnic-first-0-0.pcap"
        assert made[(ethertype, impaired)].stat().st_size > 0
    return made


def expected_info(header):
    """The documented Info column of a DRP header (32 bytes)."""
    ctrl, status, tid, _, _, length, sn, ackn = struct.unpack(">BBHQQIII", header)
    types = ctrl & 0x1F
    name = TYPE_NAMES.get(types, "ACK" if types == 0 and ctrl & ACK else None)
    parts = [name, f"tid={tid}"]
    if name == "REQ":
        parts.append(f"len={length}")
    elif name == "REQ_ACK":
        parts.append("confirm" if ctrl & ACK else ("valid", "invalid")[status & 1])
    elif name == "DATA":
        parts.append(f"sn={sn}")
    if ctrl & INDIRECT:
        parts.append("indirect")
    if ctrl & READ:
        parts.append("read")
    if ctrl & ACK and name != "REQ_ACK":
        parts.append(f"ackn={ackn}")
    if status >> 6:
        parts.append(ECN_NAMES[status >> 6])
    if status & STATUS_CNP:
        parts.append("cnp")
    if status & STATUS_INT:
        parts.append("int")
    return " ".join(parts)


FIELDS = ["frame.number", "eth.type", "_ws.col.Protocol", "_ws.col.Info", "drp.ctrl", "drp.type",
          "drp.status", "drp.tid", "drp.sba", "drp.dba", "drp.len", "drp.sn", "drp.ackn",
          "drp.ctrl.indirect", "drp.ctrl.read", "drp.ctrl.ack", "drp.fcs", "drp.fcs.status",
          "eth.fcs.status", "eth.src", "eth.dst"]


def tshark(home, pcap, *args, lua=True, check_fcs=False):
    """tshark's output; with check_fcs, both FCS checks (Wireshark's, and the DRP one in Lua)."""
    command = [TSHARK, "-n", "-r", str(pcap)]
    if check_fcs:
        command += ["-o", "eth.check_fcs:TRUE"]
    if lua:
        command += ["-X", f"lua_script:{LUA}"]
        if check_fcs:
            command += ["-o", "drp.check_fcs:TRUE"]
    done = subprocess.run(command + list(args), capture_output=True, text=True, timeout=120,
                          env=environment(home))
    assert done.returncode == 0, done.stderr
    return done.stdout


@functools.lru_cache(maxsize=None)
def decoded(home, pcap):
    """One dict per frame, FIELDS as tshark decodes them (FCSs checked)."""
    args = ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for field in FIELDS:
        args += ["-e", field]
    rows = []
    for line in tshark(home, pcap, *args, check_fcs=True).splitlines():
        rows.append(dict(zip(FIELDS, line.split("\t"))))
    return rows


def counts(home, pcap, filters, lua=True, check_fcs=False):
    """The frames each display filter matches, from one tshark run (-z io,stat)."""
    output = tshark(home, pcap, "-q", "-z", "io,stat,0," + ",".join(filters), lua=lua,
                    check_fcs=check_fcs)
    row = [line for line in output.splitlines() if "<>" in line][-1]
    cells = [cell.strip() for cell in row.split("|") if cell.strip()][1:]
    frames = [int(cell) for cell in cells[0::2]]
    assert len(frames) == len(filters), output
    return dict(zip(filters, frames))


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """An empty home folder for tshark."""
    return tmp_path_factory.mktemp("home")


@pytest.mark.parametrize("ethertype, impaired", CAPTURES)
def test_every_drp_field_decoded_as_the_bytes_say(captures, home, ethertype, impaired):
    pcap = captures[(ethertype, impaired)]
    frames = read_pcap(pcap)
    rows = decoded(home, pcap)
    assert len(rows) == len(frames)
    drp_frames = 0
    for frame, row in zip(frames, rows):
        assert len(frame) >= 64, "frames as on the wire: at least 64 bytes"
        fcs = struct.unpack("<I", frame[-4:])[0]
        assert fcs == zlib.crc32(frame[:-4]), f"frame {row['frame.number']}: FCS"
        (kind,) = struct.unpack(">H", frame[12:14])
        if kind != ethertype:
            continue
        drp_frames += 1
        header = frame[14:46]
        ctrl, status, tid, sba, dba, length, sn, ackn = struct.unpack(">BBHQQIII", header)
        where = f"frame {row['frame.number']}"
        assert row["_ws.col.Protocol"] == "DRP", where
        assert int(row["eth.type"], 16) == ethertype, where
        assert int(row["drp.ctrl"], 16) == ctrl, where
        assert int(row["drp.status"], 16) == status, where
        assert int(row["drp.tid"]) == tid, where
        assert int(row["drp.sba"], 16) == sba, where
        assert int(row["drp.dba"], 16) == dba, where
        assert int(row["drp.len"]) == length, where
        assert int(row["drp.sn"]) == sn, where
        assert int(row["drp.ackn"]) == ackn, where
        assert int(row["drp.ctrl.indirect"]) == bool(ctrl & INDIRECT), where
        assert int(row["drp.ctrl.read"]) == bool(ctrl & READ), where
        assert int(row["drp.ctrl.ack"]) == bool(ctrl & ACK), where
        assert int(row["drp.fcs"], 16) == fcs, where
        assert row["drp.fcs.status"] == "1", f"{where}: FCS verified good"
        assert row["_ws.col.Info"] == expected_info(header), where
        assert row["eth.src"] and row["eth.dst"], f"{where}: eth.src and eth.dst"
    assert drp_frames > 20


@pytest.mark.parametrize("ethertype, impaired", CAPTURES)
def test_the_info_column_reads_as_documented(captures, home, ethertype, impaired):
    infos = [row["_ws.col.Info"] for row in decoded(home, captures[(ethertype, impaired)])
             if row["_ws.col.Protocol"] == "DRP"]
    patterns = {
        "REQ": r"REQ tid=\d+ len=65536",
        "REQ_ACK valid": r"REQ_ACK tid=\d+ valid",
        "DATA": r"DATA tid=\d+ sn=\d+",
        "ACK": r"ACK tid=\d+ ackn=\d+",
        "REL": r"REL tid=\d+",
        "REL_ACK": r"REL_ACK tid=\d+",
    }
    if impaired:
        patterns["REQ_ACK invalid"] = r"REQ_ACK tid=\d+ invalid"
        patterns["DATA indirect"] = r"DATA tid=\d+ sn=\d+ indirect"
    for what, pattern in patterns.items():
        assert any(re.fullmatch(pattern, info) for info in infos), what
    assert "REQ tid=1 len=65536" in infos


@pytest.mark.parametrize("ethertype", [0x01FF, 0x88B5])
def test_display_filters(captures, home, ethertype):
    pcap = captures[(ethertype, True)]
    frames = [f for f in read_pcap(pcap) if struct.unpack(">H", f[12:14])[0] == ethertype]
    ctrl = [f[14] for f in frames]
    tids = [struct.unpack(">H", f[16:18])[0] for f in frames]
    indirect = sum(1 for c in ctrl if c & INDIRECT)
    invalid = sum(1 for f in frames if f[14] & 0x1F == REQ_ACK and f[15] == 1)
    assert indirect > 0 and invalid > 0 and tids.count(3) > 0
    expected = {
        "drp": len(frames),
        "drp.ctrl.indirect == 1": indirect,
        "drp.ctrl.indirect": len(frames),  # a flag is present in every frame
        "drp.tid == 3": tids.count(3),
        "drp.ctrl.req_ack == 1 && drp.status == 1": invalid,
        'drp.type == "REQ"': sum(1 for c in ctrl if c & 0x1F == REQ),
        "drp.sn >= 1 && drp.ctrl.data == 1": sum(
            1 for f in frames if f[14] & DATA and struct.unpack(">I", f[38:42])[0] >= 1),
        "eth.type == 0x%04x && !drp" % ethertype: 0,
    }
    assert counts(home, pcap, list(expected)) == expected


@pytest.mark.parametrize("ethertype", [0x01FF, 0x88B5])
def test_other_traffic_still_decodes(captures, home, ethertype):
    pcap = captures[(ethertype, True)]
    found = counts(home, pcap, ["arp.opcode == 1", "arp.opcode == 2", "icmp.type == 8",
                                "icmp.type == 0", "(arp || icmp) && drp", "arp && eth.padding",
                                "(arp || ip) && eth.fcs.status == 1", "arp || ip"],
                   check_fcs=True)
    assert found["arp.opcode == 1"] >= 1 and found["arp.opcode == 2"] >= 1
    assert found["icmp.type == 8"] >= 2 and found["icmp.type == 0"] >= 2
    assert found["(arp || icmp) && drp"] == 0
    # Padded short frames (ARP), and the FCS Wireshark checks itself.
    assert found["arp && eth.padding"] >= 1
    assert found["(arp || ip) && eth.fcs.status == 1"] == found["arp || ip"]


@pytest.mark.parametrize("ethertype, impaired", CAPTURES)
def test_no_malformed_frame_and_no_error(captures, home, ethertype, impaired):
    pcap = captures[(ethertype, impaired)]
    summary = tshark(home, pcap, "-q", "-z", "expert", check_fcs=True)
    assert "Errors" not in summary and "Warns" not in summary, summary
    assert counts(home, pcap, ["_ws.malformed"], check_fcs=True) == {"_ws.malformed": 0}


def test_without_the_dissector_0x01ff_reads_as_malformed_802_3(captures, home):
    """Why the heuristic exists: Wireshark reads 0x01FF as an 802.3 length."""
    pcap = captures[(0x01FF, True)]
    found = counts(home, pcap, ["_ws.malformed || _ws.expert.severity >= error", "eth.len == 511"],
                   lua=False)
    assert found["_ws.malformed || _ws.expert.severity >= error"] > 0
    assert found["eth.len == 511"] > 0


def test_cmake_install_puts_the_dissector_in_the_personal_plugin_folder(tmp_path):
    cache = BUILD / "CMakeCache.txt"
    if not cache.exists():
        pytest.skip("no CMake build tree")
    env = environment(tmp_path)
    env.pop("DRP_WIRESHARK_PLUGIN_DIR", None)
    done = subprocess.run(["cmake", "--install", str(BUILD), "--component", "wireshark"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    folders = subprocess.run([TSHARK, "-G", "folders"], capture_output=True, text=True,
                             env=env).stdout
    personal = re.search(r"Personal Lua Plugins:\s*(\S+)", folders).group(1)
    assert pathlib.Path(personal).is_relative_to(tmp_path)
    assert (pathlib.Path(personal) / "drp.lua").read_bytes() == LUA.read_bytes()
    # The override.
    env["DRP_WIRESHARK_PLUGIN_DIR"] = str(tmp_path / "elsewhere")
    done = subprocess.run(["cmake", "--install", str(BUILD), "--component", "wireshark"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "elsewhere" / "drp.lua").exists()
    # Installed, Wireshark loads it without -X.
    pcap = tmp_path / "one.pcap"
    frame = bytes.fromhex("020000000002020000000001") + b"\x88\xb5" + struct.pack(
        ">BBHQQIII", REQ, 0, 7, 0x1000, 0x2000, 4096, 0, 0) + bytes(14)
    frame += struct.pack("<I", zlib.crc32(frame))
    pcap.write_bytes(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
                     + struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)
    done = subprocess.run([TSHARK, "-n", "-r", str(pcap), "-T", "fields", "-e", "_ws.col.Info"],
                          capture_output=True, text=True, env=environment(tmp_path))
    assert done.stdout.strip() == "REQ tid=7 len=4096"


def fabric_captures(tmp_path_factory, prefix, *options):
    """Run rnic-fabric with ``options`` and pcap captures named ``prefix``;
    return (every RNIC's and switch port's capture, its output)."""
    program = BUILD / "examples" / "rnic-fabric"
    if not program.exists():
        pytest.skip("examples not built")
    folder = tmp_path_factory.mktemp(f"capture-{prefix}")
    done = subprocess.run([str(program), *options, f"--pcap={prefix}"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return sorted(folder.glob(f"{prefix}-*.pcap")), done.stdout


@pytest.fixture(scope="module")
def ecn_captures(tmp_path_factory):
    """Every RNIC's and switch port's capture of an incast whose switch marks ECN."""
    pcaps, stdout = fabric_captures(tmp_path_factory, "ecn", "--hosts=5", "--ecn")
    assert re.search(r"ECN: [1-9]\d* frames marked CE", stdout), stdout
    return pcaps


def test_marked_frames_and_congestion_notifications_decode(ecn_captures, home):
    """ECT(0) and CE data, ACKs with CNP: each shown as the bytes say, no expert error."""
    seen = {"ect0": 0, "ce": 0, "cnp": 0}
    for pcap in ecn_captures:
        frames = [f for f in read_pcap(pcap) if struct.unpack(">H", f[12:14])[0] == 0x01FF]
        if not frames:
            continue
        status = [f[15] for f in frames]
        expected = {
            "drp.status.ecn == 2": sum(1 for s in status if s >> 6 == 2),
            "drp.status.ecn == 3": sum(1 for s in status if s >> 6 == 3),
            "drp.status.cnp == 1": sum(1 for s in status if s & STATUS_CNP),
            "drp.status.cnp == 1 && !drp.ctrl.ack": 0,
            "drp.status.ecn == 3 && !drp.ctrl.data": 0,
        }
        assert counts(home, pcap, list(expected)) == expected, pcap.name
        seen["ect0"] += expected["drp.status.ecn == 2"]
        seen["ce"] += expected["drp.status.ecn == 3"]
        seen["cnp"] += expected["drp.status.cnp == 1"]
        summary = tshark(home, pcap, "-q", "-z", "expert", check_fcs=True)
        assert "Errors" not in summary and "Warns" not in summary, summary
        for frame, row in zip(read_pcap(pcap), decoded(home, pcap)):
            if struct.unpack(">H", frame[12:14])[0] == 0x01FF:
                assert row["_ws.col.Info"] == expected_info(frame[14:46]), pcap.name
    assert seen["ect0"] > 0 and seen["ce"] > 0 and seen["cnp"] > 0, seen


STATUS_INT = 0x02
INT_RATES_GBPS = (1, 10, 25, 40, 50, 100, 200, 400)


@pytest.fixture(scope="module")
def hpcc_captures(tmp_path_factory):
    """Every RNIC's and switch port's capture of a 40 Gb/s incast with cc=hpcc (INT)."""
    pcaps, _ = fabric_captures(tmp_path_factory, "hpcc", "--hosts=3", "--degree=2",
                               "--bytes=100000", "--hostRate=40Gbps", "--cc=hpcc", "--window=64")
    return pcaps


def first_hop(frame):
    """(NHOP, rate Gb/s, time ns, bytes sent, queue bytes) of a DRP frame's INT extension."""
    (word,) = struct.unpack(">Q", frame[48:56])
    return (frame[46], INT_RATES_GBPS[word >> 61], (word >> 37) & 0xFFFFFF,
            ((word >> 17) & 0xFFFFF) * 128, (word & 0x1FFFF) * 80)


def test_in_band_telemetry_decodes_as_the_bytes_say(hpcc_captures, home):
    """HPCC's INT extension: every hop's fields as the bytes say, no expert error."""
    hops = {0: 0, 1: 0}
    for pcap in hpcc_captures:
        frames = [f for f in read_pcap(pcap)
                  if struct.unpack(">H", f[12:14])[0] == 0x01FF and f[15] & STATUS_INT]
        if not frames:
            continue
        summary = tshark(home, pcap, "-q", "-z", "expert", check_fcs=True)
        assert "Errors" not in summary and "Warns" not in summary, summary
        fields = ["drp.int.nhop", "drp.int.rate", "drp.int.time", "drp.int.bytes",
                  "drp.int.qlen"]
        args = ["-Y", "drp.status.int == 1", "-T", "fields", "-E", "separator=\t",
                "-E", "occurrence=f"]
        for field in fields:
            args += ["-e", field]
        rows = tshark(home, pcap, *args).splitlines()
        assert len(rows) == len(frames), pcap.name
        for frame, row in zip(frames, rows):
            nhop, rate, time, sent, queue = first_hop(frame)
            cells = row.split("\t")
            assert int(cells[0]) == nhop
            hops[nhop] = hops.get(nhop, 0) + 1
            if nhop:
                assert [int(c) for c in cells[1:]] == [rate, time, sent, queue], pcap.name
                assert rate == 40
    assert hops[0] > 0 and hops[1] > 0, hops


@pytest.fixture(scope="module")
def verbs_captures(tmp_path_factory):
    """Host 0's capture of ib-perftest's send_lat and of atomic_lat with each operation."""
    program = BUILD / "examples" / "ib-perftest"
    if not program.exists():
        pytest.skip("examples not built")
    made = {}
    for name, options in [("send", ["--test=send_lat"]),
                          ("fetch_add", ["--test=atomic_lat", "--atomic=FETCH_AND_ADD"]),
                          ("compare_swap", ["--test=atomic_lat", "--atomic=CMP_AND_SWAP"])]:
        folder = tmp_path_factory.mktemp(name)
        done = subprocess.run([str(program), "--iterations=6", f"--pcap={name}"] + options,
                              cwd=folder, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        made[name] = folder / f"{name}-0-0.pcap"
    return made


def test_message_extension_decodes_as_the_bytes_say(verbs_captures, home):
    """The verbs' extension after a REQ with MSG: a SEND's 16 bytes, an atomic's 32, as the
    bytes say, in a write's or a read's REQ as the opcode requires, no expert error."""
    opcodes = {"send": 0x04, "fetch_add": 0x14, "compare_swap": 0x13}
    for name, pcap in verbs_captures.items():
        summary = tshark(home, pcap, "-q", "-z", "expert", check_fcs=True)
        assert "Errors" not in summary and "Warns" not in summary, summary
        requests = [f for f in read_pcap(pcap)
                    if struct.unpack(">H", f[12:14])[0] == 0x01FF and f[14] & 0x01
                    and f[15] & 0x04]
        assert requests, name
        fields = ["drp.msg.opcode", "drp.msg.dqpn", "drp.msg.sqpn", "drp.msg.rkey",
                  "drp.msg.swap", "drp.msg.compare", "drp.ctrl.read"]
        args = ["-Y", "drp.status.msg == 1", "-T", "fields", "-E", "separator=\t",
                "-E", "occurrence=f"]
        for field in fields:
            args += ["-e", field]
        rows = tshark(home, pcap, *args).splitlines()
        assert len(rows) == len(requests), name
        for frame, row in zip(requests, rows):
            cells = row.split("\t")
            ext = frame[46:]
            assert ext[0] == opcodes[name], name
            assert int(cells[0], 16) == ext[0]
            assert int(cells[1]) == int.from_bytes(ext[1:4], "big")
            assert int(cells[2]) == int.from_bytes(ext[5:8], "big")
            assert int(cells[3], 16) == int.from_bytes(ext[12:16], "big")
            atomic = name != "send"
            assert (cells[6] in ("1", "True")) == atomic, name
            if atomic:
                assert int(cells[4]) == int.from_bytes(ext[16:24], "big")
                assert int(cells[5]) == int.from_bytes(ext[24:32], "big")
                assert struct.unpack(">I", frame[34:38])[0] == 8  # LEN: 8 bytes
            else:
                assert cells[4] == "" and cells[5] == ""


@pytest.fixture(scope="module")
def cm_capture(tmp_path_factory):
    """Host 0's capture of rdma-cm-rpc: the connection manager's messages and two calls."""
    program = BUILD / "examples" / "rdma-cm-rpc"
    if not program.exists():
        pytest.skip("examples not built")
    folder = tmp_path_factory.mktemp("cm")
    done = subprocess.run([str(program), "--calls=2", "--pcap=rpc"], cwd=folder,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return folder / "rpc-0-0.pcap"


def roce_icrc(packet):
    """RoCEv2's ICRC of an IPv4 packet (its last four bytes excluded): CRC-32 over eight
    bytes of ones, the IPv4 header with TOS, TTL and checksum masked, the UDP header with its
    checksum masked, the BTH with its FECN/BECN byte masked, and the rest."""
    masked = bytearray(packet[:-4])
    masked[1] = 0xFF
    masked[8] = 0xFF
    masked[10:12] = b"\xff\xff"
    masked[26:28] = b"\xff\xff"
    masked[32] = 0xFF
    return zlib.crc32(b"\xff" * 8 + bytes(masked))


def test_connection_manager_decodes_in_stock_wireshark(cm_capture, home):
    """The CM's messages are RoCEv2 frames that Wireshark's own InfiniBand dissector reads
    with no plugin: REQ, REP, RTU, DREQ, DREP in that order, UD SEND_ONLY to queue pair 1 with
    the GSI Q_Key, each field as the bytes say, librdmacm's IP CM header read, the ICRC as the
    specification computes it, no expert information; with the DRP dissector loaded the whole
    capture (the calls' DRP frames too) has none either."""
    assert "Errors" not in tshark(home, cm_capture, "-q", "-z", "expert,note,infiniband",
                                  lua=False, check_fcs=True)
    summary = tshark(home, cm_capture, "-q", "-z", "expert", check_fcs=True)
    assert "Errors" not in summary and "Warns" not in summary, summary
    fields = ["infiniband.mad.attributeid", "infiniband.bth.opcode", "infiniband.bth.destqp",
              "infiniband.deth.q_key", "udp.dstport", "infiniband.cm.req.localqpn",
              "infiniband.cm.req.startpsn", "infiniband.cm.req.serviceid.dport",
              "infiniband.cm.req.ip_cm.sport", "infiniband.cm.req.ip_cm.dip4",
              "infiniband.cm.rep.localqpn", "infiniband.invariant.crc"]
    args = ["-Y", "infiniband", "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for field in fields:
        args += ["-e", field]
    rows = [dict(zip(fields, line.split("\t")))
            for line in tshark(home, cm_capture, *args, lua=False).splitlines()]
    frames = [f for f in read_pcap(cm_capture)
              if f[12:14] == b"\x08\x00" and f[14 + 9] == 17
              and struct.unpack(">H", f[36:38])[0] == 4791]
    assert [int(r["infiniband.mad.attributeid"], 16) for r in rows] == [
        0x10, 0x13, 0x14, 0x15, 0x16], rows
    assert len(frames) == len(rows)
    for frame, row in zip(frames, rows):
        packet = frame[14:-4]  # the IPv4 packet: no Ethernet header, no FCS
        bth, mad = packet[28:40], packet[48:]
        assert int(row["udp.dstport"]) == 4791
        assert int(row["infiniband.bth.opcode"]) == bth[0] == 0x64
        assert int(row["infiniband.bth.destqp"], 16) == int.from_bytes(bth[5:8], "big") == 1
        assert int(row["infiniband.deth.q_key"], 16) == 0x80010000
        assert len(mad) == 256 + 4
        icrc = int.from_bytes(packet[-4:], "little")
        assert icrc == roce_icrc(packet), "the ICRC as RoCEv2 computes it"
        assert int(row["infiniband.invariant.crc"], 16) == int.from_bytes(packet[-4:], "big")
    req, rep = frames[0][14:-4][48:], frames[1][14:-4][48:]
    assert int(rows[0]["infiniband.cm.req.localqpn"], 16) == int.from_bytes(req[24 + 32:24 + 35],
                                                                            "big")
    assert int(rows[0]["infiniband.cm.req.startpsn"], 16) == int.from_bytes(req[24 + 44:24 + 47],
                                                                           "big")
    assert int(rows[0]["infiniband.cm.req.serviceid.dport"], 16) == 18515
    assert int(rows[0]["infiniband.cm.req.ip_cm.sport"], 16) == int.from_bytes(
        req[24 + 140 + 2:24 + 140 + 4], "big")
    assert rows[0]["infiniband.cm.req.ip_cm.dip4"] == "10.0.0.2"
    assert int(rows[1]["infiniband.cm.rep.localqpn"], 16) == int.from_bytes(rep[24 + 12:24 + 15],
                                                                            "big")


@pytest.fixture(scope="module")
def roce_captures(tmp_path_factory):
    """Host 0's capture of ib-perftest over the roce method: 2048-byte WRITE, READ and SEND
    ping-pongs (two packets each), and fetch-and-add."""
    program = BUILD / "examples" / "ib-perftest"
    if not program.exists():
        pytest.skip("examples not built")
    made = {}
    for test in ["write_lat", "read_lat", "send_lat", "atomic_lat"]:
        folder = tmp_path_factory.mktemp(f"roce-{test}")
        done = subprocess.run([str(program), "--method=roce", f"--test={test}", "--size=2048",
                               "--iterations=6", f"--pcap={test}"],
                              cwd=folder, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        made[test] = folder / f"{test}-0-0.pcap"
    return made


#: The RC opcodes each test's requester sends, as Wireshark names the packets.
ROCE_REQUESTS = {
    "write_lat": [0x06, 0x08],  # RDMA WRITE FIRST, LAST
    "read_lat": [0x0C],  # RDMA READ request
    "send_lat": [0x00, 0x02],  # SEND FIRST, LAST
    "atomic_lat": [0x14],  # FETCH_ADD
}


def test_roce_frames_decode_in_stock_wireshark(roce_captures, home):
    """The roce method's frames are RoCEv2 that stock tshark decodes with no plugin and no
    expert information: each BTH, RETH and AETH field as the frame's bytes say, the payload
    padded as PadCnt says, PSNs consecutive from the requester, the ICRC as RoCEv2 computes it."""
    fields = ["infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
              "infiniband.bth.padcnt", "infiniband.reth.va", "infiniband.reth.r_key",
              "infiniband.reth.dmalen", "infiniband.aeth.syndrome", "infiniband.invariant.crc"]
    for test, pcap in roce_captures.items():
        assert "Errors" not in tshark(home, pcap, "-q", "-z", "expert,note", lua=False,
                                      check_fcs=True), test
        args = ["-Y", "infiniband", "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
        for field in fields:
            args += ["-e", field]
        rows = [dict(zip(fields, line.split("\t")))
                for line in tshark(home, pcap, *args, lua=False).splitlines()]
        frames = [f for f in read_pcap(pcap) if f[12:14] == b"\x08\x00"]
        assert len(rows) == len(frames) > 0, test
        mine = {}
        for frame, row in zip(frames, rows):
            packet = frame[14:-4]
            assert struct.unpack(">H", packet[22:24])[0] == 4791
            bth = packet[28:40]
            opcode = int(row["infiniband.bth.opcode"])
            assert opcode == bth[0], test
            assert int(row["infiniband.bth.destqp"], 0) == int.from_bytes(bth[5:8], "big")
            assert int(row["infiniband.bth.psn"], 0) == int.from_bytes(bth[9:12], "big")
            assert int(row["infiniband.bth.padcnt"], 0) == (bth[1] >> 4) & 3
            assert int.from_bytes(packet[-4:], "little") == roce_icrc(packet), test
            if opcode in (0x06, 0x0A, 0x0C):  # RETH: WRITE FIRST/ONLY, READ request
                reth = packet[40:56]
                assert int(row["infiniband.reth.va"], 0) == int.from_bytes(reth[0:8], "big")
                assert int(row["infiniband.reth.r_key"], 0) == int.from_bytes(reth[8:12], "big")
                assert int(row["infiniband.reth.dmalen"], 0) == 2048 == int.from_bytes(
                    reth[12:16], "big")
            if opcode == 0x11:  # ACKNOWLEDGE: an ACK (syndrome 000xxxxx)
                assert int(row["infiniband.aeth.syndrome"], 0) >> 5 == 0
            if packet[12:16] == frames[0][14 + 12:14 + 16] and opcode in ROCE_REQUESTS[test]:
                mine.setdefault("psns", []).append(int.from_bytes(bth[9:12], "big"))
                mine.setdefault("opcodes", []).append(opcode)
        # The requester's packets: the test's opcodes in order, PSNs one after another
        # (a READ takes one PSN per response: 2048 bytes, two).
        assert mine["opcodes"][:len(ROCE_REQUESTS[test])] == ROCE_REQUESTS[test], test
        step = 2 if test == "read_lat" else 1
        assert all(b - a == step for a, b in zip(mine["psns"], mine["psns"][1:])), test


@pytest.fixture(scope="module")
def roce_ecn_captures(tmp_path_factory):
    """Every RNIC's and switch port's capture of a lossless RoCE incast under DCQCN."""
    pcaps, stdout = fabric_captures(tmp_path_factory, "roce-ecn", "--hosts=5", "--bytes=300000",
                                    "--method=roce", "--lossless=true", "--buffer=1MB",
                                    "--ecn=true", "--cc=dcqcn")
    assert re.search(r"ECN: [1-9]\d* frames marked CE; [1-9]\d* congestion", stdout), stdout
    return pcaps


def test_roce_ecn_marks_and_cnps_decode_in_stock_wireshark(roce_ecn_captures, home):
    """RoCEv2 data leave ECT(0) and switches mark them CE in the IP header (checksum and
    ICRC still valid); the receivers answer with CNPs (BTH opcode 0x81, BECN set, 16
    reserved bytes, Not-ECT) that stock tshark decodes with no expert information."""
    seen = {"ect0": 0, "ce": 0, "cnp": 0}
    fields = ["infiniband.bth.opcode", "ip.dsfield.ecn", "ip.checksum.status"]
    for pcap in roce_ecn_captures:
        frames = [f for f in read_pcap(pcap) if f[12:14] == b"\x08\x00"]
        if not frames:
            continue
        summary = tshark(home, pcap, "-q", "-z", "expert,note", lua=False, check_fcs=True)
        assert "Errors" not in summary and "Warns" not in summary, (pcap.name, summary)
        args = ["-Y", "infiniband", "-o", "ip.check_checksum:TRUE", "-T", "fields",
                "-E", "separator=\t", "-E", "occurrence=f"]
        for field in fields:
            args += ["-e", field]
        rows = [dict(zip(fields, line.split("\t")))
                for line in tshark(home, pcap, *args, lua=False).splitlines()]
        assert len(rows) == len(frames), pcap.name
        for frame, row in zip(frames, rows):
            packet = frame[14:-4]
            ecn = packet[1] & 3
            assert int(row["ip.dsfield.ecn"], 0) == ecn
            assert row["ip.checksum.status"] == "1", "the IP checksum good after marking"
            assert int.from_bytes(packet[-4:], "little") == roce_icrc(packet)
            opcode = packet[28]
            assert int(row["infiniband.bth.opcode"]) == opcode
            if opcode == 0x81:
                seen["cnp"] += 1
                assert packet[32] & 0x40, "BECN set"
                assert len(packet) == 20 + 8 + 12 + 16 + 4 and ecn == 0
            elif ecn == 2:
                seen["ect0"] += 1
            elif ecn == 3:
                seen["ce"] += 1
                assert opcode not in (0x11, 0x81), "only data is marked"
    assert seen["ect0"] > 0 and seen["ce"] > 0 and seen["cnp"] > 0, seen
