"""run_fabric and FabricCampaign by the program rnic-fabric (drp.Launch).

Over MPI ranks this needs rnic-fabric built with ns-3's mpi module, which
Debian's ns-3 lacks: scripts/check-run-fabric-ranks.py checks that in an
ns-3 tree (check-ns3-tree.sh --mpi). Here the program is the build's own,
in one process: its result, written with --resultFile and read back, must be
the run in this process, record for record.
"""

import pathlib
import shutil
import subprocess

import pytest

import drp
from drp import _drp

BUILD = pathlib.Path(drp.__file__).resolve().parents[2]
PROGRAM = BUILD / "examples" / "rnic-fabric"

#: Counters that only the wall clock sets.
WALL = {"wall_seconds"}

#: Parameters off their defaults of every kind: times (not a whole number of
#: milliseconds), rates, doubles, bools, strings, a file and attribute defaults.
PARAMS = dict(
    topology="leaf-spine",
    leaves=2,
    spines=2,
    hosts=3,
    workload="poisson",
    load=0.8,
    duration="2.5ms",
    host_rate="10Gbps",
    fabric_rate="25Gbps",
    queue="12p",
    frp=0.05,
    ecn=True,
    cc="dcqcn",
    ecn_pmax=0.1 + 0.2,
    timeout_mode="adaptive",
    ack_every=2,
    ack_delay="17us",
    ecmp_seed=7,
    run=2,
    defaults={"ns3::EthernetChannel::Delay": "1us", "ns3::DrpDcqcn::RateAi": "10Mbps"},
)


def assert_same(a, b):
    assert a.params == b.params
    assert a.transfers.equals(b.transfers) and len(a.transfers) > 0
    assert a.ports.equals(b.ports)
    assert a.drops.equals(b.drops)
    assert {k: v for k, v in a.counters.items() if k not in WALL} == {
        k: v for k, v in b.counters.items() if k not in WALL
    }
    assert a.flows_note == b.flows_note and a.version == b.version


def test_arguments_are_the_options_of_rnic_fabric_off_their_defaults():
    assert _drp.FabricConfig().arguments() == []
    arguments = _drp.FabricConfig(**PARAMS).arguments()
    assert "--duration=2500000ns" in arguments  # steps of the resolution: exact
    assert "--hostRate=10000000000bps" in arguments
    assert "--ecnPmax=0.30000000000000004" in arguments  # every digit of the double
    assert "--ecn=1" in arguments and "--ackDelay=17000ns" in arguments
    assert arguments[-2:] == ["--ns3::DrpDcqcn::RateAi=10Mbps", "--ns3::EthernetChannel::Delay=1us"]
    files = _drp.FabricConfig(topology_file="t.txt", flow_file="f.txt", fct_file="o.txt").arguments()
    assert files == ["--topology-file=t.txt", "--flow-file=f.txt", "--fct-file=o.txt"]


def other_than(value):
    """Return a value of the type of ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 2
    if isinstance(value, float):
        return value / 2 + 0.125
    return value + "x"


def test_every_parameter_is_an_option_of_rnic_fabric():
    command = drp.Launch(str(PROGRAM)).command(["--help"])
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    for name in drp.fabric.FABRIC_PARAMETERS:
        if name == "defaults":
            continue
        # A value off the default makes the option appear: set each alone.
        changed = _drp.FabricConfig()
        setattr(changed, name, other_than(getattr(changed, name)))
        (argument,) = changed.arguments()
        option = argument.split("=")[0]
        assert f"    {option}:" in printed, option


def test_the_program_gives_the_run_in_this_process_to_the_nanosecond():
    by_program = drp.run_fabric(**PARAMS, program=PROGRAM)
    assert_same(by_program, drp.run_fabric(**PARAMS))
    assert by_program.counters["cnps"] > 0 and by_program.counters["drops"] > 0


def test_a_campaign_by_the_program_stores_the_runs_of_this_process(tmp_path):
    grid = {"hosts": 5, "queue": "8p", "frp": 0.2, "bytes": 16384, "method": ["traditional", "dynamic"]}
    with drp.FabricCampaign(tmp_path / "program.db") as by_program:
        assert by_program.run(grid, 2, program=PROGRAM, workers=2, progress=False) == 4
        stored = by_program.to_dataframe(grid)
    with drp.FabricCampaign(tmp_path / "here.db") as here:
        here.run(grid, 2, workers=2, progress=False)
        expected = here.to_dataframe(grid)
    columns = ["method", "run", "source", "fct_us", "retransmissions", "status"]
    order = ["method", "run", "source", "start_us"]
    assert (
        stored[columns + ["start_us"]].sort_values(order).reset_index(drop=True)
    ).equals(expected[columns + ["start_us"]].sort_values(order).reset_index(drop=True))


@pytest.mark.parametrize(
    "params, error, message",
    [
        ({"ranks": 0}, ValueError, "ranks = 0 is out of range"),
        ({"ranks": 2}, ValueError, "give its path as program"),
        ({"program": "/nonexistent/rnic-fabric"}, ValueError, "is not an executable file"),
        ({"program": PROGRAM, "rates": True}, ValueError, "rates in a run by a program"),
        (
            {"program": PROGRAM, "queue_interval": "10us"},
            ValueError,
            "queue_interval in a run by a program",
        ),
        ({"program": PROGRAM, "ranks": 2}, ValueError, "topology = star in a run over 2 ranks"),
        (
            {"program": PROGRAM, "ranks": 2, "topology": "leaf-spine", "mpirun": "no-such-mpirun"},
            FileNotFoundError,
            "mpirun = 'no-such-mpirun' is not a command here",
        ),
    ],
)
def test_what_a_program_cannot_run_is_refused_before_it_starts(params, error, message):
    with pytest.raises(error, match=message):
        drp.run_fabric(**params)


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="no mpirun (openmpi-bin)")
def test_ranks_of_a_program_without_the_mpi_module_fail_with_its_message():
    mpirun = ["mpirun", "--oversubscribe", "--allow-run-as-root"]
    with pytest.raises(RuntimeError, match="needs ns-3's mpi module"):
        drp.run_fabric(topology="leaf-spine", program=PROGRAM, ranks=2, mpirun=mpirun)


def test_a_malformed_result_is_refused():
    with pytest.raises(ValueError, match="malformed line"):
        _drp.read_fabric_result("T 0 1 x\n")


def test_drp_campaign_runs_a_fabric_grid_by_the_program(tmp_path, capsys):
    from drp import cli

    path = tmp_path / "cli.db"
    argv = ["run", str(path), "--fabric", "-p", "hosts=3", "-r", "2", "-q", "--program"]
    assert cli.main([*argv, str(PROGRAM)]) == 0
    with drp.FabricCampaign(path) as campaign:
        stored = campaign.runs_dataframe({"hosts": 3})
    again = drp.run_fabric(hosts=3, run=2)
    assert len(stored) == 2
    assert stored[stored["run"] == 2].iloc[0]["mean_fct_us"] == again.summary["mean_fct_us"]
    for wrong, message in [
        (["run", str(path), "-p", "lfp=0.1", "--ranks", "2"], "give --fabric"),
        (["run", str(path), "--fabric", "--ranks", "2"], "give its path as program"),
    ]:
        with pytest.raises(SystemExit):
            cli.main(wrong)
        assert message in capsys.readouterr().err
