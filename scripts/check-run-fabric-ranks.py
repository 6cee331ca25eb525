#!/usr/bin/python3
"""Checks run_fabric and FabricCampaign over MPI ranks against the sequential run.

    PYTHONPATH=build/python /usr/bin/python3 scripts/check-run-fabric-ranks.py PROGRAM

PROGRAM is rnic-fabric built in an ns-3 tree with its mpi module (from the
same source as the package drp on PYTHONPATH). Runs one leaf-spine with
drops and retransmissions by PROGRAM in one process with
ArrivalsLastScheduler (drp.Launch), then drp.run_fabric(program=PROGRAM,
ranks=N) for N = 2 and 4, and a FabricCampaign of two runs on 2 ranks; every
transfer, switch port, drop count and counter must be the sequential run's
(but the events and the simulator's end, which a split run cannot stop at,
and the wall time). Prints one line per run; exits non-zero if any differs.
"""

import os
import shutil
import sys
import tempfile

import drp

#: Counters a split run may differ in: it runs until every rank is out of events.
SPLIT_COUNTERS = {"events", "simulator_end_seconds", "wall_seconds"}

PARAMS = dict(
    topology="leaf-spine",
    leaves=4,
    hosts=4,
    workload="poisson",
    duration="20ms",
    queue="10p",
    defaults={"ns3::EthernetChannel::Delay": "1us"},
)


def differences(a, b):
    """Return what differs between two FabricRunResults, in words."""
    found = []
    for name in ("transfers", "ports", "drops"):
        if not getattr(a, name).equals(getattr(b, name)):
            found.append(name)
    for name in sorted(set(a.counters) | set(b.counters)):
        if name not in SPLIT_COUNTERS and a.counters.get(name) != b.counters.get(name):
            found.append(f"{name} {a.counters.get(name)} != {b.counters.get(name)}")
    return found


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit(f"usage: {sys.argv[0]} RNIC_FABRIC_PROGRAM (built with ns-3's mpi module)")
    program = sys.argv[1]
    mpirun = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.getuid() == 0 else [])
    if shutil.which("mpirun") is None:
        sys.exit("check-run-fabric-ranks: no mpirun (apt-get install openmpi-bin)")
    arrivals_last = ["--SchedulerType=ns3::ArrivalsLastScheduler"]
    raw = drp.Launch(program, options=arrivals_last).run(PARAMS)
    sequential = drp.FabricRunResult(raw)
    transfers = len(sequential.transfers)
    print(f"check-run-fabric-ranks: sequential: {transfers} transfers, "
          f"{sequential.counters['drops']} drops")
    failed = transfers == 0 or sequential.counters["drops"] == 0
    if failed:
        print("check-run-fabric-ranks: the sequential run has no transfers or no drops")
    for ranks in (2, 4):
        split = drp.run_fabric(**PARAMS, program=program, ranks=ranks, mpirun=mpirun)
        found = differences(sequential, split)
        print(f"check-run-fabric-ranks: run_fabric, {ranks} ranks: "
              + (f"DIFFERS: {', '.join(found)}" if found else "the same"))
        failed |= bool(found)
    with tempfile.TemporaryDirectory() as directory:
        with drp.FabricCampaign(os.path.join(directory, "ranks.db")) as campaign:
            campaign.run(PARAMS, 2, program=program, ranks=2, mpirun=mpirun, progress=False)
            stored = campaign.to_dataframe(PARAMS)
        first = stored[stored["run"] == 1].reset_index(drop=True)
        same = (
            len(first) == transfers
            and (first["fct_us"].to_numpy() == sequential.transfers["fct_us"].to_numpy()).all()
        )
        print("check-run-fabric-ranks: FabricCampaign, 2 ranks, 2 runs: "
              + (f"run 1 the same {transfers} FCTs" if same else "DIFFERS"))
        failed |= not same
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
