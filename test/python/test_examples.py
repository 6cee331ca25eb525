"""The C++ programs: bad options fail with a message, output and CSV files."""

import csv
import pathlib
import subprocess

import pytest

import drp

EXAMPLES = pathlib.Path(drp.__file__).resolve().parents[2] / "examples"

#: A quick experiment.
QUICK = ["--transfers=3", "--size=4096"]


def program(name):
    path = EXAMPLES / name
    if not path.exists():
        pytest.skip("examples not built")
    return str(path)


def run(name, *args, cwd=None):
    return subprocess.run(
        [program(name), *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


@pytest.mark.parametrize(
    "option, message",
    [
        ("--transfers=5x", 'transfers = "5x" is not an integer in [0, 4294967295]'),
        ("--transfers=1e3", 'transfers = "1e3" is not an integer'),
        ("--transfers=-1", 'transfers = "-1" is not an integer'),
        ("--size=4096.5", 'size = "4096.5" is not an integer'),
        ("--frp=0.1abc", 'frp = "0.1abc" is not a number'),
        ("--lfp=nan", 'lfp = "nan" is not a number'),
        ("--meanBurst=2.5.", 'meanBurst = "2.5." is not a number'),
        ("--seed=1 2", 'seed = "1 2" is not an integer'),
        ("--pingInterval=abc", 'pingInterval = "abc" is not a time'),
        ("--ns3::DrpTransport::Window=abc", 'ns3::DrpTransport::Window = "abc" is not a number'),
        (
            "--ns3::DrpTransport::HandshakeTimeout=2xs",
            'ns3::DrpTransport::HandshakeTimeout = "2xs" is not a time',
        ),
        ("--RngRun=abc", 'RngRun = "abc" is not a number'),
        ("--RngRun=3", "RngRun is set by the scenario (it would ignore this value); use"),
        ("--run=4294967296", 'run = "4294967296" is not an integer in [0, 4294967295]'),
        ("--repetitions=2x", 'repetitions = "2x" is not an integer'),
        (
            "--ns3::EthernetNetDevice::DataRate=10Mbps",
            "ns3::EthernetNetDevice::DataRate is set by the scenario (it would ignore this "
            "value); use the option --rate instead",
        ),
        ("--ns3::DrpTransport::PayloadSize=512", "use the option --payload instead"),
        (
            "--ns3::RdmaHostApplication::Concurrency=4",
            "ns3::RdmaHostApplication::Concurrency is set by the scenario (it would ignore "
            "this value); use the option --concurrency instead",
        ),
        ("--ns3::RdmaHostApplication::Concurrency=0", "use the option --concurrency instead"),
        ("--rate=10Gbpsx", 'rate = "10Gbpsx" is not a data rate'),
        ("--rate=10", "rate = 10bps is out of range [10Mbps, 800Gbps]"),
        ("--rate=1Tbps", 'rate = "1Tbps" is not a data rate'),
        ("--rate=", 'rate = "" is not a data rate'),
        ("--concurrency=0", "concurrency = 0 is out of range [1, 1024]"),
        ("--concurrency=2x", 'concurrency = "2x" is not an integer'),
    ],
)
def test_paper_p2p_refuses_malformed_options(option, message):
    result = run("drp-paper-p2p", *QUICK, option)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stdout == ""


def test_paper_p2p_range_checks_run_numbers():
    result = run("drp-paper-p2p", *QUICK, "--run=4294967295", "--repetitions=2")
    assert result.returncode == 1
    assert "repetitions = 2 with run = 4294967295" in result.stderr
    assert "4294967296" in result.stderr and "[0, 4294967295]" in result.stderr
    result = run("drp-paper-p2p", *QUICK, "--run=4294967294", "--repetitions=2")
    assert result.returncode == 0, result.stderr
    assert "runs 4294967294..4294967295" in result.stdout


def test_paper_p2p_takes_well_formed_options():
    result = run(
        "drp-paper-p2p",
        *QUICK,
        "--frp=1e-1",
        "--lfp=0.05",
        "--pingInterval=2ms",
        "--pings=1",
        "--ns3::DrpTransport::Window=4",
        "--rate=2.5Gbps",
        "--concurrency=2",
    )
    assert result.returncode == 0, result.stderr
    assert "FRP 0.1, LFP 0.05" in result.stdout and "3/3 ok" in result.stdout
    assert result.stdout.startswith("drp p2p at 2500Mbps: 1 x 3 transfers of 4096 B (write, 2 at")


@pytest.mark.parametrize(
    "option, message",
    [
        ("--transfers=5x", 'transfers = "5x" is not an integer'),
        ("--frp=0.1abc", 'frp = "0.1abc" is not a number'),
        ("--lfp=1e", 'lfp = "1e" is not a number'),
        ("--frp=1.5", "frp = 1.5 is out of range [0, 1]"),
        ("--method=fastest", 'method = "fastest" is not valid; valid: traditional, dynamic'),
        ("--method=iwarp", 'method = "iwarp" is not valid; valid: traditional, dynamic, roce'),
        ("--ns3::DrpTransport::Window=abc", 'ns3::DrpTransport::Window = "abc" is not a number'),
        ("--etherType=0x1g", 'etherType = "0x1g" is not a 16-bit number'),
        ("--etherType=0x10000", 'etherType = "0x10000" is not a 16-bit number'),
        (
            "--etherType=0x0800",
            "etherType = 0x0800 (2048) is not a valid DRP EtherType: use 0x0101-0x01FF or "
            "0x0600-0xFFFF",
        ),
        ("--etherType=1500", "etherType = 0x05DC (1500) is not a valid DRP EtherType"),
        (
            "--ns3::RnicNetDevice::EtherType=2054",
            "RnicNetDevice::EtherType = 0x0806 (2054) is not a valid DRP EtherType",
        ),
        ("--failRegistrations=1001", "failRegistrations = 1001 is out of range [0, 1000]"),
        ("--failRegistrations=-1", 'failRegistrations = "-1" is not'),
        ("--dropAtResponder=1,", 'dropAtResponder = "1," is not a comma-separated list'),
        ("--dropAtInitiator=x", 'dropAtInitiator = "x" is not a comma-separated list'),
        ("--dropAtResponder=-2", 'dropAtResponder = "-2" is not a comma-separated list'),
    ],
)
def test_rnic_first_refuses_malformed_options(option, message):
    result = run("rnic-first", option)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and message in result.stderr


def test_rnic_first_runs():
    result = run("rnic-first", "--transfers=2", "--frp=0.5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("transfer ") == 2


def test_rnic_first_refuses_two_loss_choices():
    result = run("rnic-first", "--lfp=0.1", "--dropAtResponder=1")
    assert result.returncode == 1
    assert "lfp = 0.1 and dropAtResponder/dropAtInitiator both choose the losses" in result.stderr


def test_rnic_first_places_failures_and_losses():
    # Two registrations fail: the traditional RNIC asks three times.
    result = run("rnic-first", "--transfers=1", "--method=traditional", "--failRegistrations=2")
    assert result.returncode == 0, result.stderr
    assert "3 request(s), 2 invalid reply(ies)" in result.stdout
    # The first REQ (the responder's frame 0) is lost, and the REL (then frame 66).
    result = run("rnic-first", "--transfers=2", "--frp=0", "--dropAtResponder=0,66")
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.endswith("2 request(s), 0 invalid reply(ies), 0 retransmission(s), 2 timer expiry(ies)")
    assert second.endswith("+584.818us, 1 request(s), 0 invalid reply(ies), 0 retransmission(s), 0 timer expiry(ies)")


@pytest.mark.parametrize("ethertype", ["0x88B5", "0x01ff", "511", "35509"])
def test_rnic_first_takes_both_ethertypes(ethertype):
    result = run("rnic-first", "--transfers=2", "--lfp=0.05", "--ping=1", f"--etherType={ethertype}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": success,") == 2


def test_paper_p2p_says_when_no_transfer_succeeded():
    # Every registration fails: neither method has a mean transfer time.
    result = run("drp-paper-p2p", *QUICK, "--frp=1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("no successful transfers") == 3
    assert "none (no successful transfers with either method)" in result.stdout
    assert "nan" not in result.stdout.lower() and "inf" not in result.stdout.lower()


def test_paper_p2p_detects_csv_write_errors():
    result = run("drp-paper-p2p", *QUICK, "--csv=/dev/full")
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert 'error: csv = "/dev/full": writing failed' in result.stderr


@pytest.mark.parametrize(
    "option",
    [
        "--frp=2",  # refused by validation
        "--transfers=5x",  # malformed
        "--ns3::DrpTransport::Window=0",  # refused by the model while the run builds it
    ],
)
def test_a_failing_command_leaves_an_existing_csv_alone(tmp_path, option):
    csv = tmp_path / "yesterday.csv"
    csv.write_text("yesterday's rows\n")
    result = run("drp-paper-p2p", *QUICK, f"--csv={csv}", option)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert csv.read_text() == "yesterday's rows\n"
    missing = tmp_path / "new.csv"
    result = run("drp-paper-p2p", *QUICK, f"--csv={missing}", option)
    assert result.returncode == 1
    assert not missing.exists()


def test_paper_p2p_writes_csv(tmp_path):
    csv = tmp_path / "transfers.csv"
    csv.write_text("yesterday's rows\n")
    result = run("drp-paper-p2p", *QUICK, "--repetitions=2", f"--csv={csv}")
    assert result.returncode == 0, result.stderr
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("method,frp,lfp,loss_model,operation,topology,size,payload,rate,")
    assert len(lines) == 1 + 2 * 2 * 3
    rows = [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]
    assert {(row["rate"], row["concurrency"]) for row in rows} == {("1000000000", "1")}
    result = run("drp-paper-p2p", *QUICK, f"--csv={tmp_path / 'no' / 'such.csv'}")
    assert result.returncode == 1 and "cannot be written" in result.stderr
    assert result.stdout == ""


def test_paper_p2p_csv_keeps_every_nanosecond_after_200_s(tmp_path):
    # Five transfers, two at a time, 100 s apart: a run over 200 s of
    # simulated time.
    csv = tmp_path / "long.csv"
    result = run(
        "drp-paper-p2p",
        "--transfers=5",
        "--frp=0.3",
        "--lfp=0.01",
        "--rate=10Gbps",
        "--concurrency=2",
        "--ns3::RdmaHostApplication::Gap=100s",
        f"--csv={csv}",
    )
    assert result.returncode == 0, result.stderr
    lines = csv.read_text().splitlines()
    header = lines[0].split(",")
    rows = [dict(zip(header, line.split(","))) for line in lines[1:]]
    assert len(rows) == 2 * 5
    assert {(row["rate"], row["concurrency"]) for row in rows} == {("10000000000", "2")}

    def ns(text):
        """A CSV time (microseconds, three decimals) in nanoseconds, exactly."""
        whole, point, decimals = text.partition(".")
        assert point and len(decimals) == 3, text
        return int(whole) * 1000 + int(decimals)

    assert max(ns(row["end_us"]) for row in rows) > 200 * 10**9
    for row in rows:
        assert ns(row["end_us"]) - ns(row["start_us"]) == ns(row["duration_us"]), row


@pytest.mark.parametrize(
    "option, message",
    [
        (
            "--topology=ring",
            'topology = "ring" is not valid; valid: star, tree, leaf-spine, fat-tree',
        ),
        (
            "--workload=gossip",
            'workload = "gossip" is not valid; valid: incast, permutation, all-to-all',
        ),
        ("--hosts=0", "StarFabricHelper hosts = 0 is out of range [1, 65535]"),
        ("--hosts=4x", 'hosts = "4x" is not an integer'),
        ("--topology=fat-tree --k=3", "FatTreeFabricHelper k = 3 must be even"),
        ("--queue=8x", "queue = 8x is no queue size"),
        ("--workload=poisson --load=1.5", "load = 1.5 is out of range (0, 1]"),
        ("--workload=poisson --cdf=/nonexistent.cdf", "flow-size CDF /nonexistent.cdf: cannot"),
        ("--degree=9", "incast degree = 9 is out of range [1, 8]"),
        ("--fabricRate=10G", 'fabricRate = "10G" is not a data rate'),
    ],
)
def test_rnic_fabric_refuses_malformed_options(option, message):
    result = run("rnic-fabric", *option.split())
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr


@pytest.mark.parametrize("name", ["rnic-first", "pfc-pause", "rnic-fabric", "drp-paper-p2p"])
def test_pcap_is_a_file_prefix_in_every_program(name, tmp_path):
    """One meaning of --pcap everywhere: a prefix; a yes/no value is refused, saying so."""
    result = run(name, "--pcap=1", cwd=tmp_path)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "pcap = 1 reads as yes or no, but pcap takes a file prefix" in result.stderr
    assert not list(tmp_path.glob("*.pcap"))


def test_rnic_fabric_incast_drops_at_the_receiver_port(tmp_path):
    csv = tmp_path / "flows.csv"
    result = run("rnic-fabric", "--hosts=9", "--queue=8p", f"--csv={csv}")
    assert result.returncode == 0, result.stderr
    assert "8 flows; ended: 8 success" in result.stdout
    assert "switch 0 port 0:" in result.stdout and "peak queue 8 frames" in result.stdout
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("source,destination,switches,size,start_us,fct_us,ideal_us,slowdown")
    assert len(lines) == 9 and all(",0,1,65536,0," in line for line in lines[1:])
    # One ideal for the one size and path; each slowdown is FCT / ideal (> 1: the queue overflowed).
    rows = [line.split(",") for line in lines[1:]]
    assert len({row[6] for row in rows}) == 1
    for row in rows:
        assert abs(float(row[7]) - float(row[5]) / float(row[6])) < 1e-4 * float(row[7])
        assert float(row[7]) > 1
    assert "slowdown (FCT / ideal FCT) by flow size:" in result.stdout
    assert "65536 to 65536 bytes, 8 flows: p50 " in result.stdout


@pytest.mark.parametrize("name", ["rnic-fabric", "drp-paper-p2p"])
@pytest.mark.parametrize("where", ["/nonexistent/x.csv", "DIR"])
def test_every_program_refuses_a_csv_it_cannot_write(tmp_path, name, where):
    """One rule: refused before anything runs, with the option and the path named."""
    path = str(tmp_path) if where == "DIR" else where
    args = QUICK if name == "drp-paper-p2p" else ["--hosts=3"]
    result = run(name, *args, f"--csv={path}")
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.startswith(f'error: csv = "{path}" cannot be written'), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    "option, message",
    [
        # ns-3's QueueSize holds 32 bits: these wrapped to 704 bytes and to 0.
        ("--queue=4294968kB", "queue = 4294968kB is 4294968000 bytes, out of range [1, 4294967295]"),
        ("--queue=4194304KiB", "queue = 4194304KiB is 4294967296 bytes, out of range"),
        ("--queue=5000Mip", "queue = 5000Mip is 5242880000 frames, out of range"),
        # Poisson loads near 0 looped until memory ran out, or named AddTransfer.
        ("--workload=poisson --load=1e-300", "load = 1e-300 makes the mean gap"),
        ("--workload=poisson --load=1e-12", "load = 1e-12 makes the mean gap"),
        (
            "--topology=fat-tree --k=32 --workload=poisson --load=1 --duration=1000s",
            "on 8192 hosts would give 5.98e+08 flows, more than the 10000000 one workload may hold",
        ),
        (
            "--topology=star --hosts=1 --workload=all-to-all",
            "the star fabric has 1 host (hosts = 1); the workload all-to-all needs at least 2",
        ),
        (
            "--topology=star --hosts=1 --workload=incast",
            "the star fabric has 1 host (hosts = 1); the workload incast needs at least 2",
        ),
    ],
)
def test_rnic_fabric_refuses_what_cannot_run(option, message):
    result = run("rnic-fabric", *option.split())
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("0 1\n", "line 1: the largest size is 0 bytes (a flow has at least 1 byte"),
        ("0.1 0.5\n0.3 1\n", "line 2: the largest size is 0.3 bytes"),
        ("\x7fELF\x02\x01\x01\x00\x00\x00\n", "line 1: the line (not text: is this a CDF file?)"),
    ],
)
def test_rnic_fabric_refuses_cdfs_that_make_no_real_flow(tmp_path, content, message):
    cdf = tmp_path / "sizes.cdf"
    cdf.write_bytes(content.encode("latin-1"))
    result = run("rnic-fabric", "--workload=poisson", f"--cdf={cdf}")
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert message in result.stderr and "ELF" not in result.stderr, result.stderr


def test_rnic_fabric_says_why_a_poisson_run_has_no_flow():
    result = run(
        "rnic-fabric",
        "--topology=leaf-spine",
        "--workload=poisson",
        "--load=0.3",
        "--cdf=data-mining",
        "--duration=10ms",
    )
    assert result.returncode == 0, result.stderr
    assert "0 flows; ended: none (no arrival within duration = +10ms: " in result.stdout
    assert "flows expected in all at load 0.3; give a longer duration or a higher load" in (
        result.stdout
    )


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ["--fabricRate=10Gbps"],
            "error: fabricRate has no effect here: it is for links between switches, which a "
            "star has none of (topology = star); leave it out, or give what it is for",
        ),
        (
            ["--buffer=1MB"],
            "error: buffer has no effect here: it is for lossless = true (lossless = false)",
        ),
        (
            ["--threshold=static"],
            "error: threshold has no effect here: it is for lossless = true",
        ),
        (
            ["--workload=poisson", "--degree=2"],
            "error: degree has no effect here: it is for workload = incast (workload = poisson)",
        ),
        (
            ["--workload=poisson", "--bytes=1000"],
            "error: bytes has no effect here: it is for incast, permutation and all-to-all",
        ),
        (["--load=0.3"], "error: load has no effect here: it is for workload = poisson"),
        (["--leaves=4"], "error: leaves has no effect here: it is for topology = leaf-spine"),
        (["--topology=fat-tree", "--hosts=3"], "error: hosts has no effect here"),
        (["--ecnMin=8KB"], "error: ecnMin has no effect here: it is for ecn = true"),
        (["--ackDelay=100us"], "error: ackDelay has no effect here: it is for ackEvery above 1"),
        (["--victimBytes=1000"], "error: victimBytes has no effect here: it is for victims"),
    ],
)
def test_rnic_fabric_refuses_options_that_have_no_effect(options, message):
    result = run("rnic-fabric", "--hosts=3", *options)
    assert result.returncode == 1
    assert message in result.stderr
    assert run("rnic-fabric", "--hosts=3").returncode == 0


def test_a_campaign_grid_that_crosses_an_option_with_what_it_needs_is_refused(tmp_path):
    campaign = drp.FabricCampaign(tmp_path / "runs.db")
    with pytest.raises(ValueError, match="buffer has no effect here"):
        campaign.run({"hosts": 3, "lossless": [True, False], "buffer": "1MB"}, repetitions=1)
    # As a list of grids, each option where it applies.
    grids = [{"hosts": 3, "lossless": True, "buffer": "1MB"}, {"hosts": 3, "lossless": False}]
    assert len(drp.param_combinations(grids, drp.campaign.FABRIC)) == 2


def test_rnic_fabric_notes_hosts_that_cannot_fill_their_links():
    # The paper's card on 25 Gb/s host links: its PCIe, not the network,
    # limits the flows, and the run says so before it starts.
    slow = run("rnic-fabric", "--hosts=2", "--degree=1", "--hostRate=25Gbps", "--nic=paper-1g")
    assert slow.returncode == 0, slow.stderr
    assert (
        "note: the RNICs (nic = paper-1g) move at most 7.7283 Gb/s of payload, limited by "
        "their PCIe (DMA set-up +500ns and TLPs of 256 + 24 bytes at 16 Gb/s per 1024-byte "
        "payload), less than the 23.4004 Gb/s that a 25 Gb/s host link carries"
    ) in slow.stderr
    # By default the card of the host rate: nothing to note.
    fast = run("rnic-fabric", "--hosts=2", "--degree=1", "--hostRate=25Gbps")
    assert fast.returncode == 0, fast.stderr
    assert "note:" not in fast.stderr
    # A setting of the user's that leaves the card short of its port is noted too.
    slowed = run(
        "rnic-fabric",
        "--hosts=2",
        "--degree=1",
        "--hostRate=100Gbps",
        "--ns3::DrpTransport::TxProcessingCycles=100",
    )
    assert slowed.returncode == 0, slowed.stderr
    assert (
        "note: the RNICs (nic = 100g-pcie3x16) move at most 81.92 Gb/s of payload, limited by "
        "their processing (100 cycles per frame at 1000 MHz)"
    ) in slowed.stderr
    wrong = run("rnic-fabric", "--nic=100g")
    assert wrong.returncode != 0
    assert 'nic = "100g" is not a NIC profile; valid: paper-1g, ' in wrong.stderr
    assert "(or auto: the profile of the rate)" in wrong.stderr


def test_rnic_fabric_moves_jumbo_frames():
    # 4096-byte payloads in 9000-byte jumbo frames through the switch; the
    # payload must fit the MTU.
    jumbo = run(
        "rnic-fabric",
        "--hosts=2",
        "--degree=1",
        "--bytes=1000000",
        "--hostRate=100Gbps",
        "--payload=4096",
        "--mtu=9000",
    )
    assert jumbo.returncode == 0, jumbo.stderr
    assert "1 success; 0 indirect; 0 retransmissions" in jumbo.stdout
    assert "frames dropped: none" in jumbo.stdout
    small = run("rnic-fabric", "--hosts=2", "--payload=4096")
    assert small.returncode != 0
    assert "payload (with mtu 1500) = 4096 is out of range [1, 1468]" in small.stderr
    big = run("rnic-fabric", "--hosts=2", "--mtu=9217")
    assert big.returncode != 0
    assert "mtu = 9217 is out of range [46, 9216]" in big.stderr


def test_rnic_fabric_reports_every_drop_and_the_time_of_the_last_transfer(tmp_path):
    drops = tmp_path / "drops.csv"
    result = run(
        "rnic-fabric",
        "--hosts=9",
        "--queue=8p",
        "--frp=0.5",
        "--ns3::IndirectBuffer::Capacity=8192",
        f"--dropsCsv={drops}",
    )
    assert result.returncode == 0, result.stderr
    line = next(l for l in result.stdout.splitlines() if l.startswith("frames dropped:"))
    assert "switch egress-queue-full" in line and "rnic buffer-full" in line, line
    rows = drops.read_text().splitlines()
    assert rows[0] == "device,reason,frames"
    table = {tuple(r.split(",")[:2]): int(r.split(",")[2]) for r in rows[1:]}
    assert table[("switch", "egress-queue-full")] > 0 and table[("rnic", "buffer-full")] > 0
    assert {device for device, _ in table} == {"switch", "link", "rnic", "host"}
    # The run's length is when the last transfer ended, not the idle checks after it.
    ended = next(l for l in result.stdout.splitlines() if l.startswith("last transfer ended at"))
    assert float(ended.split()[4].lstrip("+").rstrip("ms")) < 20, ended


def test_fabric_scale_runs_a_fat_tree_and_counts_events_per_frame():
    result = run("drp-fabric-scale", "--topology=fat-tree", "--k=4", "--flows=400", "--rto=1ms")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fat-tree, links 1Gbps; Poisson web-search flows"), lines[0]
    header = lines[1].split()
    assert "ev/frame" in header and header.index("ev/frame") == header.index("us/frame") + 1
    row = lines[2].split()
    assert int(row[0]) == 16  # k^3/4 hosts
    events, frames, per_frame = int(row[7]), int(row[10]), float(row[12])
    assert frames > 0 and per_frame == pytest.approx(events / frames, abs=0.006)


@pytest.mark.parametrize(
    "option, message",
    [
        ("--topology=torus", 'topology = "torus" is not valid; valid: leaf-spine, fat-tree'),
        ("--topology=fat-tree --k=5", "k = 5: a fat-tree's switches have an even number"),
        ("--topology=fat-tree --k=64", "k = 64 is out of range"),
        ("--hosts=17", "hosts = 17 cannot be built as this benchmark's leaf-spine"),
        (
            "--scheduler=heap",
            'scheduler = "heap" is not valid; valid: map, calendar, priority-queue',
        ),
    ],
)
def test_fabric_scale_refuses_sizes_it_cannot_build(option, message):
    result = run("drp-fabric-scale", *option.split())
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_fabric_scale_schedulers_run_the_same_events():
    # The columns that do not depend on the machine: flows, ended, ok, simulated time,
    # events, frames, events per frame, retransmissions, marks, pauses.
    def figures(scheduler):
        result = run(
            "drp-fabric-scale", "--hosts=4", "--flows=200", "--rto=1ms", f"--scheduler={scheduler}"
        )
        assert result.returncode == 0, result.stderr
        row = result.stdout.splitlines()[2].split()
        return [row[i] for i in (0, 1, 2, 3, 6, 7, 10, 12, 13, 14, 15)]

    expected = figures("map")
    assert int(expected[5]) > 0  # events
    for scheduler in ("calendar", "priority-queue"):
        assert figures(scheduler) == expected, scheduler


def test_drp_line_rate_measures_the_data_phase_against_the_ceiling(tmp_path):
    table = tmp_path / "line-rate.csv"
    result = run(
        "drp-line-rate",
        "--rates=25Gbps,400Gbps",
        "--payloads=1024,4096",
        "--operations=write,read",
        "--nics=auto,paper-1g",
        "--size=1000000",
        "--smallTransfers=50",
        f"--csv={table}",
    )
    assert result.returncode == 0, result.stderr
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 2 * 2 * 2
    for row in rows:
        parts = sum(float(row[k]) for k in ("registration_us", "handshake_us", "data_us", "tail_us"))
        assert parts == pytest.approx(float(row["fct_us"]), abs=0.01), row
        ceiling = float(row["rate_gbps"]) * int(row["payload"]) / (int(row["payload"]) + 70)
        assert float(row["ceiling_gbps"]) == pytest.approx(ceiling, rel=1e-4)
        share = float(row["share"])
        if row["nic"] != "paper-1g":
            assert 0.95 <= share <= 1.00001, row  # a server card fills its line
        # Small transfers: one registration at a time bounds them.
        assert float(row["small_per_s"]) <= float(row["small_host_ceiling_per_s"]), row
    paper = [r for r in rows if r["nic"] == "paper-1g" and r["payload"] == "1024"]
    for row in paper:  # its PCIe: 1024 bytes per 1.06 us
        assert float(row["goodput_gbps"]) == pytest.approx(7.73, abs=0.01), row
    assert {r["nic"] for r in rows} == {"paper-1g", "25g-pcie3x8", "400g-pcie5x16"}
    wrong = run("drp-line-rate", "--payloads=9000")
    assert wrong.returncode != 0
    assert "payloads = 9000 is out of range [1, 8968]" in wrong.stderr


def test_rdma_verbs_writes_and_reads_back_over_both_methods():
    """The verbs example: every WRITE and READ completes in order, the bytes
    agree at both ends, and with failing registrations the dynamic method
    ends its writes sooner than the traditional one."""
    ends = {}
    for method in ("traditional", "dynamic"):
        result = run("rdma-verbs", f"--method={method}", "--frp=0.5")
        assert result.returncode == 0, result.stderr
        lines = [line for line in result.stdout.splitlines() if "wr_id" in line]
        ids = [int(line.split("wr_id")[1].split()[0]) for line in lines]
        assert ids == [0, 100, 1, 101, 2, 102, 3, 103], result.stdout
        assert all(line.endswith("success") for line in lines)
        assert "bytes that differ: written 0, read back 0" in result.stdout
        last_write = [line for line in lines if "wr_id 3 " in line][0]
        ends[method] = float(last_write.split("us")[0].lstrip("+"))
    assert ends["dynamic"] < ends["traditional"]
    bad = run("rdma-verbs", "--bytes=0")
    assert bad.returncode == 1 and "bytes = 0 is out of range [1, 16777216]" in bad.stderr


def test_ib_perftest_prints_perftests_report():
    """perftest's tools: the bandwidth and latency reports with perftest's
    columns, one line per size, and bad options refused by name."""
    bw = run("ib-perftest", "--test=write_bw", "--size=65536", "--iterations=50")
    assert bw.returncode == 0, bw.stderr
    assert " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]" in bw.stdout
    row = [line.split() for line in bw.stdout.splitlines() if line.startswith(" 65536")]
    assert len(row) == 1 and row[0][1] == "50", bw.stdout
    assert 0.8 < float(row[0][3]) <= 0.94, bw.stdout  # the 1 Gb/s card's goodput
    lat = run("ib-perftest", "--test=send_lat", "--all", "--iterations=5",
              "--method=traditional")
    assert lat.returncode == 0, lat.stderr
    sizes = [int(line.split()[0]) for line in lat.stdout.splitlines()
             if line.split() and line.split()[0].isdigit()]
    assert sizes == [2 << i for i in range(23)], lat.stdout
    atomic = run("ib-perftest", "--test=atomic_lat", "--atomic=CMP_AND_SWAP", "--iterations=20")
    assert atomic.returncode == 0, atomic.stderr
    row = [line.split() for line in atomic.stdout.splitlines() if line.startswith(" 8 ")]
    assert len(row) == 1 and row[0][1] == "20", atomic.stdout
    assert float(row[0][4]) == 19.46, atomic.stdout  # read_lat's 19.32 + 18 bytes at 1 Gb/s
    bad = run("ib-perftest", "--test=atomic_bw")
    assert bad.returncode == 1 and "valid: write_bw, write_lat" in bad.stderr
    bad = run("ib-perftest", "--test=atomic_lat", "--atomic=XOR")
    assert bad.returncode == 1 and "valid: FETCH_AND_ADD, CMP_AND_SWAP" in bad.stderr
