"""The Python bindings: drp.run() against DrpScenario, parameters and errors."""

import math
import pathlib
import re
import subprocess

import numpy as np
import pytest
import scipy.stats

import drp
from drp.experiment import PARAMETERS, RECORD_COLUMNS

#: A quick experiment: a few transfers of a few KiB.
SMALL = {"transfers": 4, "size": 4096}

ROOT = pathlib.Path(__file__).resolve().parents[2]


def mean_us(**params):
    """Mean transfer time of an experiment (SMALL unless overridden)."""
    return drp.run(**{**SMALL, **params}).summary["mean_us"]


def test_small_run_returns_sane_records():
    result = drp.run(**SMALL)
    assert list(result.columns) == list(RECORD_COLUMNS)
    records = result.records
    assert list(records.columns) == list(PARAMETERS) + list(RECORD_COLUMNS)
    assert len(records) == 4
    assert (records["status"] == "success").all()
    assert (records["duration_us"] > 0).all()
    assert np.allclose(records["end_us"] - records["start_us"], records["duration_us"])
    assert sorted(records["index"]) == [0, 1, 2, 3]
    assert (records["method"] == "dynamic").all() and (records["size"] == 4096).all()
    summary = result.summary
    assert summary["n"] == summary["successes"] == 4
    assert summary["mean_us"] == pytest.approx(records["duration_us"].mean())
    assert summary["frames_lost"] == 0 and summary["corrupt_transfers"] == 0
    assert summary["pcie_requests"] > 0 and summary["simulated_seconds"] > 0


def test_version_comes_from_the_version_file():
    version = (ROOT / "VERSION").read_text().split()[0]
    assert drp.__version__ == version
    assert drp.run(**SMALL).version == version


def test_every_parameter_reaches_cpp(tmp_path):
    given = {
        "method": "traditional",
        "frp": 0.25,
        "lfp": 0.02,
        "loss_model": "burst",
        "mean_burst": 4.0,
        "transfers": 3,
        "concurrency": 2,
        "size": 2048,
        "payload": 512,
        "operation": "read",
        "topology": "line",
        "switches": 3,
        "rate": 10_000_000_000,
        "pings": True,
        "ping_interval": 0.0005,
        "seed": 7,
        "run": 3,
        "paired_streams": False,
        "verify": False,
        "defaults": {"ns3::PcieLink::Latency": "300ns"},
        "pcap": str(tmp_path / "p"),
        "ascii": str(tmp_path / "a"),
        "nic": "100g-pcie3x16",
        "mtu": 9000,
    }
    assert set(given) == set(PARAMETERS)
    defaults = drp.Config().to_dict()
    assert all(given[name] != defaults[name] for name in PARAMETERS)
    # The parameters in the result are those of the C++ Config that ran.
    assert drp.run(**given).params == given


@pytest.mark.parametrize(
    "name, value, effect",
    [
        ("size", 8192, "longer"),
        ("payload", 256, "longer"),
        ("operation", "read", "longer"),
        ("topology", "line", "longer"),
        ("defaults", {"ns3::PcieLink::Latency": "2us"}, "longer"),
        ("defaults", {"ns3::RdmaHostApplication::RegistrationLatency": "200us"}, "longer"),
    ],
)
def test_parameters_change_transfer_times(name, value, effect):
    assert mean_us(**{name: value}) > mean_us()


def test_switches_lengthen_the_line():
    assert mean_us(topology="line", switches=4) > mean_us(topology="line", switches=2)


def test_transfers_and_frp_and_method():
    dynamic = drp.run(transfers=20, size=4096, frp=0.5)
    traditional = drp.run(transfers=20, size=4096, frp=0.5, method="traditional")
    assert len(dynamic.records) == 20
    assert (dynamic.records["invalid_replies"] > 0).any()
    assert dynamic.summary["indirect"] > 0
    assert traditional.summary["indirect"] == 0
    assert (drp.run(transfers=20, size=4096).records["invalid_replies"] == 0).all()


def test_lfp_and_loss_models():
    rate = drp.run(transfers=30, size=16384, lfp=0.05)
    burst = drp.run(transfers=30, size=16384, lfp=0.05, loss_model="burst")
    # Bursts of up to 7 frames: fewer than the 16 retries a frame gets, so a
    # burst that meets only one frame's retransmissions cannot end a transfer.
    longer_bursts = drp.run(transfers=30, size=16384, lfp=0.05, loss_model="burst", mean_burst=4)
    assert drp.run(transfers=30, size=16384).counters["frames_lost"] == 0
    assert drp.run(transfers=30, size=16384).counters["host_drops"] == 0
    assert rate.counters["frames_lost"] > 0 and burst.counters["frames_lost"] > 0
    assert (rate.records["retransmissions"] > 0).any()
    assert burst.summary != rate.summary
    assert longer_bursts.summary != burst.summary
    assert (longer_bursts.records["status"] == "success").all()


def test_roce_runs_the_point_to_point_scenario():
    """method="roce": the paper's scenario over RoCEv2. No handshake, no registration in
    the transfer (FRP does nothing); lost frames are repaired by go-back-N, a lost last
    packet by the local ACK timeout (67 ms), byte-exact either way."""
    clean = drp.run(method="roce", transfers=10, size=131072, frp=0.5)
    assert (clean.records["status"] == "success").all() and clean.summary["indirect"] == 0
    assert (clean.records["requests"] == 0).all() and (clean.records["invalid_replies"] == 0).all()
    assert clean.summary["ci95_us"] < 1e-6, "every transfer alike: nothing random touches it"
    # Without the handshake and the responder's registration it is the faster.
    assert clean.summary["mean_us"] < drp.run(transfers=10, size=131072).summary["mean_us"]
    lossy = drp.run(method="roce", transfers=30, size=131072, lfp=0.01)
    assert (lossy.records["status"] == "success").all() and lossy.summary["corrupt_transfers"] == 0
    assert lossy.records["retransmissions"].sum() > lossy.counters["frames_lost"] / 2
    slow = lossy.records[lossy.records["timeouts"] > 0]
    assert len(slow) > 0 and (slow["duration_us"] > 67108).all(), "a timeout costs 2^14 x 4.096 us"


def test_read_and_write():
    read = drp.run(**SMALL, operation="read", frp=0.3, lfp=0.05)
    assert (read.records["status"] == "success").all()
    assert read.counters["corrupt_transfers"] == 0
    assert read.summary["mean_us"] != drp.run(**SMALL, frp=0.3, lfp=0.05).summary["mean_us"]


def test_pings_and_their_interval():
    params = {"transfers": 200, "size": 4096, "pings": True}
    assert drp.run(transfers=200, size=4096).counters["ping_replies"] == 0
    often = drp.run(**params, ping_interval="100us").counters["ping_replies"]
    rarely = drp.run(**params, ping_interval="1ms").counters["ping_replies"]
    assert often > rarely > 0


def test_seed_and_run_select_random_streams():
    def times(**params):
        return drp.run(transfers=20, size=4096, frp=0.3, **params).records["duration_us"].tolist()

    assert times(seed=1, run=1) == times(seed=1, run=1)
    assert times(seed=1, run=2) != times(seed=1, run=1)
    assert times(seed=2, run=1) != times(seed=1, run=1)


def test_defaults_do_not_leak_into_later_runs():
    before = mean_us()
    assert mean_us(defaults={"ns3::PcieLink::Latency": "2us"}) > before
    assert mean_us() == before


def test_ping_interval_takes_seconds_or_a_time_string():
    assert drp.Config(ping_interval="250us").ping_interval == pytest.approx(250e-6)
    assert drp.Config(ping_interval=0.002).ping_interval == pytest.approx(0.002)
    assert drp.parameters(ping_interval="1ms") == drp.parameters(ping_interval=0.001)


def test_rate_takes_bit_s_or_a_string():
    assert drp.Config().rate == 1_000_000_000
    assert drp.Config(rate="10Gbps").rate == 10_000_000_000
    assert drp.Config(rate="2.5Gbps").rate == 2_500_000_000
    assert drp.Config(rate="1.25GBps").rate == 10_000_000_000
    assert drp.Config(rate=40e9).rate == 40_000_000_000
    assert drp.parameters(rate="100Mbps") == drp.parameters(rate=100_000_000)
    assert drp.parameters(rate="1Gbps") == drp.parameters()


#: Frames of a 128 KiB write of 1024-byte payloads, and their sizes in byte
#: times: a control frame (REQ, REQ_ACK, ACK, REL, REL_ACK: 50 bytes, padded
#: to the 64-byte minimum) and a data frame (14 + 32 + 1024 + 4 bytes) to
#: their last bit (8 bytes of preamble first), and a data frame's slot (the
#: 12-byte inter-frame gap after it).
FRAMES, CONTROL, DATA = 128, 8 + 64, 8 + 14 + 32 + 1024 + 4
SLOT = DATA + 12
#: A PCIe DMA engine's time per frame with the PcieLink defaults, ns: 500 ns
#: of set-up, then 4 TLPs of 256 + 24 bytes at 16 Gb/s.
PCIE_NS = 500 + 4 * (256 + 24) * 8 / 16


def critical_wire_ns(bps, pcie_ns=PCIE_NS):
    """Time on the wire of the frames on a loss-free write's critical path, ns.

    The REQ and the REQ_ACK, the data frames one after the other, each
    following the one before at the pace of the slower of port and PCIe,
    then the last one's ACK, the REL and the REL_ACK.
    """

    def wire(byte_times):
        return byte_times * 8e9 / bps

    return 5 * wire(CONTROL) + (FRAMES - 1) * max(wire(SLOT), pcie_ns) + wire(DATA)


@pytest.mark.parametrize(
    "rate, bps, defaults, pcie_ns",
    [
        ("10Gbps", 10e9, {}, PCIE_NS),  # PCIe sets the pace: 1.06 us a frame
        ("10Gbps", 10e9, {"ns3::PcieLink::DmaSetupTime": "250ns"}, PCIE_NS - 250),  # the port
        ("2.5Gbps", 2.5e9, {}, PCIE_NS),  # the port: 3.5 us a slot
    ],
)
def test_rate_gives_the_frames_time_on_the_wire(rate, bps, defaults, pcie_ns):
    # The fixed latencies (host, PCIe, RNIC processing; about 28 us) are the
    # 1 Gb/s time less its wire time; at another rate the wire time changes.
    gigabit = drp.run(transfers=3, defaults=defaults).records["duration_us"]
    measured = drp.run(transfers=3, rate=rate, defaults=defaults).records["duration_us"]
    assert gigabit.nunique() == 1 and measured.nunique() == 1
    fixed_ns = gigabit[0] * 1000 - critical_wire_ns(1e9, pcie_ns)
    assert 20_000 < fixed_ns < 40_000
    expected_us = (fixed_ns + critical_wire_ns(bps, pcie_ns)) / 1000
    # Frames' times are rounded to the nanosecond one by one: 10 ns in all.
    assert measured[0] == pytest.approx(expected_us, abs=0.010)


def test_ten_gigabit_write_takes_164_us():
    # 1150.9 us at 1 Gb/s; the same write at 10 Gb/s, as computed above.
    assert drp.run(transfers=2).summary["mean_us"] == pytest.approx(1150.946, abs=0.001)
    expected_us = (1150946 - critical_wire_ns(1e9) + critical_wire_ns(10e9)) / 1000
    assert expected_us == pytest.approx(163.68, abs=0.01)
    assert drp.run(transfers=2, rate="10Gbps").summary["mean_us"] == pytest.approx(
        expected_us, abs=0.010
    )


def test_concurrency_puts_transfers_in_flight_together():
    records = drp.run(transfers=12, size=16384, concurrency=3).records
    assert (records["status"] == "success").all()
    starts, ends = records["start_us"].to_numpy(), records["end_us"].to_numpy()
    in_flight = [int(((starts <= s) & (ends > s)).sum()) for s in starts]
    assert max(in_flight) == 3
    assert (starts == 0).sum() == 3


def test_times_keep_every_nanosecond_after_200_s():
    # Three transfers 100 s apart: a run over 200 s of simulated time.
    records = drp.run(
        transfers=3, frp=0.3, lfp=0.01, defaults={"ns3::RdmaHostApplication::Gap": "100s"}
    ).records
    assert records["end_us"].iloc[-1] > 200e6
    # Microseconds as doubles: nanoseconds are integers well below 2^53.
    ns = {name: np.rint(records[name] * 1000).astype(np.int64) for name in ("start_us", "end_us")}
    duration = np.rint(records["duration_us"] * 1000).astype(np.int64)
    assert (ns["end_us"] - ns["start_us"] == duration).all()


def test_config_object():
    config = drp.Config(frp=0.1, transfers=5)
    config.lfp = 0.2
    assert (config.frp, config.lfp, config.transfers) == (0.1, 0.2, 5)
    assert drp.parameters(**config.to_dict()) == config.to_dict()
    with pytest.raises(TypeError, match="transfers must be an integer"):
        config.transfers = "many"
    assert "frp=0.1" in repr(config)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"method": "fast"}, r'method = "fast" is not valid; valid: traditional, dynamic'),
        ({"frp": 1.5}, r"frp = 1.5 is out of range \[0, 1\]"),
        ({"lfp": 1}, r"lfp = 1 is out of range \[0, 0.99\]"),
        ({"loss_model": "gilbert"}, r'loss_model = "gilbert" is not valid; valid: rate, burst'),
        ({"mean_burst": 0.5}, r"mean_burst = 0.5 is out of range \[1, 100\]"),
        ({"transfers": 0}, r"transfers = 0 is out of range \[1, "),
        ({"transfers": -1}, r"transfers = -1 is out of range \[0, "),
        ({"size": 0}, r"size = 0 is out of range \[1, "),
        ({"payload": 2000}, r"payload \(with mtu 1500\) = 2000 is out of range \[1, 1468\]"),
        ({"operation": "copy"}, r'operation = "copy" is not valid; valid: write, read'),
        ({"topology": "ring"}, r'topology = "ring" is not valid; valid: p2p, line'),
        ({"switches": 0}, r"switches = 0 is out of range \[1, 64\]"),
        ({"ping_interval": 0}, r"ping_interval = .* is out of range"),
        ({"ping_interval": "1xs"}, r'ping_interval = "1xs" is not a time'),
        ({"ping_interval": math.inf}, r"ping_interval = inf is not a time"),
        ({"seed": 0}, r"seed = 0 is out of range \[1, "),
        ({"defaults": {"ns3::Nothing::Here": "1"}}, r'defaults: "ns3::Nothing::Here" is not an'),
        ({"defaults": {"ns3::DrpTransport::Nothing": "1"}}, r'has no attribute "Nothing"'),
        (
            {"defaults": {"ns3::DrpTransport::HandshakeTimeout": "2xs"}},
            r'HandshakeTimeout = "2xs" is not a time',
        ),
        ({"defaults": {"ns3::DrpTransport::Window": "x"}}, r'Window = "x" is not a number'),
        (
            {"defaults": {"ns3::RnicNetDevice::InterframeGap": "8"}},
            r"ns3::RnicNetDevice::InterframeGap is inherited; set "
            r"ns3::EthernetNetDevice::InterframeGap",
        ),
        (
            {"defaults": {"ns3::RnicNetDevice::Mtu": "1400"}},
            r"ns3::RnicNetDevice::Mtu is set by the scenario .*; use the scenario parameter mtu",
        ),
        (
            {"defaults": {"ns3::TcpSocketBase::UseEcn": "fast"}},
            r'UseEcn = "fast" is not a valid ns3::EnumValue; valid: Off\|On\|AcceptOnly',
        ),
        # Attributes that the scenario sets itself, ignoring their defaults.
        ({"rate": "5Mbps"}, r"rate = 5Mbps is out of range \[10Mbps, 800Gbps\]"),
        ({"rate": 10**12}, r"rate = 1000Gbps is out of range \[10Mbps, 800Gbps\]"),
        ({"rate": "10Gbpsx"}, r'rate = "10Gbpsx" is not a data rate'),
        ({"rate": "10 Gbps"}, r'rate = "10 Gbps" is not a data rate'),
        ({"rate": 1.5e9 + 0.5}, r"rate = 1500000000.5 is not a whole number of bit/s"),
        ({"rate": -1}, r"rate = -1 is not a number of bit/s"),
        ({"concurrency": 0}, r"concurrency = 0 is out of range \[1, 1024\]"),
        ({"concurrency": 1025}, r"concurrency = 1025 is out of range \[1, 1024\]"),
        (
            {"concurrency": 3, "size": 2**31},
            r"concurrency = 3 with size = 2147483648: the responder would register 6442450944 "
            r"bytes at once, over ns3::RdmaHostApplication::MaxRegisteredBytesPerPeer",
        ),
        (
            {"defaults": {"ns3::EthernetNetDevice::DataRate": "10Mbps"}},
            r"ns3::EthernetNetDevice::DataRate is set by the scenario .*use the scenario "
            r"parameter rate instead",
        ),
        (
            {"defaults": {"ns3::RdmaHostApplication::Concurrency": "4"}},
            r"Concurrency is set by the scenario .*use the scenario parameter concurrency instead",
        ),
        (
            {"defaults": {"ns3::RnicNetDevice::DataRate": "10Mbps"}},
            r"ns3::RnicNetDevice::DataRate is set by the scenario",
        ),
        (
            {"defaults": {"ns3::DrpTransport::PayloadSize": "512"}},
            r"PayloadSize is set by the scenario .*use the scenario parameter payload instead",
        ),
        (
            {"defaults": {"ns3::RdmaHostApplication::TransferSize": "4096"}},
            r"TransferSize is set by the scenario .*parameter size instead",
        ),
        (
            {"defaults": {"ns3::RdmaHostApplication::RegistrationFailureProbability": "0.5"}},
            r"RegistrationFailureProbability is set by the scenario .*parameter frp instead",
        ),
        (
            {"defaults": {"ns3::RdmaHostApplication::Transfers": "5"}},
            r"Transfers is set by the scenario .*parameter transfers instead",
        ),
        (
            {"defaults": {"ns3::BurstErrorModel::BurstSize": "ns3::ConstantRandomVariable"}},
            r"BurstSize is set by the scenario .*parameter mean_burst instead",
        ),
        (
            {"defaults": {"ns3::V4Ping::Interval": "1ms"}},
            r"Interval is set by the scenario .*parameter ping_interval instead",
        ),
        (
            {"defaults": {"ns3::RdmaHostApplication::RegistrationRandomVariable": "ns3::No"}},
            r'no type "ns3::No"',
        ),
        # Valid for ns-3's checker, refused by the model while the run builds it.
        ({"defaults": {"ns3::DrpTransport::Window": "0"}}, r"Window = 0 is out of range \[1, "),
    ],
)
def test_bad_values_raise_naming_parameter_and_range(params, message):
    with pytest.raises(ValueError, match=message):
        drp.run(**{**SMALL, **params})


def test_a_failed_run_leaves_the_simulator_clean():
    before = drp.run(transfers=10, size=4096, frp=0.3).records["duration_us"].tolist()
    with pytest.raises(ValueError):
        drp.run(**SMALL, topology="line", defaults={"ns3::DrpTransport::Window": "0"})
    after = drp.run(transfers=10, size=4096, frp=0.3).records["duration_us"].tolist()
    assert after == before


@pytest.mark.parametrize(
    "params, message",
    [
        ({"frp": "0.1"}, r"frp must be a number, not str"),
        ({"transfers": 2.5}, r"transfers must be an integer, not float"),
        ({"pings": 1}, r"pings must be True or False, not int"),
        ({"method": 1}, r"method must be a string, not int"),
        ({"defaults": ["x"]}, r"defaults must be a dict"),
        ({"rate": True}, r'rate must be bit/s \(a number\) or a string such as "10Gbps", not bool'),
        ({"rate": None}, r"rate must be bit/s"),
        ({"concurrency": 1.5}, r"concurrency must be an integer, not float"),
    ],
)
def test_wrong_types_raise_type_error_naming_parameter(params, message):
    with pytest.raises(TypeError, match=message):
        drp.run(**{**SMALL, **params})


def test_unknown_parameter():
    with pytest.raises(TypeError, match=r"unknown parameter 'repetitions'; valid: method, frp"):
        drp.run(**SMALL, repetitions=3)


def test_mean_interval_is_the_student_t_interval():
    sample = [10.0, 12.5, 9.0, 11.0, 14.0]
    interval = drp.mean_interval(sample)
    expected = scipy.stats.t.interval(
        0.95, len(sample) - 1, loc=np.mean(sample), scale=scipy.stats.sem(sample)
    )
    assert interval.count == 5
    assert interval.mean == pytest.approx(np.mean(sample))
    assert interval.half_width == pytest.approx((expected[1] - expected[0]) / 2)
    with pytest.raises(ValueError, match=r"level = .* is out of range \(0, 1\)"):
        drp.mean_interval(sample, 1.0)


def test_every_command_line_option_is_a_parameter():
    # drp-paper-p2p has an option for each field of DrpScenario::Config (but
    # defaults) through Config::AddToCommandLine, and two of its own.
    program = pathlib.Path(drp.__file__).resolve().parents[2] / "examples" / "drp-paper-p2p"
    if not program.exists():
        pytest.skip("examples not built")
    help_text = subprocess.run(
        [str(program), "--PrintHelp"], capture_output=True, text=True, check=True
    ).stdout
    program_options = help_text.split("Program Options:")[1].split("General Arguments:")[0]
    options = set(re.findall(r"^\s+--(\w+):", program_options, re.MULTILINE))
    options -= {"repetitions", "csv"}
    snake_case = {re.sub(r"([A-Z])", r"_\1", option).lower() for option in options}
    assert snake_case == set(PARAMETERS) - {"defaults"}


def test_a_nic_profile_fills_a_fast_link():
    # The paper's card moves at most 7.7 Gb/s through its PCIe at any rate; a
    # 100 Gb/s server RNIC's profile moves the same 1 MiB writes several
    # times faster (the responder's registration, 104 us, is the same).
    params = {"transfers": 2, "size": 1 << 20, "rate": "100Gbps"}
    paper = drp.run(**params).summary["mean_us"]
    server = drp.run(**params, nic="100g-pcie3x16")
    assert server.params["nic"] == "100g-pcie3x16"
    assert paper > 4 * server.summary["mean_us"]
    with pytest.raises(ValueError, match='nic = "100g" is not a NIC profile; valid: paper-1g, '):
        drp.run(nic="100g")


def test_a_run_without_successes_says_so():
    # Every registration fails: no transfer succeeds, and there is no mean.
    result = drp.run(transfers=3, size=4096, frp=1.0)
    summary = result.summary
    assert summary["successes"] == 0
    assert summary["note"] == "no successful transfers"
    assert "no successful transfers" in repr(result)
    assert "nan" not in repr(result).lower()
    assert drp.run(transfers=3, size=4096).summary["note"] == ""
    one = drp.summarize({"status": ["success"], "mode": ["direct"], "duration_us": [5.0]},
                        dict.fromkeys(drp.experiment.COUNTERS, 0))
    assert one["mean_us"] == 5.0 and math.isnan(one["ci95_us"])
    assert one["note"] == "one successful transfer: no interval"


def test_hexadecimal_values_of_integer_attributes():
    """EtherTypes as users write them: 0x88B5 reaches ns-3 as 34997, in both kinds of run."""
    ether_type = {"ns3::RnicNetDevice::EtherType": "0x88B5"}
    result = drp.run(transfers=2, size=4096, defaults=ether_type)
    assert result.params["defaults"] == ether_type
    assert (result.records["status"] == "success").all()
    fabric = drp.run_fabric(hosts=3, degree=2, bytes=4096, defaults=ether_type)
    assert (fabric.transfers["status"] == "success").all()
    with pytest.raises(ValueError, match=r"EtherType = 0x1FFFFF \(2097151\) is not a valid"):
        drp.run(transfers=2, defaults={"ns3::RnicNetDevice::EtherType": "0x1FFFFF"})


def test_roce_with_a_connection_per_transfer():
    """VerbsTransferEngine::Connection=PerTransfer: each RoCE transfer connects through the
    connection manager and has the responder register its region first, so it takes
    longer than over a connection made beforehand, and a failed registration refuses it."""
    per = {"ns3::VerbsTransferEngine::Connection": "PerTransfer"}
    before = drp.run(method="roce", transfers=10, size=65536)
    each = drp.run(method="roce", transfers=10, size=65536, defaults=per)
    assert (each.records["status"] == "success").all() and (each.records["requests"] == 1).all()
    # REQ, REP and the registration of 16 pages (8 us + 16 x 375 ns) at least.
    assert each.summary["mean_us"] > before.summary["mean_us"] + 14
    failing = drp.run(method="roce", transfers=40, size=65536, frp=0.3, defaults=per)
    refused = failing.records[failing.records["status"] == "refused"]
    assert 0 < len(refused) < 40 and (refused["invalid_replies"] == 1).all()
    assert (failing.records[failing.records["status"] == "success"]["duration_us"]
            > before.summary["mean_us"]).all()
    assert failing.summary["corrupt_transfers"] == 0
